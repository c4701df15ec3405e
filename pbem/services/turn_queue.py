"""Orders queued ahead, so a round of many turns needs no round trip per turn.

A game's presentation may name one kind of decision whose orders a seat can queue, one
per line (`Presentation.queued_kind`).  A queue is accepted whenever the game runs, whether
or not it is the seat's turn: parsed, and checked as the presentation checks queued orders
(`check_queued`, against public facts such as the board).
Whether an order is legal is decided when its turn comes: `advance()` plays the first
queued order when the seat owes a decision of that kind in the round the queue is for
(`queue_round`); an illegal one is dropped with the error shown and mailed, and the seat is
asked normally for that turn (the rest of the queue waits for the next).  Orders left when
the game moves past that round's turns are dropped.  A new queue replaces the old one.  A
game with no queued kind refuses queues.

Mail commands QUEUE and CANCEL call `list_queue` and `cancel_queued`; orders under QUEUE go
to `queue_turns`.
"""
from __future__ import annotations

from sqlalchemy import delete, select
from sqlalchemy.orm import Session

from engine import get_game
from engine.core import DecisionKind, GameState, OrderError, ParseError
from pbem.games import presentation
from pbem.models import Game, QueuedTurn, Seat, User
from pbem.services.errors import Conflict, Invalid, NotFound, OrderRejected
from pbem.services.kinds import decision_kinds
from pbem.services.locking import lock_game, unit_of_work
from pbem.services.play import require_seat
from pbem.services.dispatch import request_advance
from pbem.services.takeover import seat_acted
from pbem.services.state import game_state

MAX_QUEUE = 20  # more than any seat's turns in one round of the games so far


def _seat(session: Session, game_id: int, user: User, *, lock: bool = False) -> tuple[Game, Seat]:
    game = lock_game(session, game_id) if lock else session.get(Game, game_id)
    if game is None:
        raise NotFound(f"there is no game {game_id}")
    seat = require_seat(game, user)
    queued_kind(game)
    return game, seat


def queued_kind(game: Game) -> DecisionKind:
    """The kind of decision a seat of `game` may queue ahead; Invalid for a game without one."""
    name = presentation(game.kind).queued_kind
    if name is None:
        raise Invalid(f"{get_game(game.kind).title} takes no orders queued ahead: "
                      "send each order when the game asks for it")
    return decision_kinds(game.kind)[name]


def _target_round(state: GameState) -> int:
    try:
        return presentation(state.game).queue_round(state)
    except OrderError as error:
        raise Conflict(str(error)) from None


def _check(state: GameState, kind: DecisionKind, text: str) -> list[str]:
    """The canonical lines of the queued orders, checked as the presentation checks them."""
    try:
        orders = state.parse(text)
    except ParseError as error:
        raise OrderRejected(str(error), expected=error.expected, line=error.line) from None
    if not orders:
        raise OrderRejected(f"no turns found: one {kind.title} per line, like '{kind.syntax}'")
    if len(orders) > MAX_QUEUE:
        raise OrderRejected(f"at most {MAX_QUEUE} queued turns")
    shown = presentation(state.game)
    for order in orders:
        try:
            shown.check_queued(state, order)
        except OrderError as error:
            raise OrderRejected(str(error)) from None
    return [state.order_text(order) for order in orders]


@unit_of_work
def queue_turns(session: Session, game_id: int, user: User, text: str, *, channel: str = "web") -> list[str]:
    """Replace the seat's queue with the orders in `text`; returns the queue as stored.  If
    the seat's turn is now, the first queued order is played at once."""
    game, seat = _seat(session, game_id, user, lock=True)
    if game.status != Game.ACTIVE:
        raise Conflict("the game is not running")
    state = game_state(session, game)
    target = _target_round(state)
    lines = _check(state, queued_kind(game), text or "")
    session.execute(delete(QueuedTurn).where(QueuedTurn.game_id == game.id, QueuedTurn.seat == seat.name))
    session.add_all(QueuedTurn(game_id=game.id, seat=seat.name, round=target, text=line, channel=channel,
                               user_id=user.id) for line in lines)
    seat.queue_held_seq = None  # a new plan: it may start with this very turn
    seat.last_error = None
    seat_acted(seat)
    session.commit()
    request_advance(session, game.id)
    return list_queue(session, game_id, user)


def list_queue(session: Session, game_id: int, user: User) -> list[str]:
    """The seat's queued orders in the order they will be played (numbered from 1 in answers)."""
    game, seat = _seat(session, game_id, user)
    return list(session.scalars(select(QueuedTurn.text).where(QueuedTurn.game_id == game.id,
                                                              QueuedTurn.seat == seat.name)
                                .order_by(QueuedTurn.id)))


@unit_of_work
def cancel_queued(session: Session, game_id: int, user: User, which: int | None = None) -> list[str]:
    """Cancel queued order number `which` (from 1), or all of them (None); returns what is left."""
    game, seat = _seat(session, game_id, user, lock=True)
    rows = list(session.scalars(select(QueuedTurn).where(QueuedTurn.game_id == game.id,
                                                         QueuedTurn.seat == seat.name).order_by(QueuedTurn.id)))
    if which is None:
        doomed = rows
    elif isinstance(which, bool) or not isinstance(which, int) or not 1 <= which <= len(rows):
        raise Invalid(f"there is no queued turn {which}; you have {len(rows)}" if rows else
                      "you have no queued turns")
    else:
        doomed = [rows[which - 1]]
    for row in doomed:
        session.delete(row)
    session.commit()
    return list_queue(session, game_id, user)
