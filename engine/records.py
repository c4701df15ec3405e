"""Game records: a game's setup plus its order log, and replaying them (docs/records.md)."""
from __future__ import annotations

from typing import Any, Iterator

from engine import get_game
from engine.core import GameState, OrderError, SetupError

MAX_ORDERS = 100_000
LEGACY_GAME = "aztlan"  # the game of records written before there was a second one (no "game")


class ReplayError(ValueError):
    """A record whose order log stops at an order that cannot be applied."""

    def __init__(self, message: str, *, index: int, line: str, state: GameState):
        super().__init__(message)
        self.index, self.line, self.state = index, line, state


def split_line(line: Any) -> tuple[str, str]:
    if not isinstance(line, str) or ":" not in line:
        raise OrderError(f"expected '<seat>: <order>', found {line!r}")
    seat, text = line.split(":", 1)
    return seat.strip().lower(), text.strip()


def replay_steps(record: dict[str, Any]) -> Iterator[GameState]:
    """Build the game, then yield it after each order of its log (the same object, changed
    in place); raise ReplayError at the first illegal order."""
    if not isinstance(record, dict):
        raise SetupError("a game record is a JSON object")
    state = get_game(record.get("game", LEGACY_GAME)).new_game(record)
    orders = record.get("orders", [])
    if not isinstance(orders, list) or len(orders) > MAX_ORDERS:
        raise SetupError(f"'orders' must be a list of at most {MAX_ORDERS} lines")
    yield state
    for index, line in enumerate(orders):
        apply_line(state, line, index)
        yield state


def apply_line(state: GameState, line: Any, index: int) -> None:
    """Apply one order-log line, the log's `index`-th (from 0), to `state` in place; raise
    ReplayError if it cannot be applied.  A state carries on from where its log stops."""
    try:
        seat, text = split_line(line)
        parsed = state.parse(text)
        if len(parsed) != 1:
            raise OrderError("each log line holds exactly one order")
        state.apply(seat, parsed[0])
    except OrderError as error:
        raise ReplayError(f"order {index + 1} ({line!r}): {error}", index=index, line=str(line),
                          state=state) from None


def replay(record: dict[str, Any]) -> GameState:
    """Build the game and apply its whole order log."""
    state = None
    for state in replay_steps(record):
        pass
    return state


def record_of(state: GameState, record: dict[str, Any]) -> dict[str, Any]:
    """The record of a game: its setup (as given) with the order log so far."""
    return {**{k: v for k, v in record.items() if k != "orders"}, "orders": state.order_log()}
