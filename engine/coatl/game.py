"""Cóatl as a game plug-in: the static facts, and a state from a game record.

A record lists the players in play order (the first holds the First Player marker), the seed
and the options (docs/records.md, docs/rules-coatl.md).
"""
from __future__ import annotations

import random
from typing import Any

from engine.coatl.bots import BOTS
from engine.coatl.options import OPTIONS
from engine.coatl.state import FINAL, PLAY, SETUP, CoatlState, Setup
from engine.core import Bot, DecisionKind, SetupError, check_options, check_player

SEATS = ("macaw", "quetzal", "heron", "hummingbird")
MAX_NAME = 60
TURN_SYNTAX = ("take head|tail|body N | choose N... [deck N] | new COLOUR KIND; add COLOUR KIND to N [front]; "
               "fulfil N... on N; complete N [with temple N] | pass | sacrifice pick KIND|future|commit N")


class Coatl:
    name = "coatl"
    title = "Cóatl"
    min_players, max_players = 2, 4
    seats = SEATS
    round_name = "round"
    phases = (SETUP, PLAY, FINAL)
    decision_kinds = (
        DecisionKind("keep", "choice of prophecies", "keep N... | keep none", 48, simultaneous=True,
                     ask="choose the prophecies you keep", noun="a choice of prophecies",
                     help="keep N N N (up to 3 of the prophecy cards you drew) or keep none",
                     rule="At the start every player secretly keeps up to three of the prophecy cards "
                          "dealt to them; the rest are discarded."),
        DecisionKind("turn", "turn", TURN_SYNTAX, 12, simultaneous=False,
                     ask="play your turn", noun="a turn",
                     help="one action: 'take body 3', 'choose 12 deck 1', an assembly such as "
                          "'new red head; add blue body to 1; fulfil 12 on 1', 'pass', or "
                          "'sacrifice pick body|future|commit N'",
                     rule="A turn is one action: take pieces from the supply, choose prophecy cards, "
                          "assemble your cóatls, or use a Sacrifice token.",
                     words=("take", "choose", "new", "add", "fulfil", "fulfill", "complete", "pass",
                            "sacrifice")),
        DecisionKind("choose", "See the Future choice", "[discard N...;] choose N... [deck N]", 12,
                     simultaneous=False, ask="choose prophecies after See the Future",
                     noun="a See the Future choice",
                     help="optionally 'discard N ...;' then 'choose N ... [deck N]'",
                     rule="After See the Future turns up a new row, you may discard cards from your "
                          "hand, then choose prophecy cards as the Choose action does.",
                     words=("discard", "choose")),
    )
    options = OPTIONS
    bots = tuple(BOTS)
    stand_in = "heuristic"  # plans cóatls for its prophecies: plays sensibly for a seat nobody plays

    def make_bot(self, kind: str, seed: int | str = 0) -> Bot:
        if kind not in BOTS:
            raise ValueError(f"unknown bot {kind!r}; known: {', '.join(BOTS)}")
        return BOTS[kind](seed)

    def new_game(self, record: dict[str, Any]) -> CoatlState:
        """Seats play in the record's player order, as given."""
        return CoatlState(setup_from_record(record))

    def seating(self, seed: int | str, count: int) -> list[str]:
        """"Choose a start player": a seating drawn from the seed."""
        if not self.min_players <= count <= self.max_players:
            raise SetupError(f"Cóatl is for {self.min_players} to {self.max_players} players")
        seats = list(SEATS)
        random.Random(f"{seed}:seating").shuffle(seats)
        return seats[:count]


def setup_from_record(record: Any) -> Setup:
    if not isinstance(record, dict) or record.get("game") != "coatl":
        raise SetupError("a Cóatl record is a JSON object with \"game\": \"coatl\"")
    players = record.get("players")
    if not isinstance(players, list) or not 2 <= len(players) <= 4:
        raise SetupError("'players' must list 2 to 4 players, in play order (the first player first)")
    seats, names = [], []
    for i, player in enumerate(players, start=1):
        seat, name = check_player(i, player, SEATS, seats, MAX_NAME)
        seats.append(seat)
        names.append(name)
    seed = record.get("seed")
    if isinstance(seed, bool) or not isinstance(seed, (int, str)) or len(str(seed)) > 200:
        raise SetupError("'seed' must be a whole number or a string")
    return Setup(tuple(seats), tuple(names), check_options(OPTIONS, record.get("options")), seed)


GAME = Coatl()
