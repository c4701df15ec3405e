"""Serializing changes to one game: a row lock where the database has one, and a
compare-and-set on `games.version` everywhere (SQLite has no SELECT ... FOR UPDATE; there
the database's write lock is taken up front instead).

Whoever changes the order log or the status locks the game first and bumps its
version in the same transaction; a concurrent writer that read the old version fails
its compare-and-set with StaleGame instead of overwriting.
"""
from __future__ import annotations

from functools import cache, wraps
from typing import Any, Callable, NamedTuple, Sequence, TypeVar

from sqlalchemy import Select, Update, bindparam, inspect, select, update
from sqlalchemy.orm import Session, contains_eager, joinedload
from sqlalchemy.orm.attributes import set_committed_value

from pbem.live import changed
from pbem.models import Game, Seat, User, now
from pbem.services.errors import NotFound, StaleGame
from pbem.writes import Write, together


def lock_game(session: Session, game_id: int, *, people: bool = False, pending: bool = False,
              queued: bool = False) -> Game:
    """The game, locked for this transaction, then read once with its seats (two statements).
    `people`: also each seat's person (with the end of their last vacation), their
    addresses and the seat's reply token (an advance mails them), the seats' rows locked too; `pending`: its pending orders
    (`Game.pending_orders`); `queued`: its turns queued ahead (`Game.queued_turns`)."""
    if not lock_row(session, Game, game_id):
        raise NotFound(f"there is no game {game_id}")
    # Read once the lock is ours, in a statement of its own: a SELECT ... FOR UPDATE that
    # waited re-reads only the rows it locks, and takes the rows it joins (pending orders,
    # queued turns) from before the wait: orders another advance applied and deleted
    # meanwhile would be read, and applied again (tests/service/test_lock_reads.py).
    query = _lock_query(people, pending, queued, False)
    game = session.scalars(query, {"game_id": game_id}).unique().one_or_none()
    if game is None:
        raise NotFound(f"there is no game {game_id}")
    return game


def lock_row(session: Session, model: Any, ident: int) -> bool:
    """Lock the row of `model` with this id for this transaction, in a statement of its own;
    False if there is none.  SQLite has no row locks: a write that changes nothing takes the
    database's write lock now, so concurrent writers queue here instead of failing at commit."""
    sqlite = session.get_bind().dialect.name == "sqlite"
    result = session.execute(_lock_statement(model, sqlite), {"ident": ident})
    return bool(result.rowcount == 1 if sqlite else result.first() is not None)  # type: ignore[attr-defined]


@cache
def _lock_statement(model: Any, sqlite: bool) -> Any:
    table = model.__table__
    if sqlite:
        return update(table).where(table.c.id == bindparam("ident")).values(id=table.c.id)
    return select(table.c.id).where(table.c.id == bindparam("ident")).with_for_update()


@cache
def _lock_query(people: bool, pending: bool, queued: bool, many: bool) -> Select[tuple[Game]]:
    """`lock_game`'s statement (`many`: `claim_games`', for the ids "game_ids"), built once per
    kind: a statement this rich costs more to build and key for the statement cache than to run."""
    query = select(Game).where(Game.id.in_(bindparam("game_ids", expanding=True)) if many
                               else Game.id == bindparam("game_id"))
    if people:
        # The seats' rows are locked too (an advance moves their news cursors): joined, not
        # outer-joined, as PostgreSQL locks no row of an outer join's optional side.
        query = query.join(Game.seats).order_by(Game.id, Seat.position).options(
            contains_eager(Game.seats).joinedload(Seat.user).undefer(User.vacations_end),
            contains_eager(Game.seats).joinedload(Seat.user).joinedload(User.addresses),
            contains_eager(Game.seats).joinedload(Seat.reply_tokens)).with_for_update(of=[Game, Seat])
    else:
        query = query.options(joinedload(Game.seats)).with_for_update(of=Game)
    if pending:
        query = query.options(joinedload(Game.pending_orders))
    if queued:
        query = query.options(joinedload(Game.queued_turns))
    return query.execution_options(populate_existing=True)


def claim_game(session: Session, game_id: int) -> Game | None:
    """The game locked for this transaction, or None if another transaction holds it
    (PostgreSQL: FOR UPDATE SKIP LOCKED; SQLite has one write lock, taken by waiting)."""
    if session.get_bind().dialect.name == "sqlite":
        return lock_game(session, game_id)
    return session.scalar(select(Game).where(Game.id == game_id).with_for_update(skip_locked=True)
                          .execution_options(populate_existing=True))


def claim_games(session: Session, game_ids: list[int]) -> list[Game]:
    """`claim_game` for many games, in order of id, each read as `lock_game(people=True,
    pending=True, queued=True)` reads it (for `advance(commit=False)`), in two statements
    however many: those another transaction holds are left out."""
    if session.get_bind().dialect.name == "sqlite":  # its one write lock, taken up front (lock_game)
        session.execute(update(Game).where(Game.id.in_(game_ids)).values(version=Game.version)
                        .execution_options(synchronize_session=False))
        claimed = list(game_ids)
    else:
        # Skipping only games: the seats are then locked by waiting (a seat skipped in the join
        # below would silently be missing from its game).
        claimed = list(session.scalars(select(Game.id).where(Game.id.in_(game_ids)).order_by(Game.id)
                                       .with_for_update(skip_locked=True)))
    if not claimed:
        return []
    query = _lock_query(True, True, True, True)
    return list(session.scalars(query, {"game_ids": claimed}).unique())


def bump_version(session: Session, game: Game, *, writes: Sequence[Write] = (), **changes: Any) -> None:
    """Set `changes` and version + 1, only if nobody changed the game since we read it (with
    whatever else of the game's columns the session has changed: one UPDATE).  `writes`: Core
    writes of other tables sent with it (`pbem.writes.together`: one statement on PostgreSQL)."""
    update = bump(game, **changes)
    bumped(session, game, update.send(session, writes))


class Bump(NamedTuple):
    """`bump_version`'s UPDATE, built: sent by `bump_version`, or by a caller with its other
    statements (`write`: the UPDATE RETURNING the row it touched), then `bumped`."""

    columns: tuple[str, ...]
    params: dict[str, Any]

    @property
    def write(self) -> Write:
        return Write(_bumped(self.columns), self.params)

    def send(self, session: Session, writes: Sequence[Write] = ()) -> int:
        """Sent with `writes` (`pbem.writes.together`); how many rows it touched."""
        return int(together(session, _bump(self.columns), self.params, writes).rowcount)  # type: ignore[attr-defined]


def bump(game: Game, **changes: Any) -> Bump:
    """The UPDATE of `bump_version`; the object takes its values now (kept in step without being
    marked dirty, which would write again), as if it had been sent: a stale game rolls back."""
    expected = game.version
    # The game's own changes not written yet (a new deadline...) go in the same UPDATE.
    # Only the attributes set since the load are looked at (`committed_state`): asking each
    # column for its history costs more than the UPDATE's round trip.
    state = inspect(game)
    unwritten = {key: state.dict[key] for key in list(state.committed_state)
                 if key in _COLUMNS and state.attrs[key].history.added}
    values = {**unwritten, "version": expected + 1, "updated_at": now(), **changes}
    for name, value in values.items():
        set_committed_value(game, name, value)
    if not state.committed_state:
        # Nothing of the game is left unwritten, but the session still counts it as modified:
        # the next statement would autoflush a unit of work that writes nothing (issue 18).
        state._commit_all(state.dict, state.session.identity_map if state.session else None)
    return Bump(tuple(sorted(values)), {"bump_game": game.id, "bump_expected": expected,
                                        **{f"bump_{key}": value for key, value in values.items()}})


def bumped(session: Session, game: Game, touched: int) -> None:
    """After the UPDATE of `bump`: StaleGame (rolled back) unless it touched the game's row."""
    if touched != 1:
        session.rollback()
        raise StaleGame("the game changed meanwhile; try again")
    changed(session, game.id)  # open pages learn of it once this commits (pbem/live.py)


_COLUMNS = frozenset(column.key for column in inspect(Game).column_attrs)
_GAMES = Game.__table__


@cache
def _bump(columns: tuple[str, ...]) -> Update:
    """`bump_version`'s UPDATE of these columns."""
    return update(_GAMES).where(_GAMES.c.id == bindparam("bump_game"), _GAMES.c.version == bindparam("bump_expected")) \
        .values({name: bindparam(f"bump_{name}") for name in columns})


@cache
def _bumped(columns: tuple[str, ...]) -> Update:
    """`_bump` RETURNING the row it touched (to be counted where it is sent with others)."""
    return _bump(columns).returning(_GAMES.c.id)

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
