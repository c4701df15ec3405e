"""What every game plug-in offers the service: errors, decisions and the game interface.

A game is a set of rules (a `GameRules`) that builds a mutable `GameState` from a
setup.  The service never looks inside a state: it asks who must decide what
(`decisions`), parses and submits orders, and shows each seat its `view`.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol, Sequence


class OrderError(ValueError):
    """An order that cannot be accepted; the message is meant for the player."""


class ParseError(OrderError):
    """Text that is not in the order grammar.  `expected` says what would have been."""

    def __init__(self, message: str, *, line: str = "", expected: str = ""):
        super().__init__(message)
        self.line = line
        self.expected = expected


class IllegalOrderError(OrderError):
    """A well-formed order that the rules do not allow now."""


class NotYourDecisionError(IllegalOrderError):
    """The seat is not asked anything of this kind now."""


class SetupError(ValueError):
    """A game that cannot be set up as asked (bad players, options, board or edition)."""


@dataclass(frozen=True, slots=True)
class Decision:
    """One seat owes one decision.

    `simultaneous` decisions are secret and collected from several seats at once;
    the others are taken in turn.  `scope` is public (for example the territories a
    conflict turn must settle); `options` describes the legal choices and is private
    to the seat: views show it to that seat only.
    """

    seat: str
    kind: str
    simultaneous: bool
    scope: tuple[Any, ...] = ()
    options: dict[str, Any] = field(default_factory=dict, compare=False)

    def public(self) -> dict[str, Any]:
        return {"seat": self.seat, "kind": self.kind, "simultaneous": self.simultaneous,
                "scope": list(self.scope)}

    def private(self) -> dict[str, Any]:
        return {**self.public(), "options": self.options}


@dataclass(frozen=True, slots=True)
class Milestone:
    """A phase of the game that has just been completed: `round` (Aztlán: the age) and the
    `phase`'s name; `scored` when the phase ended with a scoring of the round (its results
    are out).  The service mails a report after a scored milestone and may send a short
    notice after the others."""

    round: int
    phase: str
    scored: bool = False


class GameState(Protocol):
    """A game in progress.  Mutable; `clone()` gives an independent copy.

    Seats are named by strings (Aztlán: tribe names); `waiting()` gives seat indices.
    """

    seats: tuple[str, ...]

    def waiting(self) -> list[int]: ...
    def decisions(self, options: bool = True) -> list[Decision]: ...
    def parse(self, text: str) -> list[Any]: ...
    def apply(self, seat: str, order: Any) -> None: ...
    def submit(self, seat: str, orders: Sequence[Any]) -> list[Any]: ...
    def is_over(self) -> bool: ...
    def result(self) -> dict[str, Any]: ...
    def view(self, seat: str | None) -> dict[str, Any]: ...
    def order_log(self) -> list[str]: ...
    def milestones(self) -> list[Milestone]: ...
    def clone(self) -> "GameState": ...


class GameRules(Protocol):
    """A game plug-in: its name, its seats and how to start a game from a record."""

    name: str
    title: str
    min_players: int
    max_players: int
    seats: tuple[str, ...]

    def new_game(self, record: dict[str, Any]) -> GameState: ...
    def seating(self, seed: int | str, count: int) -> list[str]: ...
