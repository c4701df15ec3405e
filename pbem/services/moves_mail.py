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
from collections import defaultdict
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Callable

from sqlalchemy import ColumnElement, and_, false, or_, select, update
from sqlalchemy.orm import Session, contains_eager, selectinload
from sqlalchemy.orm.attributes import set_committed_value

from pbem.games import presentation
from pbem.models import Game, Seat, User
from pbem.outbox.delivery import RECAP
from pbem.outbox.messages import queued_keys, send_mail
from pbem.outbox.seat_tokens import seat_reply_address
from pbem.services import links
from pbem.services.links import base_url
from pbem.services.state import game_states, player_names
from pbem.timezones import zone
from pbem.writes import Write, row_write

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


def news_lines(state: Any, seat: str, names: dict[str, str], start: int,
               view: dict[str, Any] | None = None) -> tuple[list[str], int]:
    """What `seat`'s reader may be told of the events after its first `start` visible ones:
    plain-text lines (at most MAX_LINES, the latest) and the new cursor.  `view`: the seat's
    view of `state`, if the caller has it."""
    shown = presentation(state.game)
    events = (state.view(seat) if view is None else view).get("events", [])
    fresh = [event for event in events[start:] if shown.is_news(event, seat)]
    lines = shown.event_lines(fresh, names, state)
    if len(lines) > MAX_LINES:
        lines = [f"  ({len(lines) - MAX_LINES} earlier events are on the game page)"] + lines[-MAX_LINES:]
    return lines, len(events)


def _news(game: Game, state: Any, seat: Seat, cursor: int, view: dict[str, Any] | None = None) -> News:
    lines, end = news_lines(state, seat.name or "", player_names(game), cursor, view)
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
    return since_last_turns(session, game, state, [seat]).get(seat.id, "")


def since_last_turns(session: Session, game: Game, state: Any, seats: list[Seat], *,
                     locked: list[Write] | None = None, views: dict[str, dict[str, Any]] | None = None
                     ) -> dict[int, str]:
    """`since_last_turn` for several seats of one game (by seat id; "" or absent: nothing):
    their cursors locked and moved in two statements, however many seats.  `locked`: the
    caller read these seats' rows locked in this transaction (lock_game(..., people=True)),
    so their cursors are current; the UPDATEs that move them are added to this list, for the
    caller to send with its mails (`send_mails(writes=...)`).  `views`: the seats' views of
    `state` by seat name, if the caller has them."""
    readers = [seat for seat in seats if _wants(seat, DIGEST) is not None]
    if not readers:
        return {}
    if locked is not None:
        news = [_news(game, state, seat, seat.events_reported or 0, (views or {}).get(seat.name or ""))
                for seat in readers]
        for item in news:
            if item.end != item.start:
                n = len(locked)
                locked.append(row_write(Seat.__table__, f"cursor{n}", item.seat.id, {"events_reported": item.end}))
                set_committed_value(item.seat, "events_reported", item.end)  # written by those UPDATEs
    else:
        query = select(Seat.id, Seat.events_reported).where(Seat.id.in_([seat.id for seat in readers]))
        if session.get_bind().dialect.name != "sqlite":  # SQLite: the writer holds the database lock
            query = query.with_for_update()
        cursors = {seat_id: cursor for seat_id, cursor in session.execute(query)}
        news = [_news(game, state, seat, cursors.get(seat.id) or 0, (views or {}).get(seat.name or ""))
                for seat in readers]
        session.execute(update(Seat).execution_options(synchronize_session=False),
                        [{"id": item.seat.id, "events_reported": item.end} for item in news])
    return {item.seat.id: f"\n{RECAP}\n" + "\n".join(item.lines) + "\n" for item in news if item.lines}


# ---- the daily digest (run by the deadline tick) --------------------------------------------

BATCH = 100  # people per transaction: a few statements for all of them, not a dozen each


def digest_due(user: User, now: datetime) -> bool:
    """The user wants a digest, today's (local) is not done, and its hour has come."""
    local = now.astimezone(zone(user.time_zone))
    return (user.opponent_moves == DIGEST and local.hour >= user.digest_hour
            and (user.digest_on is None or user.digest_on < local.date()))


def due_condition(session: Session, now: datetime) -> ColumnElement[bool]:
    """`digest_due` in SQL: per time zone in use (a few dozen), that zone's local hour and
    day at `now`, so the database picks the people whose digest is due by itself."""
    zones = session.scalars(select(User.time_zone).where(User.opponent_moves == DIGEST).distinct())
    tests = []
    for name in zones:
        local = now.astimezone(zone(name))
        tests.append(and_(User.time_zone == name, User.digest_hour <= local.hour,
                          or_(User.digest_on.is_(None), User.digest_on < local.date())))
    return and_(User.opponent_moves == DIGEST, or_(*tests)) if tests else false()


def due_users(session: Session, now: datetime) -> list[int]:
    """The ids of the people whose digest is due by `now` and who sit in a running game."""
    playing = select(Seat.user_id).join(Game).where(Game.status == Game.ACTIVE, Seat.user_id.is_not(None))
    return list(session.scalars(select(User.id).where(due_condition(session, now), User.id.in_(playing))
                                .order_by(User.id)))


def send_digests(session: Session, now: datetime,
                 out_of_time: Callable[[], bool] = lambda: False) -> tuple[list[int], bool]:
    """Every digest due by `now` (aware UTC), BATCH people per transaction: the ids of the
    people mailed, and whether some were left for the next tick (`out_of_time` said stop).
    People whose rows another transaction holds wait for the next tick.  Idempotent per
    person and local day."""
    candidates = due_users(session, now)
    session.rollback()
    mailed: list[int] = []
    for start in range(0, len(candidates), BATCH):
        if start and out_of_time():  # one batch at least: every tick gets somewhere
            return mailed, True
        batch = candidates[start:start + BATCH]
        try:
            mailed += _digests(session, batch, now)
        except Exception:  # noqa: BLE001 - one person's failure must not stop the others
            session.rollback()
            mailed += _one_by_one(session, batch, now)
    return mailed, False


def _one_by_one(session: Session, user_ids: list[int], now: datetime) -> list[int]:
    """A batch that failed, again person by person, so only the broken one is left out."""
    mailed = []
    for user_id in user_ids:
        try:
            mailed += _digests(session, [user_id], now)
        except Exception:  # noqa: BLE001
            session.rollback()
            log.exception("the digest of user %s failed", user_id)
    return mailed


def _lock_users(session: Session, user_ids: list[int]) -> list[User]:
    """These people (with their addresses), each row locked; those someone else holds are left out."""
    query = select(User).where(User.id.in_(user_ids)).options(selectinload(User.addresses)).order_by(User.id) \
        .execution_options(populate_existing=True)
    if session.get_bind().dialect.name == "sqlite":  # take the write lock first (locking.py)
        session.execute(update(User).where(User.id.in_(user_ids)).values(digest_hour=User.digest_hour))
    else:
        query = query.with_for_update(skip_locked=True, of=User)
    return list(session.scalars(query))


def _locked_cursors(session: Session, seat_ids: list[int]) -> dict[int, int]:
    """The cursors of these seats, locked; a seat another transaction holds is left out."""
    query = select(Seat.id, Seat.events_reported).where(Seat.id.in_(seat_ids))
    if session.get_bind().dialect.name != "sqlite":
        query = query.with_for_update(skip_locked=True)
    return {seat_id: cursor for seat_id, cursor in session.execute(query)}


def _digests(session: Session, user_ids: list[int], now: datetime) -> list[int]:
    """The digests of these people in one transaction: the mails, the seats' cursors and
    each person's day done, all or nothing.  The ids of the people mailed."""
    users = [user for user in _lock_users(session, user_ids) if digest_due(user, now)]
    seats: dict[int, list[Seat]] = defaultdict(list)
    for seat in session.scalars(select(Seat).join(Game).options(contains_eager(Seat.game))
                                .where(Seat.user_id.in_([user.id for user in users]), Game.status == Game.ACTIVE,
                                       Seat.name.is_not(None)).order_by(Game.id)):
        seats[seat.user_id or 0].append(seat)
    cursors = _locked_cursors(session, [seat.id for mine in seats.values() for seat in mine])
    states = game_states(session, {seat.game_id: seat.game for mine in seats.values() for seat in mine}.values())
    moved, mailed = [], []
    days = {user.id: now.astimezone(zone(user.time_zone)).date() for user in users}
    keys = {user.id: f"digest:{user.id}:{days[user.id].isoformat()}" for user in users}
    done = queued_keys(session, list(keys.values()))  # one query for the batch (each person's row is locked)
    with session.no_autoflush:  # the mails go in together at the commit, not one per query
        for user in users:
            mine = seats[user.id]
            if any(seat.id not in cursors for seat in mine):
                continue  # an advance of one of their games is telling them right now: next tick
            day = days[user.id]
            sections = []
            for seat in mine:
                news = _news(seat.game, states[seat.game_id], seat, cursors[seat.id])
                moved.append({"id": seat.id, "events_reported": news.end})
                if news.lines:
                    sections.append(f"{seat.game.title} (game {seat.game.id}):\n" + "\n".join(news.lines)
                                    + "\n" + _footer(links.game(base_url(), seat.game.id)))
            address = user.primary_address
            if sections and address:
                if keys[user.id] not in done:  # else queued already (today's done mark was lost)
                    send_mail(session, address, f"Your games on {day.isoformat()}: what your opponents did",
                              "What happened in your games since the last news:\n\n" + "\n".join(sections)
                              + f"\nOne mail a day at {user.digest_hour:02d}:00 ({user.time_zone}); "
                              f"change it on your profile:\n{links.profile(base_url())}\n",
                              topic=TOPIC, key=keys[user.id], key_checked=True)
                mailed.append(user.id)
            user.digest_on = day
    if moved:
        session.execute(update(Seat), moved)  # by primary key: one statement for all the seats
    session.commit()
    return mailed
