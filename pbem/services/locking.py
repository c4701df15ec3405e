"""Serializing changes to one game: a row lock where the database has one, and a
compare-and-set on `games.version` everywhere (SQLite has no SELECT ... FOR UPDATE; there
the database's write lock is taken up front instead).

Whoever changes the order log or the status locks the game first and bumps its
version in the same transaction; a concurrent writer that read the old version fails
its compare-and-set with StaleGame instead of overwriting.
"""
from __future__ import annotations

from functools import wraps
from typing import Any, Callable, TypeVar

from sqlalchemy import select, update
from sqlalchemy.orm import Session, selectinload
from sqlalchemy.orm.attributes import set_committed_value

from pbem.live import changed
from pbem.models import Game, Seat, User, now
from pbem.services.errors import NotFound, StaleGame


def lock_game(session: Session, game_id: int) -> Game:
    """The game, locked for this transaction."""
    if session.get_bind().dialect.name == "sqlite":
        # SQLite has no row locks.  A write that changes nothing takes the database's write
        # lock now, so concurrent writers queue here instead of failing at commit.
        session.execute(update(Game).where(Game.id == game_id).values(version=Game.version)
                        .execution_options(synchronize_session=False))
    game = session.scalar(select(Game).where(Game.id == game_id).with_for_update()
                          .execution_options(populate_existing=True))
    if game is None:
        raise NotFound(f"there is no game {game_id}")
    return game


def claim_game(session: Session, game_id: int) -> Game | None:
    """The game locked for this transaction, or None if another transaction holds it
    (PostgreSQL: FOR UPDATE SKIP LOCKED; SQLite has one write lock, taken by waiting)."""
    if session.get_bind().dialect.name == "sqlite":
        return lock_game(session, game_id)
    return session.scalar(select(Game).where(Game.id == game_id).with_for_update(skip_locked=True)
                          .execution_options(populate_existing=True))


def claim_games(session: Session, game_ids: list[int]) -> list[Game]:
    """`claim_game` for many games in one statement, in order of id, each with its seats and
    their people (and addresses) loaded: those another transaction holds are left out."""
    query = select(Game).where(Game.id.in_(game_ids)).order_by(Game.id) \
        .options(selectinload(Game.seats).selectinload(Seat.user).selectinload(User.addresses)) \
        .execution_options(populate_existing=True)
    if session.get_bind().dialect.name == "sqlite":  # its one write lock, taken up front (lock_game)
        session.execute(update(Game).where(Game.id.in_(game_ids)).values(version=Game.version)
                        .execution_options(synchronize_session=False))
    else:
        query = query.with_for_update(skip_locked=True, of=Game)
    return list(session.scalars(query))


def bump_version(session: Session, game: Game, **changes: Any) -> None:
    """Set `changes` and version + 1, only if nobody changed the game since we read it."""
    expected = game.version
    values = {"version": expected + 1, "updated_at": now(), **changes}
    result = session.execute(update(Game).where(Game.id == game.id, Game.version == expected)
                             .values(**values).execution_options(synchronize_session=False))
    if result.rowcount != 1:  # type: ignore[attr-defined]
        session.rollback()
        raise StaleGame("the game changed meanwhile; try again")
    changed(session, game.id)  # open pages learn of it once this commits (pbem/live.py)
    # Keep the loaded object in step, without marking it dirty (which would write again).
    for name, value in values.items():
        set_committed_value(game, name, value)


F = TypeVar("F", bound=Callable[..., Any])


def unit_of_work(function: F) -> F:
    """A service function whose first argument is the session: if it fails, roll back, so
    nothing half-done stays in the session and the game's row lock is released at once."""
    @wraps(function)
    def wrapper(session: Session, *args: Any, **kwargs: Any) -> Any:
        try:
            return function(session, *args, **kwargs)
        except BaseException:
            session.rollback()
            raise
    return wrapper  # type: ignore[return-value]
