"""Opponents' moves by mail, as each person chooses (`User.opponent_moves`):

- "each": after an advance, one short mail per game listing what happened since the last one;
- "digest": once a day at `User.digest_hour` in the person's time zone, one mail for all
  their active games; a "your turn" mail also carries what happened since the last news;
- "off": nothing.

What a seat is told comes from the events of its own view (`state.view(seat)`) only, so
never another seat's secret choice before the reveal; the game's presentation words them
and says which are news to the reader.  `Seat.events_reported` counts how
many of those were mailed already; every mail moves it in the same transaction as the mail
row, under a row lock, so nothing is told twice and nothing is skipped.
"""
from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import or_, select, update
from sqlalchemy.orm import Session

from pbem.games import presentation
from pbem.models import Game, Seat, User
from pbem.outbox.delivery import RECAP
from pbem.outbox.messages import send_mail
from pbem.outbox.seat_tokens import seat_reply_address
from pbem.services import links
from pbem.services.links import base_url
from pbem.services.state import game_state, player_names
from pbem.timezones import zone

log = logging.getLogger(__name__)

OFF, EACH, DIGEST = "off", "each", "digest"
CHOICES = (OFF, EACH, DIGEST)
TOPIC = "moves"  # the outbox topic of both mails (delivery.PREFERENCES: List-Unsubscribe)
MAX_LINES = 30  # per game and mail; a longer backlog (a preference just switched on) is cut


@dataclass
class News:
    seat: Seat
    start: int  # the seat's cursor before
    end: int  # after: every visible event so far
    lines: list[str]


def news_lines(state: Any, seat: str, names: dict[str, str], start: int) -> tuple[list[str], int]:
    """What `seat`'s reader may be told of the events after its first `start` visible ones:
    plain-text lines (at most MAX_LINES, the latest) and the new cursor."""
    shown = presentation(state.game)
    events = state.view(seat).get("events", [])
    fresh = [event for event in events[start:] if shown.is_news(event, seat)]
    lines = shown.event_lines(fresh, names, state)
    if len(lines) > MAX_LINES:
        lines = [f"  ({len(lines) - MAX_LINES} earlier events are on the game page)"] + lines[-MAX_LINES:]
    return lines, len(events)


def _news(game: Game, state: Any, seat: Seat, cursor: int) -> News:
    lines, end = news_lines(state, seat.name or "", player_names(game), cursor)
    return News(seat, cursor, end, lines)


def _locked_cursor(session: Session, seat: Seat, skip_locked: bool = False) -> int | None:
    """The seat's cursor, its row locked for this transaction (None: someone else holds it)."""
    query = select(Seat.events_reported).where(Seat.id == seat.id)
    if session.get_bind().dialect.name != "sqlite":  # SQLite: the writer holds the database lock
        query = query.with_for_update(skip_locked=skip_locked)
    return session.scalar(query)


def _move_cursor(session: Session, news: News) -> None:
    session.execute(update(Seat).where(Seat.id == news.seat.id).values(events_reported=news.end)
                    .execution_options(synchronize_session=False))


def _claim(session: Session, game: Game, state: Any, seat: Seat) -> News:
    """What is new for `seat`, its cursor moved past it (the caller mails it, same transaction)."""
    news = _news(game, state, seat, _locked_cursor(session, seat) or 0)
    _move_cursor(session, news)
    return news


def _wants(seat: Seat, choice: str) -> str | None:
    """The seat person's address if they chose `choice` for opponents' moves."""
    user = seat.user
    if user is None or seat.name is None or seat.bot is not None or user.opponent_moves != choice:
        return None
    return user.primary_address


def _footer(url: str) -> str:
    return f"\nOpen the game:\n{url}\n"


def after_advance(session: Session, game: Game, state: Any) -> None:
    """Called by announce.notify_advanced, before the advance commits: "each" mails."""
    for seat in game.seats:
        address = _wants(seat, EACH)
        if address is None:
            continue
        news = _claim(session, game, state, seat)
        if news.lines:
            send_mail(session, address, f"{game.title}: your opponents moved (game {game.id})",
                      f"{game.title} (game {game.id}), what happened:\n" + "\n".join(news.lines) + "\n"
                      + _footer(links.game(base_url(), game.id)),
                      topic=TOPIC, key=f"moves:{game.id}:{seat.name}:{news.start}-{news.end}",
                      reply_to=seat_reply_address(session, seat))


def since_last_turn(session: Session, game: Game, state: Any, seat: Seat) -> str:
    """For a "your turn" mail to a digest reader: what happened since their last news ("" if
    nothing); the cursor moves, so the next digest does not repeat it."""
    if _wants(seat, DIGEST) is None:
        return ""
    news = _claim(session, game, state, seat)
    return f"\n{RECAP}\n" + "\n".join(news.lines) + "\n" if news.lines else ""


# ---- the daily digest (run by the deadline tick) --------------------------------------------

def digest_due(user: User, now: datetime) -> bool:
    """The user wants a digest, today's (local) is not done, and its hour has come."""
    local = now.astimezone(zone(user.time_zone))
    return (user.opponent_moves == DIGEST and local.hour >= user.digest_hour
            and (user.digest_on is None or user.digest_on < local.date()))


def send_digests(session: Session, now: datetime) -> list[int]:
    """Every digest due by `now` (aware UTC): the ids of the users mailed.  Each user in a
    transaction of their own; a user whose rows another transaction holds waits for the
    next tick.  Idempotent per user and local day."""
    # A superset from the database (a local date is at most one day ahead of UTC's), then
    # the exact test, so only users whose digest is due are locked (and again tested).
    candidates = [user.id for user in session.scalars(
        select(User).where(User.opponent_moves == DIGEST,
                           or_(User.digest_on.is_(None), User.digest_on <= now.date()),
                           User.id.in_(select(Seat.user_id).join(Game).where(Game.status == Game.ACTIVE)))
        .order_by(User.id)) if digest_due(user, now)]
    session.rollback()
    mailed = []
    for user_id in candidates:
        try:
            if _digest(session, user_id, now):
                mailed.append(user_id)
        except Exception:  # noqa: BLE001 - one user's failure must not stop the others
            session.rollback()
            log.exception("the digest of user %s failed", user_id)
    return mailed


def _lock_user(session: Session, user_id: int) -> User | None:
    if session.get_bind().dialect.name == "sqlite":  # take the write lock first (locking.py)
        session.execute(update(User).where(User.id == user_id).values(digest_hour=User.digest_hour))
        return session.scalar(select(User).where(User.id == user_id).execution_options(populate_existing=True))
    return session.scalar(select(User).where(User.id == user_id).with_for_update(skip_locked=True)
                          .execution_options(populate_existing=True))


def _digest(session: Session, user_id: int, now: datetime) -> bool:
    user = _lock_user(session, user_id)
    if user is None or not digest_due(user, now):
        session.rollback()
        return False
    day = now.astimezone(zone(user.time_zone)).date()
    seats = list(session.scalars(select(Seat).join(Game).where(Seat.user_id == user.id, Game.status == Game.ACTIVE,
                                                                Seat.name.is_not(None)).order_by(Game.id)))
    sections = []
    for seat in seats:
        cursor = _locked_cursor(session, seat, skip_locked=True)
        if cursor is None:  # an advance of that game is telling this seat right now
            session.rollback()
            return False
        news = _news(seat.game, game_state(session, seat.game), seat, cursor)
        _move_cursor(session, news)
        if news.lines:
            sections.append(f"{seat.game.title} (game {seat.game.id}):\n" + "\n".join(news.lines)
                            + "\n" + _footer(links.game(base_url(), seat.game.id)))
    address = user.primary_address
    if sections and address:
        send_mail(session, address, f"Your games on {day.isoformat()}: what your opponents did",
                  "What happened in your games since the last news:\n\n" + "\n".join(sections)
                  + f"\nOne mail a day at {user.digest_hour:02d}:00 ({user.time_zone}); "
                  f"change it on your profile:\n{links.profile(base_url())}\n",
                  topic=TOPIC, key=f"digest:{user.id}:{day.isoformat()}")
    user.digest_on = day
    session.commit()
    return bool(sections and address)
