"""Playing: the one path for an order, and what each reader may see of a game.

An order goes: text -> the engine's parser -> a check on a copy of the current state ->
committed as pending -> acknowledged with its canonical text -> `advance` applies it
(`request_advance`, pbem/services/dispatch.py): a worker does, queued once the order is
committed (PBEM_ADVANCE=queue), or the submitting request itself (PBEM_ADVANCE=inline).
Every answer about a game is built from the engine's view for the reader's seat (or the
public view), never from the state itself; the order log and seed only leave the service
in the record of a finished game.
"""
from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import bindparam, delete, insert, inspect, select
from sqlalchemy.orm import Session, make_transient_to_detached
from sqlalchemy.orm.attributes import set_committed_value

from engine.core import OrderError, ParseError, State
from engine.records import replay
from pbem.live import changed, public_press, stamp_of
from pbem.models import ORDER_MAX, Game, PendingOrder, Seat, User, now
from pbem.services.dispatch import advance_within, request_advance
from pbem.services.errors import Conflict, Forbidden, Invalid, OrderRejected
from pbem.services.locking import lock_game, unit_of_work
from pbem.services.schedule import schedule
from pbem.services.takeover import seat_acted
from pbem.services.state import game_state, log_lines, record
from pbem.writes import deleted, execute, together

log = logging.getLogger(__name__)

MAX_SUBMISSION = 10_000  # characters; far more than any legal submission
CHANNELS = ("web", "api", "email", "bot")
VIEW_READS = 3  # a view read while the game advances is read again, at most this often


@dataclass
class Receipt:
    """The acknowledgement of a committed submission."""

    game_id: int
    seat: str
    orders: list[str]  # canonical text, one line per order, as stored
    pending: list[str]  # those not applied yet: a secret choice, or queued after others' turns
    message: str
    queued: bool = False  # a worker was asked to advance the game now

    @property
    def applied(self) -> bool:
        return not self.pending

    @property
    def status(self) -> str:
        """What happened, truthfully: "applied" (in this request), "queued" (a worker applies
        it in a moment if the game waits for nothing else), "waiting" (for other seats)."""
        return "applied" if self.applied else "queued" if self.queued else "waiting"


def seat_of(game: Game, user: User | None) -> Seat | None:
    if user is None:
        return None
    return next((seat for seat in game.seats if seat.user_id == user.id), None)


def require_seat(game: Game, user: User | None) -> Seat:
    """The seat `user` plays in `game`; nobody acts for a seat that is not theirs."""
    seat = seat_of(game, user)
    if seat is None or seat.name is None:
        raise Forbidden("you have no seat in this game")
    return seat


@unit_of_work
def submit_for_user(session: Session, game_id: int, user: User, text: str, *, channel: str) -> Receipt:
    """`submit_orders` for the seat `user` plays in game `game_id`: the game is locked and
    read once, with its seats, before anything else (nobody acts for a seat not theirs)."""
    _check_size(channel, text)
    game = lock_game(session, game_id, pending=True)
    return _submit(session, game, require_seat(game, user), text or "", channel, user.id)


@unit_of_work
def submit_orders(session: Session, seat: Seat, text: str, *, channel: str, user_id: int | None = None,
                  locked: Game | None = None, within: bool = False) -> Receipt:
    """Check and commit a seat's orders, then advance the game (or queue its advance for a
    worker).  Raises OrderRejected (and stores nothing) when the text does not parse or the
    rules refuse it now.  A new submission replaces the seat's orders that are still
    pending (a secret choice can be changed until everyone has chosen).  `locked`: the
    seat's game if this transaction already locked it with its pending orders
    (`lock_game(pending=True)`), so it is not locked and read again.  `within`: the advance
    goes in the order's own transaction (`dispatch.advance_within`: one commit, no task), for
    a caller that runs in a worker already, the mail gateway; its `locked` game is then read
    with everything an advance works on (`lock_game(people=True, pending=True, queued=True)`)."""
    _check_size(channel, text)
    assert seat.name is not None, "seats are named when the game starts"
    assert locked is None or locked.id == seat.game_id
    game = locked if locked is not None else lock_game(session, seat.game_id, pending=True, people=within,
                                                       queued=within)
    return _submit(session, game, seat, text or "", channel, user_id, within)


def _check_size(channel: str, text: str | None) -> None:
    if channel not in CHANNELS:
        raise ValueError(f"unknown channel {channel!r}")
    if len(text or "") > MAX_SUBMISSION:
        raise OrderRejected(f"a submission has at most {MAX_SUBMISSION} characters")


def _submit(session: Session, game: Game, seat: Seat, text: str, channel: str, user_id: int | None,
            within: bool = False) -> Receipt:
    """The order path once the game is locked: check, replace the seat's pending orders,
    commit; then the advance (its own transaction, or a worker's), or with `within` the
    advance first and one commit for both."""
    game_id, seat_id, seat_name = game.id, seat.id, seat.name
    assert seat_name is not None
    if game.status != Game.ACTIVE:
        raise Conflict("the game is over" if game.status == Game.FINISHED else "the game is not running")
    state = game_state(session, game)
    canonical = _check(state, seat_name, text)
    replaced = [row for row in game.pending_orders if row.seat == seat_name]
    rows = _stored(session, [PendingOrder(game_id=game_id, seat=seat_name, text=line, channel=channel,
                                          user_id=user_id, submitted_at=now()) for line in canonical], replaced)
    changed(session, game_id)  # "orders in" moved for every open page of the game
    if seat.last_error is not None:  # assigned only if it changes: an untouched seat needs no flush
        seat.last_error = None
    if channel != "bot":
        seat_acted(seat)  # a missed-deadline run ends; an abandoned seat is theirs again
    if within:
        # The advance reads the pending orders as loaded with the lock: these replace the seat's.
        set_committed_value(game, "pending_orders", [row for row in game.pending_orders if row not in replaced]
                            + rows)
        try:
            advance_within(session, game_id)  # committed with the order, before acknowledged
        except Exception:  # noqa: BLE001 - a bug in the rules or a bot must not cost the player the order
            log.exception("game %s: the advance with the order failed; the order goes alone", game_id)
            for row in rows:  # never written: out of the session, or a new row could take their ids
                if row in session:
                    session.expunge(row)
            session.rollback()
            return submit_orders(session, session.get_one(Seat, seat_id), text, channel=channel, user_id=user_id)
    else:
        session.commit()  # committed before acknowledged
        if request_advance(session, game_id):  # queued: sent now, after the commit, so the worker sees the order
            return Receipt(game_id, seat_name, canonical, list(canonical),
                           _message(canonical, canonical, queued=True), queued=True)
    # The advance took the rows it applied out of this session (and deleted them): no need to
    # ask the database.
    pending = [line for line, row in zip(canonical, rows, strict=True) if not inspect(row).detached]
    return Receipt(game_id, seat_name, canonical, pending, _message(canonical, pending))


def _stored(session: Session, rows: list[PendingOrder], replaced: list[PendingOrder]) -> list[PendingOrder]:
    """The rows inserted now, and the `replaced` ones deleted with them: Core statements (no unit
    of work at the commit), on PostgreSQL one for a single order (the usual submission).  The
    new rows go in the session as if loaded: the advance that reads them back finds these very
    objects."""
    writes = deleted(session, replaced)
    values = [{column: getattr(row, column) for column in _PENDING_COLUMNS} for row in rows]
    if len(values) == 1:
        ids = [together(session, _INSERT_ONE, values[0], writes).scalar_one()]
    else:
        execute(session, writes)
        ids = session.scalars(_INSERT_PENDING, values).all()
    for row, ident in zip(rows, ids, strict=True):
        row.id = ident
        make_transient_to_detached(row)
        session.add(row)
    return rows


_PENDING_COLUMNS = ("game_id", "seat", "text", "channel", "user_id", "submitted_at")
_INSERT_PENDING = insert(PendingOrder.__table__).returning(PendingOrder.__table__.c.id, sort_by_parameter_order=True)
_INSERT_ONE = insert(PendingOrder.__table__).values({column: bindparam(column) for column in _PENDING_COLUMNS}) \
    .returning(PendingOrder.__table__.c.id)


def _check(state: Any, seat: str, text: str) -> list[str]:
    """The canonical lines of `text` if the seat may give these orders now."""
    try:
        orders = state.parse(text)
        if not orders:
            raise OrderRejected("no orders found: write one order per line")
        trial = state.clone()
        if state.seats.index(seat) not in trial.waiting():
            trial.apply(seat, orders[0])  # raises the engine's precise "not your decision" error
        trial.submit(seat, orders)
    except ParseError as error:
        raise OrderRejected(str(error), expected=error.expected, line=error.line) from None
    except OrderError as error:
        raise OrderRejected(str(error)) from None
    lines = [state.order_text(order) for order in orders]
    if any(len(line) > ORDER_MAX for line in lines):
        raise OrderRejected(f"an order has at most {ORDER_MAX} characters")
    return lines


def _message(orders: list[str], pending: list[str], queued: bool = False) -> str:
    if queued:
        return (f"Accepted: {'; '.join(orders)}. The game applies it as soon as it gets to it: at once "
                "if it waits only for you, else once the others have decided or your turn comes. "
                "Until then you may replace it.")
    done = [line for line in orders if line not in pending]
    parts = []
    if done:
        parts.append(f"Applied: {'; '.join(done)}.")
    if pending:
        parts.append(f"Accepted, waiting: {'; '.join(pending)}. It is applied once the others have "
                     "decided (or when your turn comes); until then you may replace it.")
    return " ".join(parts)


@unit_of_work
def withdraw(session: Session, seat: Seat) -> int:
    """Withdraw the seat's pending orders; returns how many there were.  The seat owes the
    decision again: its deadline (and under a clock, its clock) runs again."""
    game = lock_game(session, seat.game_id)
    result = session.execute(delete(PendingOrder).where(PendingOrder.game_id == seat.game_id,
                                                        PendingOrder.seat == seat.name))
    changed(session, seat.game_id)
    if game.status == Game.ACTIVE:
        schedule(session, game, now(), game_state(session, game))
    session.commit()
    return result.rowcount or 0  # type: ignore[attr-defined]


# ---- what a reader sees -------------------------------------------------------------------

@dataclass
class GameView:
    """Everything a page or API answer about a running or finished game may show a reader."""

    game: Game
    seat: Seat | None  # the reader's seat, if any
    view: dict[str, Any]  # the engine's view for that seat (public view for everyone else)
    my_pending: list[str] = field(default_factory=list)
    submitted: list[str] = field(default_factory=list)  # waiting seats whose orders are in (and bots)
    owed: dict[str, list[str]] = field(default_factory=dict)  # seat -> kinds still owed, in seat order
    round: int = 0  # where the game stands (public): the state's round and phase
    phase: str = ""
    stamp: str = ""  # pbem/live.py's stamp of the moment the view is of


# A game's version and public press count with its pending orders in arrival order (one
# row, the orders NULL, if none).
_PENDING_AND_VERSION = (select(Game.version, public_press(bindparam("game_id")), PendingOrder.seat, PendingOrder.text)
                        .outerjoin(PendingOrder, PendingOrder.game_id == Game.id)
                        .where(Game.id == bindparam("game_id")).order_by(PendingOrder.id))


def game_view(session: Session, game: Game, user: User | None) -> GameView:
    """What `user` may see of `game` now.  The state and the pending orders are of one
    moment: if a worker advanced the game between reading one and the other (its version
    moved), both are read again, else the reader would be told they still owe a decision
    whose order was just applied."""
    for _ in range(VIEW_READS):
        state = game_state(session, game)
        # The pending orders, the version and the public press count in one statement, so
        # of one moment too (the stamp is of the very moment the view is).
        rows = session.execute(_PENDING_AND_VERSION, {"game_id": game.id}).all()
        pending = [(owner, text) for _, _, owner, text in rows if owner is not None]
        if rows and rows[0][0] == game.version:
            break
        session.refresh(game)
    seat = seat_of(game, user)
    seat_name = seat.name if seat is not None else None
    view = state.view(seat_name)
    waiting = {d["seat"] for d in view["decisions"]}
    # Bots decide the moment the others have: count them as in.
    ready = {owner for owner, _ in pending} | {s.name for s in game.seats if s.bot}
    owed: dict[str, list[str]] = {}
    for decision in view["decisions"]:
        kinds = owed.setdefault(decision["seat"], []) if decision["seat"] not in ready else []
        if decision["kind"] not in kinds:
            kinds.append(decision["kind"])
    return GameView(game, seat, view, stamp=stamp_of(game.version, len({owner for owner, _ in pending}), rows[0][1]),
                    my_pending=[text for owner, text in pending if owner == seat_name],
                    submitted=sorted(ready & waiting), owed=owed, round=state.round, phase=state.phase)


def finished_record(session: Session, game: Game) -> dict[str, Any]:
    """The game's record (engine format, with seed and order log) once it is finished."""
    if game.status != Game.FINISHED:
        raise Conflict("the record is published when the game is finished")
    return record(game, log_lines(session, game.id))


def replay_step(session: Session, game: Game, step: int) -> tuple[State, list[str]]:
    """A finished game after its first `step` orders (readers get its public view), and the
    whole order log (the record is public once the game is finished)."""
    full = finished_record(session, game)
    orders = full["orders"]
    if not 0 <= step <= len(orders):
        raise Invalid(f"step must be from 0 to {len(orders)}")
    return replay({**full, "orders": orders[:step]}), orders
