"""Duel's orders, setup and state machine (the rules are in the package docstring)."""
from __future__ import annotations

import copy
import random
from dataclasses import dataclass
from typing import Any, Sequence

from engine.core import (OVER, Decision, IllegalOrderError, LoggedState, Milestone, NotYourDecisionError,
                         Option, ParseError, Result, SetupError, check_options,
                         submit_in_turn)

SEATS = ("red", "green", "blue", "yellow")
BIDDING, PICKING = "bidding", "picking"
COINS, MAX_BID, MAX_LINES = 10, 5, 20
PUBLIC = -1  # the audience of an event everyone sees
OPTIONS = (
    Option("rounds", 3, "how many rounds are played", low=1, high=9),
    Option("tie_break", "least-spent", "equal scores: fewer coins spent ranks higher, or none (a shared place)",
           ("least-spent", "none"),
           meanings={"least-spent": "of equal scores, the seat that spent fewer coins ranks higher",
                     "none": "equal scores share their place"}),
)


@dataclass(frozen=True, slots=True)
class Bid:
    coins: int


@dataclass(frozen=True, slots=True)
class Pick:
    token: int


def to_text(order: Bid | Pick) -> str:
    if isinstance(order, Bid):
        return f"bid {order.coins}"
    if isinstance(order, Pick):
        return f"pick {order.token}"
    raise TypeError(f"not a Duel order: {order!r}")


def parse_line(line: str) -> Bid | Pick:
    words = line.lower().split()

    def error(at: int, expected: str) -> ParseError:
        found = f"'{words[at]}'" if at < len(words) else "the end of the line"
        return ParseError(f"{line!r}: expected {expected}, found {found}", line=line, expected=expected)

    if not words or words[0] not in ("bid", "pick"):
        raise error(0, "an order (bid N or pick N)")
    if len(words) < 2 or not (words[1].isascii() and words[1].isdigit() and len(words[1]) <= 2):
        raise error(1, f"a number after '{words[0]}', as in '{words[0]} 3'")
    if len(words) > 2:
        raise error(2, "the end of the line")
    return (Bid if words[0] == "bid" else Pick)(int(words[1]))


def parse_orders(text: str) -> list[Bid | Pick]:
    """One order per line; blank lines and '#' comments are skipped."""
    orders = []
    for number, line in enumerate(text.splitlines(), start=1):
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        if len(orders) >= MAX_LINES:
            raise ParseError(f"at most {MAX_LINES} orders in one submission", line=line, expected="fewer orders")
        try:
            orders.append(parse_line(line))
        except ParseError as error:
            raise ParseError(f"line {number}: {error}", line=error.line, expected=error.expected) from None
    return orders


@dataclass(frozen=True)
class Setup:
    seats: tuple[str, ...]  # in play order, as the record lists them
    names: tuple[str, ...]
    options: dict[str, Any]
    seed: int | str


def setup_from_record(record: Any) -> Setup:
    if not isinstance(record, dict) or record.get("game") != "duel":
        raise SetupError("a Duel record is a JSON object with \"game\": \"duel\"")
    players = record.get("players")
    if not isinstance(players, list) or not 2 <= len(players) <= 4:
        raise SetupError("'players' must list 2 to 4 players, in seat order")
    seats, names = [], []
    for i, player in enumerate(players, start=1):
        player = {"seat": player} if isinstance(player, str) else player
        seat = player.get("seat") if isinstance(player, dict) else None
        if seat not in SEATS or seat in seats:
            raise SetupError(f"player {i}: seat must be one of {', '.join(SEATS)}, each once")
        name = player.get("name", seat)
        if not isinstance(name, str) or not 1 <= len(name.strip()) <= 60:
            raise SetupError(f"player {i}: name must be 1 to 60 characters")
        seats.append(seat)
        names.append(name)
    seed = record.get("seed")
    if isinstance(seed, bool) or not isinstance(seed, (int, str)):
        raise SetupError("'seed' must be a whole number or a string")
    return Setup(tuple(seats), tuple(names), check_options(OPTIONS, record.get("options")), seed)


class DuelState(LoggedState):
    game = "duel"

    def __init__(self, setup: Setup):
        self.setup, self.seats, self.n = setup, setup.seats, len(setup.seats)
        self.rounds, self.tie_break = setup.options["rounds"], setup.options["tie_break"]
        self.round, self.phase = 1, BIDDING
        self.coins, self.spent = [COINS] * self.n, [0] * self.n
        self.tokens: list[list[int]] = [[] for _ in range(self.n)]
        self.bids: list[int | None] = [None] * self.n  # secret until every bid is in
        self.row: list[int] = []
        self.turn_order: list[int] = []
        self.turn = 0
        self.events: list[dict[str, Any]] = []
        self.audiences: list[int] = []
        self.applied: list[tuple[int, Bid | Pick]] = []
        self.completed: list[Milestone] = []
        self.round_scores: list[dict[str, Any]] = []
        self.final: Result | None = None
        self._start_round()

    # ---- the contract ----------------------------------------------------------------------

    def waiting(self) -> list[int]:
        if self.phase == BIDDING:
            return [s for s in range(self.n) if self.bids[s] is None]
        return [self.turn_order[self.turn]] if self.phase == PICKING else []

    def decisions(self, options: bool = True) -> list[Decision]:
        return [self.decision_of(s, options) for s in self.waiting()]

    def decision_of(self, s: int, options: bool = True) -> Decision:
        if self.phase == BIDDING:
            return Decision(self.seats[s], "bid", True, (), {"low": 1, "high": self.max_bid(s)} if options else {})
        return Decision(self.seats[s], "pick", False, tuple(self.row), {"tokens": sorted(set(self.row))} if options else {})

    def max_bid(self, s: int) -> int:
        """At most MAX_BID, keeping one coin for each later round (public: coins are public)."""
        return min(MAX_BID, self.coins[s] - (self.rounds - self.round))

    def parse(self, text: str) -> list[Bid | Pick]:
        return parse_orders(text)

    def order_text(self, order: Bid | Pick) -> str:
        return to_text(order)

    def apply(self, seat: str, order: Bid | Pick) -> None:
        s = self._seat_index(seat)
        if s not in self.waiting():
            waiting = ", ".join(self.seats[w] for w in self.waiting())
            raise NotYourDecisionError(f"the game waits for {waiting}, not you" if waiting else "the game is over")
        if isinstance(order, Bid):
            self._bid(s, order)
        elif isinstance(order, Pick):
            self._pick(s, order)
        else:
            raise IllegalOrderError(f"not a Duel order: {order!r}")
        self.applied.append((s, order))

    def submit(self, seat: str, orders: Sequence[Bid | Pick]) -> list[Bid | Pick]:
        """Check the whole submission on a copy first; return the orders left for a later turn."""
        self._seat_index(seat)
        return submit_in_turn(self, seat, orders)

    def view(self, seat: str | None) -> dict[str, Any]:
        from duel.views import build_view
        return build_view(self, None if seat is None else self._seat_index(seat))

    def milestones(self) -> list[Milestone]:
        return list(self.completed)

    def scores_by_round(self) -> list[dict[str, Any]]:
        return list(self.round_scores)

    def clone(self) -> "DuelState":
        return copy.deepcopy(self, {id(self.setup): self.setup})

    # ---- the rules -------------------------------------------------------------------------

    def _seat_index(self, seat: str) -> int:
        if seat not in self.seats:
            raise NotYourDecisionError(f"no seat {seat!r} in this game")
        return self.seats.index(seat)

    def _event(self, audience: int, kind: str, **data: Any) -> None:
        self.events.append({"type": kind, "round": self.round, **data})
        self.audiences.append(audience)

    def score(self, s: int) -> int:
        return sum(self.tokens[s]) + self.coins[s]

    def _start_round(self) -> None:
        rng = random.Random(f"{self.setup.seed}:row:{self.round}")  # later rows stay secret
        self.row = sorted(rng.choice(range(1, 10)) for _ in range(self.n + 1))
        self.bids = [None] * self.n
        self.phase = BIDDING
        self._event(PUBLIC, "round", row=list(self.row))

    def _bid(self, s: int, order: Bid) -> None:
        if self.phase != BIDDING:
            raise IllegalOrderError("the game asks you to pick a token: 'pick N'")
        high = self.max_bid(s)
        if not 1 <= order.coins <= high:
            raise IllegalOrderError(f"you may bid 1 to {high} coins now (one coin is kept for each later round)")
        self.bids[s] = order.coins
        self._event(PUBLIC, "bid", seat=self.seats[s])
        self._event(s, "my-bid", coins=order.coins)
        if None not in self.bids:
            self._reveal()

    def _reveal(self) -> None:
        first = max(range(self.n), key=lambda s: (self.bids[s], -s))  # equal bids: the earlier seat
        self.turn_order = [first] + [s for s in range(self.n) if s != first]
        for s, bid in enumerate(self.bids):
            self.coins[s] -= bid
            self.spent[s] += bid
        self._event(PUBLIC, "reveal", bids={self.seats[s]: bid for s, bid in enumerate(self.bids)},
                    order=[self.seats[s] for s in self.turn_order])
        self.completed.append(Milestone(self.round, BIDDING))
        self.phase, self.turn = PICKING, 0

    def _pick(self, s: int, order: Pick) -> None:
        if self.phase != PICKING:
            raise IllegalOrderError("the game asks you for your secret bid: 'bid N'")
        if order.token not in self.row:
            raise IllegalOrderError(f"no token worth {order.token} in the row; it holds "
                                    f"{', '.join(map(str, self.row))}")
        self.row.remove(order.token)
        self.tokens[s].append(order.token)
        self._event(PUBLIC, "pick", seat=self.seats[s], token=order.token)
        self.turn += 1
        if self.turn == self.n:
            self._end_round()

    def _end_round(self) -> None:
        scores = {self.seats[s]: {"bid": self.bids[s], "token": self.tokens[s][-1], "points": self.tokens[s][-1],
                                  "total": self.score(s)} for s in range(self.n)}
        self.round_scores.append(scores)
        self.completed.append(Milestone(self.round, PICKING, scored=True))
        self._event(PUBLIC, "scores", scores=scores)
        if self.round == self.rounds:
            self._finish()
        else:
            self.round += 1
            self._start_round()

    def _finish(self) -> None:
        def key(s: int) -> tuple[int, int]:
            return -self.score(s), self.spent[s] if self.tie_break == "least-spent" else 0

        ranking = sorted(range(self.n), key=lambda s: (key(s), s))
        places = {self.seats[s]: 1 + sum(key(o) < key(s) for o in range(self.n)) for s in range(self.n)}
        self.final = Result(ranking=tuple(self.seats[s] for s in ranking),
                            scores={self.seats[s]: self.score(s) for s in range(self.n)},
                            tie_break=self.tie_break, places=places,
                            breakdown={self.seats[s]: {"tokens": list(self.tokens[s]), "coins_left": self.coins[s],
                                                       "spent": self.spent[s], "points": self.score(s)}
                                       for s in range(self.n)})
        self.phase = OVER
        self._event(PUBLIC, "game-over", **self.final.to_json())
