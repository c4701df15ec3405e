"""Development turns queued ahead, so an age of many turns needs no round trip per turn.

A player lists future development turns, one per line ("place 12", "place 3 move 3 to 4",
"place 5 eagle 6").  They are accepted whenever the game runs, whether or not it is the
seat's turn: parsed, and checked against the board (territories exist, a move goes to a
neighbour).  Whether a turn is legal is decided when its turn comes: `advance()` plays the
first queued turn when the seat owes a development turn of the age the queue is for; an
illegal one is dropped with the error shown and mailed, and the seat is asked normally for
that turn (the rest of the queue waits for the next).  Turns left when the age's
development phase ends are dropped.  A new queue replaces the old one.

The queue is for the current age while its cards are chosen or its development phase
runs, else for the next age.  Mail commands QUEUE and CANCEL call `list_queue` and
`cancel_queued`; orders under QUEUE go to `queue_turns`.
"""
from __future__ import annotations

from sqlalchemy import delete, select
from sqlalchemy.orm import Session

from engine.aztlan.cards import AGES
from engine.aztlan.orders import Turn
from engine.core import GameState, ParseError
from pbem.models import Game, QueuedTurn, Seat, User
from pbem.services.errors import Conflict, Invalid, NotFound, OrderRejected
from pbem.services.locking import lock_game, unit_of_work
from pbem.services.play import require_seat
from pbem.services.dispatch import request_advance
from pbem.services.takeover import seat_acted
from pbem.services.state import game_state

MAX_QUEUE = 20  # more than any seat's turns in one age (at most 10 pawns per age)


def _seat(session: Session, game_id: int, user: User, *, lock: bool = False) -> tuple[Game, Seat]:
    game = lock_game(session, game_id) if lock else session.get(Game, game_id)
    if game is None:
        raise NotFound(f"there is no game {game_id}")
    return game, require_seat(game, user)


def _target_age(state: GameState) -> int:
    age, phase = state.round, state.phase
    if phase in ("choosing", "development"):
        return int(age)
    if age < AGES:
        return int(age) + 1
    raise Conflict("the last age's development phase is over: there are no turns left to queue")


def _check(state: GameState, text: str) -> list[str]:
    """The canonical lines of the queued turns, checked against the board only."""
    try:
        orders = state.parse(text)
    except ParseError as error:
        raise OrderRejected(str(error), expected=error.expected, line=error.line) from None
    if not orders:
        raise OrderRejected("no turns found: one development turn per line, like 'place 12 move 12 to 13'")
    if len(orders) > MAX_QUEUE:
        raise OrderRejected(f"at most {MAX_QUEUE} queued turns")
    board = state.board  # type: ignore[attr-defined]
    lines = []
    for order in orders:
        text_line = state.order_text(order)
        if not isinstance(order, Turn):
            raise OrderRejected(f"'{text_line}' is not a development turn: only turns ('place ...') can be queued")
        if order.move is not None:
            start, end = (board.index_of[ident] for ident in order.move)
            if end not in board.adjacent[start]:
                raise OrderRejected(f"'{text_line}': {order.move[1]} is not adjacent to {order.move[0]}")
        lines.append(text_line)
    return lines


@unit_of_work
def queue_turns(session: Session, game_id: int, user: User, text: str, *, channel: str = "web") -> list[str]:
    """Replace the seat's queue with the turns in `text`; returns the queue as stored.  If
    the seat's turn is now, the first queued turn is played at once."""
    game, seat = _seat(session, game_id, user, lock=True)
    if game.status != Game.ACTIVE:
        raise Conflict("the game is not running")
    state = game_state(session, game)
    age = _target_age(state)
    lines = _check(state, text or "")
    session.execute(delete(QueuedTurn).where(QueuedTurn.game_id == game.id, QueuedTurn.seat == seat.name))
    session.add_all(QueuedTurn(game_id=game.id, seat=seat.name, round=age, text=line, channel=channel,
                               user_id=user.id) for line in lines)
    seat.queue_held_seq = None  # a new plan: it may start with this very turn
    seat.last_error = None
    seat_acted(seat)
    session.commit()
    request_advance(session, game.id)
    return list_queue(session, game_id, user)


def list_queue(session: Session, game_id: int, user: User) -> list[str]:
    """The seat's queued turns in the order they will be played (numbered from 1 in answers)."""
    game, seat = _seat(session, game_id, user)
    return list(session.scalars(select(QueuedTurn.text).where(QueuedTurn.game_id == game.id,
                                                              QueuedTurn.seat == seat.name)
                                .order_by(QueuedTurn.id)))


@unit_of_work
def cancel_queued(session: Session, game_id: int, user: User, which: int | None = None) -> list[str]:
    """Cancel queued turn number `which` (from 1), or all of them (None); returns what is left."""
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
