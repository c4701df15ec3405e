"""Aztlán as a game plug-in: a game record's setup in, a game state out.

A record names the board and edition (or holds them inline), lists the players in
initial stack order and gives the seed; see docs/records.md.
"""
from __future__ import annotations

import random
from typing import Any

from engine.aztlan.board import Board, BoardError, load_board
from engine.aztlan.cards import FACTIONS, PROSPERITY_CARDS, TRIBES
from engine.aztlan.data import packaged_board, packaged_edition
from engine.aztlan.edition import Edition, load_edition
from engine.aztlan.bots import BOTS, make_bot
from engine.aztlan.options import OPTIONS, load_options
from engine.aztlan.orders import ChooseCard, LetTieStand, React, Score
from engine.aztlan.state import (CHOOSING, CONFLICT, DEVELOPMENT, SCORING, AztlanState, BoardMasks,
                                 Setup)
from engine.core import Bot, DecisionKind, SetupError, check_player

MAX_NAME = 60


class Aztlan:
    name = "aztlan"
    title = "Aztlán"
    min_players, max_players = 2, 4
    seats = TRIBES
    round_name = "age"
    phases = (CHOOSING, DEVELOPMENT, CONFLICT, SCORING)
    decision_kinds = (
        DecisionKind("power", "power card", "card N", 48, simultaneous=True,
                     ask="choose your power card", noun="the power card",
                     help="card N (one of your power cards)",
                     rule="Each age every player secretly plays one power card: its number is the power "
                          "of each of your pawns in conflicts, and its territory type is what your "
                          "domains score this age."),
        DecisionKind("turn", "development turn", "place T [eagle T] [move A to B]", 24, simultaneous=False,
                     ask="place a tribe pawn", noun="a development turn",
                     help="place T, optionally with 'eagle T' and 'move A to B'",
                     rule="In turn, the highest score first, each player places one pawn in any territory, "
                          "then may move one of its pawns to a neighbouring territory (never across a lake)."),
        DecisionKind("conflict", "conflict turn", "battle T | coexist T | tlatoani T battle|coexist | tie T",
                     24, simultaneous=False, ask="settle the conflicts you won", noun="a conflict turn",
                     help="battle T, coexist T, tlatoani T battle|coexist, or tie T, one per territory",
                     rule="Where your power (card number x pawns) is the greatest, you either battle and "
                          "remove the other pawns or coexist and draw a prosperity card; a tie may be "
                          "broken with a Great Tlatoani."),
        DecisionKind("reaction", "battle answer", "sacred T | accept T", 24, simultaneous=True,
                     ask="answer a battle declared against you", noun="an answer to a battle",
                     help="sacred T or accept T",
                     rule="When a battle is declared against your pawns you accept the defeat, or play "
                          "Sacred Games to stay there in coexistence."),
        DecisionKind("scoring", "scoring turn", "score [wild TYPE] [blessing GOD]... [rafts A and B]...",
                     24, simultaneous=True, ask="carry out your scoring", noun="a scoring turn",
                     help="score, optionally with 'wild TYPE', 'blessing GOD', 'rafts A and B'",
                     rule="Each domain (neighbouring territories holding your pawns) scores 1 per territory "
                          "plus the square of its territories of your card's type; blessings, rafts and the "
                          "wild card's type are chosen here."),
    )
    options = OPTIONS
    bots = tuple(BOTS)
    stand_in = "heuristic"  # plays sensibly for a seat nobody plays

    def make_bot(self, kind: str, seed: int | str = 0) -> Bot:
        return make_bot(kind, seed)

    def new_game(self, record: dict[str, Any]) -> AztlanState:
        """The game a record describes; seats sit in the record's player order, top of the
        initial stack first, exactly as given."""
        setup = setup_from_record(record)
        return AztlanState(setup, _masks(setup.board))

    def forced_order(self, state: AztlanState, seat: str) -> str | None:
        """The one order the seat can give now, if its question has a single answer (the
        service gives it for the seat, docs/rules.md "Questions with one answer"): the last
        power card, accepting a battle without Sacred Games, letting a tie stand without the
        Great Tlatoani and with nothing won outright, scoring with nothing to play.  A
        development turn always has a choice of territory."""
        s = state.seats.index(seat) if seat in state.seats else -1
        if s < 0 or s not in state.waiting():
            return None
        kind, legal = state.owed_kind(), state.legal(s)
        if kind == "power" and len(legal["cards"]) == 1:
            return state.order_text(ChooseCard(legal["cards"][0]))
        if kind == "reaction" and not legal["sacred_games"]:
            return state.order_text(React(legal["territory"], False))
        if kind == "conflict" and not legal["won"] and legal["tied"] and not legal["tlatoani"]:
            return state.order_text(LetTieStand(legal["tied"][0]))
        if kind == "scoring" and not (legal["wild"] or legal["blessings"] or (legal["rafts"] and legal["rafts_pairs"])):
            return state.order_text(Score())
        return None

    def seating(self, seed: int | str, count: int) -> list[str]:
        """A random initial stack order for a new game ("choose the stacking order randomly");
        a caller that balances who sits on top lists the players in its own order instead."""
        if not self.min_players <= count <= self.max_players:
            raise SetupError(f"Aztlán is for {self.min_players} to {self.max_players} players")
        seats = list(TRIBES)
        rng = random.Random(f"{seed}:seating")
        rng.shuffle(seats)
        return seats[:count]


_MASKS: dict[int, tuple[Board, BoardMasks]] = {}


def _masks(board: Board) -> BoardMasks:
    """Masks per board object (packaged boards are cached objects, so this hits)."""
    cached = _MASKS.get(id(board))
    if cached is None or cached[0] is not board:
        if len(_MASKS) > 64:
            _MASKS.clear()
        cached = _MASKS[id(board)] = (board, BoardMasks(board))
    return cached[1]


def _board(ref: Any) -> Board:
    if isinstance(ref, str):
        return packaged_board(ref)
    try:
        return load_board(ref)
    except BoardError as error:
        raise SetupError(f"board: {error}") from None


def _edition(ref: Any) -> Edition:
    return packaged_edition(ref) if isinstance(ref, str) else load_edition(ref)


def setup_from_record(record: dict[str, Any]) -> Setup:
    if not isinstance(record, dict):
        raise SetupError("a game record is a JSON object")
    if record.get("game", "aztlan") != "aztlan":
        raise SetupError(f"not an Aztlán record: game {record.get('game')!r}")
    players = record.get("players")
    if not isinstance(players, list) or not 2 <= len(players) <= 4:
        raise SetupError("'players' must list 2 to 4 players, in initial stack order (top first)")
    seats, names, factions = [], [], []
    for i, player in enumerate(players):
        seat, name = check_player(i + 1, player, TRIBES, seats, MAX_NAME)
        seats.append(seat)
        names.append(name)
        player = player if isinstance(player, dict) else {}
        if "faction" in player:
            if player["faction"] not in FACTIONS:
                raise SetupError(f"player {i + 1}: faction must be one of {', '.join(FACTIONS)}")
            factions.append(FACTIONS.index(player["faction"]))
    if len(seats) == 2:
        if not factions:
            factions = [0, 1]  # the player on top of the stack starts with Coyote+Quetzal
        elif len(factions) == 1:  # one player's choice settles the other's
            given = players[0] if isinstance(players[0], dict) and "faction" in players[0] else None
            factions = [factions[0], 1 - factions[0]] if given else [1 - factions[0], factions[0]]
        if sorted(factions) != [0, 1]:
            raise SetupError("in a 2-player game each player starts with a different faction")
    elif factions:
        raise SetupError("factions belong to the 2-player variant only")
    seed = record.get("seed")
    if isinstance(seed, bool) or not isinstance(seed, (int, str)) or len(str(seed)) > 200:
        raise SetupError("'seed' must be a whole number or a string")
    edition = _edition(record.get("edition", "default"))
    return Setup(seats=tuple(seats), board=_board(record.get("board", "default")), edition=edition,
                 options=load_options(record.get("options")), seed=seed,
                 deck=_deck(record.get("deck"), edition, seed), factions=tuple(factions),
                 names=tuple(names))


def _deck(explicit: Any, edition: Edition, seed: int | str) -> tuple[str, ...]:
    """The prosperity deck, top card first: given explicitly, or shuffled from the seed."""
    if explicit is None:
        deck = list(edition.deck)
        random.Random(f"{seed}:deck").shuffle(deck)
        return tuple(deck)
    if not isinstance(explicit, list) or any(card not in PROSPERITY_CARDS for card in explicit):
        raise SetupError(f"'deck' must list prosperity cards ({', '.join(PROSPERITY_CARDS)})")
    if sorted(explicit) != sorted(edition.deck):
        raise SetupError("'deck' must hold exactly the edition's prosperity cards, in any order")
    return tuple(explicit)


GAME = Aztlan()
