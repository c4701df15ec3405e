"""Live pages: tell a waiting reader the moment a game changed, without a poll of their own.

A game's *stamp* is what a page shows that can change: its version (bumped by every advance
and status change), how many seats have orders in and how many public press messages it has
(private ones would tell who talks to whom; they show at the reader's next change or reload).  Writers mark a game as changed
(`changed`) inside their transaction; once it commits, its id is published on Redis
(`pbem:live:<id>`).  A reader (the page's event stream, the API's `?wait=`) holds on until
the stamp differs from the one it has: on Redis pub/sub where REDIS_URL is set, so a
message from a worker process reaches every web process; without Redis (`make run`'s
embedded defaults) by reading the stamp again every POLL_SECONDS inside the server.

The stamp says nothing a page does not: a seat replacing its pending orders leaves it as it
is (it counts seats, not orders), so nobody learns that someone changed their mind.
"""
from __future__ import annotations

import logging
import time
from typing import Any, Callable, Sequence

import redis
from flask import current_app, has_app_context
from sqlalchemy import distinct, event, func, select
from sqlalchemy.orm import Session

from pbem.models import Game, PendingOrder, PressMessage, Seat

log = logging.getLogger(__name__)

CHANNEL = "pbem:live:{}"
POLL_SECONDS = 0.5  # without Redis: how often a waiting reader looks again
MAX_WAIT = 60  # seconds one wait may hold a request
_KEY = "pbem.live"  # session.info: game ids changed in the open transaction


def changed(session: Session, game_id: int) -> None:
    """Publish `game_id` once the session's transaction commits (nothing if it rolls back)."""
    session.info.setdefault(_KEY, set()).add(game_id)


@event.listens_for(Session, "after_commit")
def _publish(session: Session) -> None:
    games = session.info.pop(_KEY, None)
    url = _redis_url()
    if not games or not url:
        return
    try:
        client = _client(url)
        for game_id in sorted(games):
            client.publish(CHANNEL.format(game_id), "1")
    except redis.RedisError as error:  # a late page is better than a failed order
        log.warning("live: could not publish %s: %s", sorted(games), error)


@event.listens_for(Session, "after_rollback")
def _forget(session: Session) -> None:
    session.info.pop(_KEY, None)


def stamp(session: Session, game_id: int) -> str | None:
    """The game's stamp now; None if there is no such game."""
    seats_in = select(func.count(distinct(PendingOrder.seat))).where(PendingOrder.game_id == game_id)
    found = session.execute(select(Game.version, seats_in.scalar_subquery(), public_press(game_id))
                            .where(Game.id == game_id)).first()  # one round trip for the three
    if found is None:
        return None
    return stamp_of(*found)


def public_press(game_id: Any) -> Any:
    """How many public press messages the game has, as a scalar subquery (`game_id`: a value
    or a bound parameter).  Public only: counting private ones would tell who talks to whom."""
    return select(func.count(PressMessage.id)).where(
        PressMessage.game_id == game_id, PressMessage.to_seat.is_(None),
        PressMessage.hidden_at.is_(None)).scalar_subquery()


def stamp_of(version: int, seats_in: int, press: int) -> str:
    """The stamp of a game read elsewhere (`pbem.services.play.game_view`): its version, how
    many seats have orders in, how many public press messages it has."""
    return f"{version}.{seats_in}.{press}"


def lobby_stamp(session: Session, shown: Sequence[int]) -> str:
    """The stamp of a list page showing the games `shown`: it moves when one of them changes
    (its version, or a seat taken or left) or a new game is created (the newest id)."""
    newest = session.scalar(select(func.max(Game.id))) or 0
    if not shown:
        return f"{newest}.0.0"
    versions = session.scalar(select(func.coalesce(func.sum(Game.version), 0)).where(Game.id.in_(list(shown))))
    taken = session.scalar(select(func.count(Seat.id)).where(Seat.game_id.in_(list(shown)), Seat.user_id.is_not(None)))
    return f"{newest}.{versions}.{taken}"  # a join or a leave moves no version


def wait(read: Callable[[], str | None], seen: str | None, seconds: float,
         concerns: int | Callable[[int], bool]) -> str | None:
    """The stamp once it differs from `seen`, or after `seconds` the stamp as it is.  `read`
    reads the stamp in a short transaction of its own (the caller's session must not hold a
    connection while it waits).  `concerns`: the one game whose changes move it (its channel
    alone is heard), or a test of a game's id (every game's channel is heard: list pages)."""
    seconds = max(0.0, min(float(seconds), MAX_WAIT))
    current = read()
    if current != seen or seconds == 0:
        return current
    url = _redis_url()
    if url:
        try:
            return _wait_redis(url, read, seen, seconds, concerns)
        except redis.RedisError as error:
            log.warning("live: Redis unavailable, reading the database instead: %s", error)
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        time.sleep(min(POLL_SECONDS, max(0.0, end - time.monotonic())))
        current = read()
        if current != seen:
            return current
    return current


def _wait_redis(url: str, read: Callable[[], str | None], seen: str | None, seconds: float,
                concerns: int | Callable[[int], bool]) -> str | None:
    pubsub = _client(url).pubsub(ignore_subscribe_messages=True)
    try:
        if isinstance(concerns, int):
            pubsub.subscribe(CHANNEL.format(concerns))  # its channel brings nothing else
        else:
            pubsub.psubscribe(CHANNEL.format("*"))
        current = read()  # subscribed first: a change committed meanwhile is not missed
        end = time.monotonic() + seconds
        while current == seen and time.monotonic() < end:
            message = pubsub.get_message(timeout=max(0.01, end - time.monotonic()))
            if message is not None and (isinstance(concerns, int) or concerns(_game_of(message))):
                current = read()
        return current
    finally:
        pubsub.close()


def _game_of(message: dict[str, Any]) -> int:
    channel = message.get("channel") or b""
    tail = (channel.decode() if isinstance(channel, bytes) else str(channel)).rsplit(":", 1)[-1]
    return int(tail) if tail.isdigit() else 0


_clients: dict[str, Any] = {}


def _client(url: str) -> Any:
    if url not in _clients:  # one connection pool per process and URL
        _clients[url] = redis.Redis.from_url(url, socket_timeout=MAX_WAIT + 5, socket_connect_timeout=5)
    return _clients[url]


def _redis_url() -> str | None:
    return current_app.config.get("REDIS_URL") if has_app_context() else None
