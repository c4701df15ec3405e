"""Helpers for the deadline tests: a controllable clock for the tick, games with policies,
playing a person's decisions, and reading the outbox."""
from __future__ import annotations

import threading
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from pbem.models import Game, GameEvent, OrderLogEntry, OutboxMessage, Seat, TickState, User
from pbem.services import deadlines, lobby, play
from pbem.testing import first_legal_order
from service_helpers import make_game, make_user  # noqa: F401 - re-exported

HOUR = timedelta(hours=1)
SECOND = timedelta(seconds=1)


def tick(session: Any, now: datetime, *, gap: timedelta = timedelta(seconds=30)) -> deadlines.TickReport:
    """One tick at `now`, the previous one `gap` earlier (no outage unless the gap says so)."""
    row = session.get(TickState, 1)
    if row is None:
        session.add(TickState(id=1, last_tick_at=now - gap))
    else:
        row.last_tick_at = now - gap
    session.commit()
    report = deadlines.tick(session, now)
    session.expire_all()
    return report


def overlapping_ticks(session: Any, now: datetime) -> list[deadlines.TickReport]:
    """Two ticks at `now` started together, each in its own session (as two workers would);
    fails on any error either raised."""
    reports, errors = [], []
    start = threading.Barrier(2)

    def run() -> None:
        with Session(session.get_bind()) as mine:
            try:
                start.wait()
                reports.append(deadlines.tick(mine, now))
            except Exception as error:  # noqa: BLE001
                errors.append(error)

    threads = [threading.Thread(target=run) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(120)
    assert not errors and len(reports) == 2, errors
    session.expire_all()
    return reports


def fresh(session: Any, game: Game) -> Game:
    session.expire_all()
    return session.get(Game, game.id)


def seat_of(session: Any, game: Game, user: User) -> Seat:
    return next(s for s in fresh(session, game).seats if s.user_id == user.id)


def decisions(session: Any, game: Game, user: User) -> list[dict[str, Any]]:
    return play.game_view(session, fresh(session, game), user).view.get("me", {}).get("decisions", [])


def owes(session: Any, game: Game, user: User) -> str | None:
    found = decisions(session, game, user)
    return found[0]["kind"] if found else None


def play_own(session: Any, game: Game, user: User) -> str:
    """The person's first legal order for what they owe now."""
    order = first_legal_order(decisions(session, game, user)[0])
    play.submit_for_user(session, game.id, user, order, channel="api")
    return order


def log(session: Any, game: Game) -> list[tuple[str, str, str]]:
    return list(session.execute(select(OrderLogEntry.seat, OrderLogEntry.text, OrderLogEntry.by)
                                .where(OrderLogEntry.game_id == game.id).order_by(OrderLogEntry.seq)))


def events(session: Any, game: Game, type: str | None = None) -> list[GameEvent]:
    query = select(GameEvent).where(GameEvent.game_id == game.id).order_by(GameEvent.id)
    if type:
        query = query.where(GameEvent.type == type)
    return list(session.scalars(query))


def mails(session: Any, to: str | None = None, topic: str | None = None) -> list[OutboxMessage]:
    query = select(OutboxMessage).order_by(OutboxMessage.id)
    if to:
        query = query.where(OutboxMessage.to_address == to)
    if topic:
        query = query.where(OutboxMessage.topic == topic)
    return list(session.scalars(query))


def policy_game(session: Any, creator: User, *, invites: tuple[str, ...] = (), bots: tuple[str, ...] = ("heuristic",),
                players: int | None = None, **policy: Any) -> Game:
    """A started game with a deadline policy (hours per kind left at their defaults unless given)."""
    return make_game(session, creator, players=players or 1 + len(bots) + len(invites), bots=bots,
                     invites=list(invites), deadlines=policy or None)


def two_humans(session: Any, ana: User, bo: User, **policy: Any) -> Game:
    """Ana (the host), Bo and a heuristic bot, started."""
    game = policy_game(session, ana, invites=("bo@example.com",), **policy)
    lobby.join_game(session, game.id, bo)
    game = fresh(session, game)
    assert game.status == Game.ACTIVE
    return game


def until_owes(session: Any, game: Game, absent: User, players: list[User], kind: str | None = None,
               limit: int = 200) -> None:
    """Let `players` play their first legal orders until only `absent` owes a decision (of
    `kind`): the others have played or have their secret choice in."""
    for _ in range(limit):
        for person in players:
            if owes(session, game, person) and not pending(session, game, person):
                play_own(session, game, person)
                break
        else:
            owed = owes(session, game, absent)
            if owed and (kind is None or owed == kind):
                return
            raise AssertionError("nobody can move and the absent seat owes nothing")
    raise AssertionError("the absent seat was never asked")


def pending(session: Any, game: Game, user: User) -> list[str]:
    return play.game_view(session, fresh(session, game), user).my_pending
