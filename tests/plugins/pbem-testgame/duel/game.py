"""Duel as a game plug-in: the static facts, and a state from a record."""
from __future__ import annotations

import random
from typing import Any

from duel.bots import BOTS
from duel.rules import BIDDING, MAX_BID, OPTIONS, PICKING, SEATS, DuelState, setup_from_record
from engine.core import Bot, DecisionKind, SetupError


class Duel:
    name = "duel"
    title = "Duel (test game)"
    min_players, max_players = 2, 4
    seats = SEATS
    round_name = "round"
    phases = (BIDDING, PICKING)
    decision_kinds = (DecisionKind("bid", "secret bid", "bid N", 24, simultaneous=True,
                                   ask="bid for this round's tokens", noun="a secret bid",
                                   help=f"bid N (1 to {MAX_BID} of your coins)",
                                   rule="Every seat bids coins in secret; bids are paid, and the highest "
                                        "picks a token first."),
                      DecisionKind("pick", "token pick", "pick N", 12, simultaneous=False,
                                   ask="pick a token", noun="a token pick",
                                   help="pick N (the value of a token left in the row)",
                                   rule="Seats take one token each from the row, the highest bid first; "
                                        "a token scores its value."))
    options = OPTIONS
    bots = tuple(BOTS)
    stand_in = "heuristic"  # plays sensibly for a seat nobody plays

    def make_bot(self, kind: str, seed: int | str = 0) -> Bot:
        if kind not in BOTS:
            raise ValueError(f"unknown bot {kind!r}; known: {', '.join(BOTS)}")
        return BOTS[kind](seed)

    def new_game(self, record: dict[str, Any]) -> DuelState:
        """Seats play in the record's player order, as given."""
        return DuelState(setup_from_record(record))

    def forced_order(self, state: DuelState, seat: str) -> str | None:
        """The one order a seat can give: a bid when it can afford only 1 coin, a pick when
        every token left in the row has the same value."""
        waiting = [d for d in state.decisions() if d.seat == seat]
        if not waiting:
            return None
        options = waiting[0].options
        if waiting[0].kind == "bid":
            return f"bid {options['low']}" if options["low"] == options["high"] else None
        return f"pick {options['tokens'][0]}" if len(options["tokens"]) == 1 else None

    def seating(self, seed: int | str, count: int) -> list[str]:
        if not self.min_players <= count <= self.max_players:
            raise SetupError(f"Duel is for {self.min_players} to {self.max_players} players")
        seats = list(SEATS)
        random.Random(f"{seed}:seating").shuffle(seats)
        return seats[:count]


GAME = Duel()
