"""The game's event log (`game_events`): what the clock, the host, vacations and replacements
did to a game, shown on its page and in its API answer (docs/deadlines.md).

Also the words those events and their mails share: a seat as people read it, and the round
a line is about.
"""
from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy.orm import Session

from engine import get_game
from engine.core import GameState
from pbem.models import ORDER_MAX, Game, GameEvent, Seat
from pbem.writes import Write, rows_insert


def log_event(session: Session, game: Game, type: str, text: str, at: datetime, *,
              seat: str | None = None, user_id: int | None = None, hours: int | None = None) -> GameEvent:
    event = GameEvent(**event_row(game, type, text, at, seat=seat, user_id=user_id, hours=hours))
    session.add(event)
    return event


def event_row(game: Game, type: str, text: str, at: datetime, *, seat: str | None = None,
              user_id: int | None = None, hours: int | None = None) -> dict[str, Any]:
    """The `game_events` row `log_event` adds, as column values (for `events_insert`)."""
    return {"game_id": game.id, "at": at, "type": type, "seat": seat, "user_id": user_id, "hours": hours,
            "decision_seq": game.decision_seq, "text": text[:ORDER_MAX]}


def events_insert(session: Session, rows: list[dict[str, Any]]) -> list[Write]:
    """The INSERT of these `event_row`s for the caller to send with its other writes (the
    deadline tick sends a game's with its advance: no unit of work)."""
    return rows_insert(session, _EVENTS, "event", rows)


_EVENTS = GameEvent.__table__


def event_key(session: Session, event: GameEvent) -> str:
    """A logged event as the event of its mails' keys (the host's controls, takeovers)."""
    session.flush()  # for its id
    return f"event{event.id}"


def seat_title(seat: Seat) -> str:
    return f"{seat.label} ({seat.name})"


def round_prefix(state: GameState) -> str:
    """The game's word for a round and its number ("<round name> 2: "), to begin a line about the
    current round."""
    return f"{get_game(state.game).round_name} {state.round}: "
