"""Azteca as a game plug-in: the static facts, and a state from a game record.

A record lists the players (seats are the peoples) in play order: the first holds the
Tlatoani card on the first turn (6.0).  It names an edition (docs/rules-azteca.md,
"Components"): "default" or one given inline.
"""
from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

from engine.azteca.bots import BOTS
from engine.azteca.components import Edition, load_edition, packaged_edition
from engine.azteca.deal_orders import HEADS as DEAL_HEADS
from engine.azteca.options import OPTIONS
from engine.azteca.state import PEOPLES, PHASES, SETUP, AztecaState, Setup, check_setup_counts
from engine.core import Bot, DecisionKind, SetupError, check_options, check_player

MAX_NAME = 60


def _kind(name: str, title: str, syntax: str, hours: int, simultaneous: bool, ask: str, rule: str,
          **words: Any) -> DecisionKind:
    kind = DecisionKind(name, title, syntax, hours, simultaneous=simultaneous, ask=ask, rule=rule, **words)
    # An Azteca card play ("play CARD") and the options' deals ride with whatever decision its
    # seat owes (cards.py, deals.py).
    return replace(kind, words=(*kind.words, "play", *sorted(DEAL_HEADS)))


DECISION_KINDS = (
    _kind("dike", "dike", "dike SHORE", 24, False, "place your dike",
          "The Aztecs join their island to one shore with a dike before the game begins (5.0)."),
    _kind("army", "organisation chart", "army A 3w 1j, B 3w 1j, C 2w 1j, R 2w", 48, True,
          "organise your armies", "Every player secretly spreads 10 warriors and 3 Jaguar knights over "
          "armies A, B, C and the Reserve, at most 4 counters a box (5.0)."),
    _kind("place", "population marker", "place TERRITORY", 24, False, "place your population marker",
          "In turn each player draws a population marker (0-2) and places it face down on a free "
          "territory of the Mexico valley, not next to his capital if he can avoid it (5.1)."),
    _kind("cards", "choice of cards", "discard CARD... | keep", 24, True, "keep or discard your cards",
          "Each player keeps or discards his Azteca cards, then refills his hand to 4 (8.0)."),
    _kind("purchase", "purchase", "buy A 2w 1j, general B, pochteca 1, boat 1, dike SHORE | buy nothing", 24,
          False, "make your purchases", "In turn from the first player, each buys warriors, Jaguar knights, "
          "pochtecas, boats, generals (to replace a killed one) and dikes (Aztecs) with Tributes (10.0)."),
    _kind("look", "look at the slave market", "look N N", 24, False, "look at two slave-market cards",
          "Each bidder in turn looks secretly at 2 of the 4 slave-market cards (11.0)."),
    _kind("bid", "slave-market bid", "bid LOT TRIBUTES | bid none", 24, True, "bid at the slave market",
          "Sealed bids on one lot each, revealed together: the highest bid takes the lot's Sacrifice "
          "points; a tie re-bids (11.0)."),
    _kind("rebid", "slave-market re-bid", "bid LOT TRIBUTES | bid none", 24, True, "re-bid on a tied lot",
          "Tied bidders bid again in secret; the highest takes the lot, and a second tie loses both "
          "bids (11.0)."),
    _kind("send", "pochteca and boat sheet", "send A 11, B exp, 2B4 | send nothing", 24, True,
          "send your pochtecas and place your boats", "Each player secretly writes where each pochteca goes "
          "(a territory or an expedition) and how many boats go in each lake zone; all sheets are revealed "
          "together, the boats in phase 6 (12.0, 13.0)."),
    _kind("mission", "pochteca missions", "mission A alliance, B espionage | mission none", 24, False,
          "choose your pochtecas' missions", "In turn from the first player, each chooses what his pochtecas do "
          "where they stand: alliance, rebellion, assimilation, espionage or nothing (12.0)."),
    _kind("attack", "lake attack", "attack ZONE SEAT | attack none", 24, False, "announce your lake attacks",
          "In turn order each player may attack another player's boats in a lake zone where he has boats, then "
          "those of a player that has not fought yet (13.0)."),
    _kind("join", "side in a lake battle", "join attacker | join defender | join neutral", 24, True,
          "choose a side in the lake battle", "Other players with boats in the zone secretly join the attacker, "
          "the defender or stay neutral, revealed before the battle (13.0)."),
    _kind("fight", "lake battle round", "continue | stop", 12, False, "continue or stop your lake battle",
          "After each round of a lake battle the attacker goes on or stops; there are no retreats (13.1)."),
    _kind("plan", "Flower War standing orders", "plan intercept A B, allow SEAT, retreat N, reserve N, losses "
          "warriors, cousin none, promote yes | plan none", 24, True, "give your standing orders for the Flower War",
          "Each player secretly says which armies intercept enemies passing next to them, who may cross the lake "
          "zones he controls, and how his battles are answered in advance (14.4, 14.3, pbem's standing orders)."),
    _kind("march", "army move", "[reorganise A 2w, B 2w 1j;] move A TERRITORY | pass", 24, False, "move an army",
          "A movement marker of your colour was drawn: reorganise armies standing together, then move one army up "
          "to 3 territories, stopping on entering neutral or enemy land, or pass (14.2-14.5).",
          words=("reorganise", "reorganize", "move", "pass")),
    _kind("reserve", "Reserve's commitment", "reserve 1w 1j | reserve none", 12, True, "commit your Reserve",
          "Your city is attacked: choose how many Reserve counters defend it, before the attacker's force is "
          "known (14.6)."),
    _kind("cousin", "cousin's counter", "cousin warrior | cousin jaguar | cousin none", 12, True,
          "declare yourself a cousin", "A neutral next to your land is attacked: send one Reserve counter to "
          "help it, or none (14.14)."),
    _kind("losses", "battle losses", "lose A 1w, R 1j", 12, True, "choose your losses",
          "Each lance captured one of your counters: choose which (14.9)."),
    _kind("retreat", "retreat or fight on", "retreat A R | retreat none", 12, True, "fight on or retreat",
          "After each round each side fights on or retreats its army, its Reserve or both (14.7, 14.11)."),
    _kind("promote", "experience", "promote A | promote none", 12, True, "promote a warrior",
          "After a victory one surviving warrior may become a Jaguar knight (14.10)."),
    _kind("urn", "offer to Quetzalcoatl", "quetzalcoatl POINTS", 24, True, "make your offer to Quetzalcoatl",
          "Sacrifice points put secretly in Quetzalcoatl's urn decide the winner; the verification urn "
          "makes him climb a step per 20 points (15.1)."),
    _kind("tezcatlipoca", "offer to Tezcatlipoca", "tezcatlipoca POINTS", 24, True,
          "make your offer to Tezcatlipoca", "Offers revealed together plus the best of three white dice "
          "must reach the Anger card, or Tezcatlipoca steps down towards the underworlds (15.2)."),
)


class Azteca:
    name = "azteca"
    title = "Azteca"
    min_players, max_players = 3, 4
    seats = PEOPLES
    round_name = "turn"
    phases = (SETUP, *PHASES)
    decision_kinds = DECISION_KINDS
    options = OPTIONS
    bots = tuple(BOTS)
    stand_in = "random"

    def make_bot(self, kind: str, seed: int | str = 0) -> Bot:
        if kind not in BOTS:
            raise ValueError(f"unknown bot {kind!r}; known: {', '.join(BOTS)}")
        return BOTS[kind](seed)

    def new_game(self, record: dict[str, Any]) -> AztecaState:
        """Seats play in the record's player order, as given."""
        return AztecaState(setup_from_record(record))

    def forced_order(self, state: AztecaState, seat: str) -> str | None:
        """The one legal order, for questions whose choices are public facts only: a population
        marker with a single territory left to take, a dike with a single junction.  Questions
        whose only answer comes from a secret (an offer with no Sacrifice points held) are left
        to the seat: answering them at once would tell the others through timing."""
        s = state.seat_index(seat)
        kind = state.owed.get(s)
        options = state.legal(s) if kind in ("place", "dike") else {}
        choices = options.get("territories") or options.get("shores") or []
        return f"{kind} {choices[0]}" if len(choices) == 1 else None

    def seating(self, seed: int | str, count: int) -> list[str]:
        """6.0 "choose a starting player at random"; 16.0: with 3 players the Aztecs are out."""
        if not self.min_players <= count <= self.max_players:
            raise SetupError(f"Azteca is for {self.min_players} to {self.max_players} players")
        seats = list(PEOPLES if count == 4 else PEOPLES[1:])
        random.Random(f"{seed}:seating").shuffle(seats)
        return seats


def _edition(ref: Any) -> Edition:
    return packaged_edition(ref) if isinstance(ref, str) else load_edition(ref)


def setup_from_record(record: Any, geography: Any = None) -> Setup:
    """The setup a record describes; `geography` (the map for its player count) is read from
    engine.azteca.geography unless given."""
    if not isinstance(record, dict) or record.get("game") != "azteca":
        raise SetupError("an Azteca record is a JSON object with \"game\": \"azteca\"")
    players = record.get("players")
    if not isinstance(players, list) or not 3 <= len(players) <= 4:
        raise SetupError("'players' must list 3 or 4 players, in play order (the first player first)")
    seats: list[str] = []
    names: list[str] = []
    for i, player in enumerate(players, start=1):
        seat, name = check_player(i, player, PEOPLES, seats, MAX_NAME)
        seats.append(seat)
        names.append(name)
    if len(seats) == 3 and "aztecs" in seats:
        raise SetupError("with 3 players the Aztecs are out of the game (16.0): seats are toltecs, "
                         "chichimecs and tepanecs")
    seed = record.get("seed")
    if isinstance(seed, bool) or not isinstance(seed, (int, str)) or len(str(seed)) > 200:
        raise SetupError("'seed' must be a whole number or a string")
    if geography is None:
        from engine.azteca.geography import geography as load_geography
        geography = load_geography(len(seats))
    edition = _edition(record.get("edition", "default"))
    check_setup_counts(edition, geography)
    return Setup(tuple(seats), tuple(names), check_options(OPTIONS, record.get("options")), seed, edition, geography)


GAME = Azteca()
