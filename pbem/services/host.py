"""The host's controls of a running game (docs/deadlines.md): extending the current deadline
(capped per decision and per game), pausing the clock (at most PAUSE_LIMIT per game; the tick
resumes a game whose allowance ran out), and resuming it.  Each is logged as a game event
and told to the players concerned.
"""
from __future__ import annotations

from datetime import datetime, timedelta
from typing import Callable

from sqlalchemy import select
from sqlalchemy.orm import Session

from pbem.models import Game, GameEvent, User
from pbem.services import links
from pbem.services.errors import Conflict, Forbidden, Invalid
from pbem.services.events import event_key, log_event, round_prefix
from pbem.services.links import base_url
from pbem.services.locking import bump_version, lock_game, unit_of_work
from pbem.services.notify import mail_seat
from pbem.services.schedule import due_of, owing, schedule, whole_seconds
from pbem.services.state import game_state
from pbem.timezones import when

EXTENSIONS_PER_DECISION = 2
EXTENSION_HOURS_PER_DECISION = 72
EXTENSION_HOURS_PER_GAME = 7 * 24
PAUSE_LIMIT = timedelta(days=14)  # all pauses of a game together


def host_game(session: Session, game_id: int, user: User, action: str) -> Game:
    game = lock_game(session, game_id)
    if game.created_by != user.id:
        raise Forbidden(f"only the host (who created the game) can {action}")
    if game.status != Game.ACTIVE:
        raise Conflict("the game is not running")
    return game


def extensions(session: Session, game: Game) -> tuple[int, int, int]:
    """(extensions of the current decision, their hours, extension hours of the whole game)."""
    rows = session.execute(select(GameEvent.decision_seq, GameEvent.hours)
                           .where(GameEvent.game_id == game.id, GameEvent.type == "extend")).all()
    mine = [hours or 0 for seq, hours in rows if seq == game.decision_seq]
    return len(mine), sum(mine), sum(hours or 0 for _, hours in rows)


@unit_of_work
def extend_deadline(session: Session, game_id: int, user: User, hours: int, now: datetime) -> Game:
    """The host gives the current decision `hours` more (capped per decision and per game)."""
    if isinstance(hours, bool) or not isinstance(hours, int) or not 1 <= hours <= EXTENSION_HOURS_PER_DECISION:
        raise Invalid(f"an extension is 1 to {EXTENSION_HOURS_PER_DECISION} hours")
    game = host_game(session, game_id, user, "extend a deadline")
    if game.paused_at is not None:
        raise Conflict("the game is paused: its deadlines stand still until you resume it")
    if game.deadline_at is None:
        raise Conflict("there is no deadline to extend: the game waits for nobody's decision with a deadline")
    count, used, total = extensions(session, game)
    if count >= EXTENSIONS_PER_DECISION:
        raise Conflict(f"this decision's deadline was extended {count} times already; "
                       f"at most {EXTENSIONS_PER_DECISION} extensions per decision")
    if used + hours > EXTENSION_HOURS_PER_DECISION:
        raise Conflict(f"at most {EXTENSION_HOURS_PER_DECISION} hours of extension per decision; "
                       f"{EXTENSION_HOURS_PER_DECISION - used} left for this one")
    if total + hours > EXTENSION_HOURS_PER_GAME:
        raise Conflict(f"at most {EXTENSION_HOURS_PER_GAME} hours of extension per game; "
                       f"{EXTENSION_HOURS_PER_GAME - total} left")
    state = game_state(session, game)
    game.extended_hours = (game.extended_hours or 0) + hours
    schedule(session, game, now, state)
    event = event_key(session, log_event(session, game, "extend", f"{round_prefix(state)}{user.display_name} (host) "
                                         f"extended the deadline by {hours} hours", now, user_id=user.id, hours=hours))
    url = links.game(base_url(), game.id)
    for seat in owing(session, game, state):
        mail_seat(session, game, seat.user, event, f"{game.title}: deadline extended",
                  f"The host extended the deadline of {game.title} by {hours} hours: it is now "
                  f"{when(due_of(game, seat), seat.user)}.\n\n{url}\n", topic="deadline")
    bump_version(session, game)
    session.commit()
    return game


def pause_left(game: Game, now: datetime) -> timedelta:
    used = timedelta(seconds=game.paused_seconds or 0)
    if game.paused_at is not None:
        used += now - game.paused_at
    return max(timedelta(0), PAUSE_LIMIT - used)


@unit_of_work
def pause_game(session: Session, game_id: int, user: User, now: datetime) -> Game:
    """The host stops the clock: no deadlines, reminders or defaults until resumed (or until
    the game's pause allowance runs out).  Orders are still taken and applied."""
    game = host_game(session, game_id, user, "pause the game")
    if game.paused_at is not None:
        raise Conflict("the game is paused already")
    left = pause_left(game, now)
    if left <= timedelta(0):
        raise Conflict(f"this game has used all of its {PAUSE_LIMIT.days} days of pause")
    game.paused_at, game.paused_by = now, user.id
    event = log_event(session, game, "pause", f"{user.display_name} (host) paused the game; it resumes by itself "
                      f"after {_days(left)} more of pause at the latest", now, user_id=user.id)
    _tell_players(session, game, event, f"{game.title} is paused",
                  lambda person: f"The host paused {game.title}: deadlines stand still. It resumes when the "
                                 f"host says so, at the latest {when(now + left, person)}.")
    bump_version(session, game)
    session.commit()
    return game


def _days(span: timedelta) -> str:
    days = span.total_seconds() / 86400
    return f"{days:.1f} days" if days < 10 else f"{round(days)} days"


@unit_of_work
def resume_game(session: Session, game_id: int, user: User, now: datetime) -> Game:
    game = host_game(session, game_id, user, "resume the game")
    if game.paused_at is None:
        raise Conflict("the game is not paused")
    resume(session, game, now, f"{user.display_name} (host) resumed the game", user.id)
    session.commit()
    return game


def resume(session: Session, game: Game, now: datetime, text: str, user_id: int | None) -> None:
    paused_at = game.paused_at
    assert paused_at is not None
    game.paused_seconds = (game.paused_seconds or 0) + whole_seconds(now - paused_at)
    if game.decision_at is not None:  # this decision's clock stood still while paused
        game.deadline_delay = (game.deadline_delay or 0) + whole_seconds(now - max(paused_at, game.decision_at))
    game.paused_at = game.paused_by = None
    schedule(session, game, now, game_state(session, game))
    event = log_event(session, game, "resume", text, now, user_id=user_id)
    _tell_players(session, game, event, f"{game.title} is running again",
                  lambda person: f"{text}. The current deadline is {when(game.deadline_at, person)}.")
    bump_version(session, game)


def _tell_players(session: Session, game: Game, event: GameEvent, subject: str,
                  body: Callable[[User], str]) -> None:
    url, key = links.game(base_url(), game.id), event_key(session, event)
    for seat in game.seats:
        if seat.user is not None:
            mail_seat(session, game, seat.user, key, subject, f"{body(seat.user)}\n\n{url}\n", topic="deadline")
