"""Carrying out an authenticated mail: its order lines and commands, each step once.

Orders go through `pbem.services.play.submit_orders`, the one order path: all order lines of
a mail are one submission, carried out entirely or not at all, before the commands, which run
in the order written (order lines after QUEUE are turns to queue).  A step that changes the
game or the account is marked in `inbound_mail.done` with its own transaction, so a mail
processed again (its process died, an operator released it) never carries it out twice.  The
first step that fails stops the rest; the reply (pbem/mail/replies.py) says what was done,
what failed and what was not processed.
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import Any, Callable

from sqlalchemy.orm import Session

from pbem.mail import commands as cmd
from pbem.mail import render, replies
from pbem.mail.extract import OrderTextError, order_lines
from pbem.mail.models import InboundMessage
from pbem.mail.picture import board_picture
from pbem.mail.replies import MailContext
from pbem.models import Game, Seat, User, now
from pbem.services import play, press, turn_queue, vacations
from pbem.services.errors import OrderRejected, ServiceError
from pbem.services.kinds import order_words
from pbem.services.locking import lock_game
from pbem.services.play import game_view
from pbem.services.resign import resign_seat
from pbem.services.state import game_state

INDENT = "    "


class _Stop(Exception):
    """A step failed: `lines` and everything after it were not carried out."""

    def __init__(self, line: str, message: str, expected: str = "", lines: list[str] | None = None):
        super().__init__(message)
        self.line, self.message, self.expected = line, message, expected
        self.lines = lines if lines is not None else [line]


@dataclass
class _Step:
    lines: list[str]
    run: Callable[[], str]
    changes: bool = True  # it changes the game or the account: carried out once per mail


# Commands that only read: run again whenever the mail is processed again.
_READ_ONLY = (cmd.Help, cmd.Status, cmd.Board, cmd.Hand, cmd.History)


def act(session: Session, c: MailContext) -> str:
    """Carry out the mail's commands and orders and queue the reply; the reason to record."""
    if c.press:
        return _press_reply(session, c)
    try:
        with session.no_autoflush:  # reads the game only: the mail's row goes in with the first step's write
            picked = cmd.OrderSorter(game_state(session, c.game).parse, order_words(c.game.kind)).pick(
                order_lines(c.mail.text))
    except OrderTextError as error:
        replies.reply(session, c, _error_text([], _Stop(error.line[:80], str(error), error.expected), [], c))
        return "text_error"
    if not picked.orders:
        seen = game_view(session, c.game, c.user) if c.game.status == Game.ACTIVE else None
        replies.reply(session, c, render.no_orders(c.game, seen, picked))
        return "empty"
    lines, c.ignored = picked.orders, render.ignored_text(picked)
    parsed = cmd.split_commands(lines)
    invalid = next((p for p in parsed if isinstance(p, cmd.Invalid)), None)
    if invalid is not None:
        stop = _Stop(invalid.line, f"'{invalid.line}' is not a valid command", invalid.expected)
        replies.reply(session, c, _error_text([], stop, lines, c))
        return "command_error"
    steps = _plan(session, c, parsed)
    done: list[str] = []
    for index, step in enumerate(steps):
        try:
            done.append(_once(session, c, index, step, last=index == len(steps) - 1) if step.changes
                        else step.run())
        except _Stop as stop:
            rest = stop.lines + [line for later in steps[index + 1:] for line in later.lines]
            replies.reply(session, c, _error_text(done, stop, rest, c))
            return "order_error" if not done else "partial"
        except ServiceError as error:
            session.rollback()
            stop = _Stop(step.lines[0], error.message, getattr(error, "expected", ""), step.lines)
            rest = stop.lines + [line for later in steps[index + 1:] for line in later.lines]
            replies.reply(session, c, _error_text(done, stop, rest, c))
            return "order_error" if not done else "partial"
    replies.reply(session, c, "\n\n".join(done))
    _mark_last(c)
    return "ok"


def _plan(session: Session, c: MailContext, parsed: list[cmd.Command]) -> list[_Step]:
    """Orders first (one submission), then the commands in the order written; order lines
    after QUEUE are turns to queue."""
    orders: list[str] = []
    steps: list[_Step] = []
    queue_step: list[str] | None = None
    for item in parsed:
        if isinstance(item, cmd.OrderLine):
            if queue_step is not None:
                queue_step.append(item.line)
            else:
                orders.append(item.line)
            continue
        if isinstance(item, cmd.Queue):
            queue_step = [item.line]
            turns = queue_step
            steps.append(_Step(turns, lambda turns=turns: _queue(session, c, turns)))
        else:
            steps.append(_Step([item.line], lambda item=item: _command(session, c, item),
                               changes=not isinstance(item, _READ_ONLY)))
    if orders:
        steps.insert(0, _Step(orders, lambda: _submit(session, c, orders)))
    return steps


def _once(session: Session, c: MailContext, index: int, step: _Step, *, last: bool = False) -> str:
    """Run a step that changes something at most once for this mail, even if the mail is
    processed again (the process died before its status was saved, or an operator released
    it after a later step failed): the step's mark in `inbound_mail.done` is dirty when the
    step runs, so it is committed in the step's own transaction or rolled back with it.  The
    `last` step's transaction goes on to the reply and the mail's final status (one commit
    for all three: a failure before it undoes the step with its mark); a step that commits
    itself (orders) took its empty mark along, and only the reply's text of it waits."""
    row = session.get(InboundMessage, c.row.id)
    assert row is not None
    marks = list(row.done or [])
    if index < len(marks) and marks[index] is not None:  # carried out by an earlier attempt
        return marks[index] or ("Carried out when this mail was first processed:\n"
                                + "\n".join(INDENT + line for line in step.lines))
    marks = (marks + [None] * index)[:index]
    row.done = marks + [""]
    try:
        text = step.run()
    except BaseException:
        session.rollback()  # the mark goes with whatever the step left undone
        raise
    # The row as it is (the gateway's commits keep it loaded): the mark needs no fresh read.
    if last:  # the text goes in after the reply, with the final status: one UPDATE (`_mark_last`)
        c.last_mark = marks + [text]
        return text
    c.row.done = marks + [text]  # the reply section, for a later attempt's reply
    session.commit()
    return text


def _mark_last(c: MailContext) -> None:
    if c.last_mark is not None:
        c.row.done = c.last_mark


def _view(session: Session, c: MailContext) -> dict[str, Any] | None:
    game = session.get(Game, c.game.id, populate_existing=True)
    if game is None or game.status not in (Game.ACTIVE, Game.FINISHED):
        return None
    return game_state(session, game).view(c.seat.name)


def _submit(session: Session, c: MailContext, lines: list[str]) -> str:
    seat = session.get(Seat, c.seat.id)
    assert seat is not None
    try:
        # The game as `senders.authenticate` locked it while that transaction goes on (orders
        # are the mail's first step); after a commit or a rollback it is locked again.
        locked = c.game if c.locked_in is not None and session.get_transaction() is c.locked_in else None
        # A worker runs this already: the advance goes with the order, in its transaction.
        receipt = play.submit_orders(session, seat, "\n".join(lines), channel="email", user_id=c.user.id,
                                     locked=locked, within=True)
    except OrderRejected as error:
        if error.line:
            message = str(error).split(f"'{error.line}': ", 1)[-1]
            raise _Stop(error.line, message, error.expected, lines) from None
        raise _Stop(lines[0], error.message, "", lines) from None
    return _accepted(session, c, receipt.orders, receipt.pending)


def _accepted(session: Session, c: MailContext, orders: list[str], pending: list[str]) -> str:
    game = session.get(Game, c.game.id)  # the locked game, as the submission left it
    assert game is not None
    seen = game_view(session, game, c.user)
    text = (f"Accepted for {render._who(game, c.seat.name)} in game {game.id} "
            f"({render.moment(game, seen)}):\n" + "\n".join(INDENT + o for o in orders))
    if pending:
        text += ("\n\nWaiting to be applied (until then you may replace them by sending new orders):\n"
                 + "\n".join(INDENT + o for o in pending))
    if game.status == Game.FINISHED:
        text += "\n\nThe game is over."
    else:
        text += "\n\n" + render.waiting_for(seen)
    return text


def _queue(session: Session, c: MailContext, lines: list[str]) -> str:
    turns = lines[1:]
    if turns:
        queued = turn_queue.queue_turns(session, c.game.id, c.user, "\n".join(turns), channel="email")
    else:
        queued = turn_queue.list_queue(session, c.game.id, c.user)
    if not queued:
        return "You have no queued turns."
    return "Your queued turns:\n" + "\n".join(f"{INDENT}{n}. {t}" for n, t in enumerate(queued, start=1))


def _command(session: Session, c: MailContext, item: cmd.Command) -> str:
    game = session.get(Game, c.game.id, populate_existing=True)
    assert game is not None
    if isinstance(item, cmd.Help):
        return render.help_text(game, _view(session, c))
    if isinstance(item, cmd.Status):
        return render.status(game_view(session, game, c.user), c.user)
    if isinstance(item, (cmd.Board, cmd.Hand, cmd.History)):
        state = game_state(session, game)
        view = state.view(c.seat.name)
        if isinstance(item, cmd.Board):
            if not c.parts and (part := board_picture(state, view)) is not None:
                c.parts.append(part)
            return render.board(game, state, view)
        if isinstance(item, cmd.Hand):
            return render.hand(game, view)
        return render.history(game, state, view)
    if isinstance(item, cmd.Cancel):
        left = turn_queue.cancel_queued(session, game.id, c.user, item.number)
        what = "All queued turns cancelled." if item.number is None else f"Queued turn {item.number} cancelled."
        return what + (" Still queued: " + "; ".join(left) + "." if left else "")
    if isinstance(item, cmd.Vacation):
        return _vacation(session, c, item)
    if isinstance(item, cmd.Press):
        return _press(session, c, item.text, item.to)
    if isinstance(item, cmd.Resign):
        if not item.confirmed:
            return ("RESIGN: to give up your seat for the rest of the game (a bot plays it), send "
                    "RESIGN CONFIRM. This cannot be undone.")
        seat = resign_seat(session, game.id, session.get(User, c.user.id), now())
        return (f"You resigned from {game.title}: the {seat.bot} bot plays {seat.name} from now on. "
                "This address no longer takes orders for it.")
    raise AssertionError(f"unhandled command {item!r}")


def _press(session: Session, c: MailContext, text: str, to: str | None) -> str:
    """Send press for the mail's seat (a PRESS line, or a reply to a press mail)."""
    game = lock_game(session, c.game.id)
    seat = session.get(Seat, c.seat.id)
    assert seat is not None
    message = press.post_for_seat(session, game, seat, text, to=to, channel="email")
    audience = "the whole table" if message.to_seat is None else f"{message.to_seat} (privately)"
    return f"Press sent to {audience} in {game.title}:\n" + "\n".join(INDENT + line for line in message.text.split("\n"))


def _press_reply(session: Session, c: MailContext) -> str:
    """A mail to a press thread's address: all the text the player wrote is one message to
    the thread's audience, never orders or commands.  Carried out once per mail."""
    step = _Step(["(your message)"], lambda: _press(session, c, c.mail.text, c.audience))
    try:
        text = _once(session, c, 0, step, last=True)
    except ServiceError as error:
        session.rollback()
        replies.reply(session, c, f"Your message was not sent: {error.message}")
        return "press_error"
    replies.reply(session, c, text)
    _mark_last(c)
    return "press"


def _vacation(session: Session, c: MailContext, item: cmd.Vacation) -> str:
    user = session.get(User, c.user.id)
    moment = now()
    if item.start is None:
        ended = vacations.end_vacations(session, user, moment)
        return "VACATION OFF: " + ("welcome back." if ended else "you had no vacation declared.")
    assert item.end is not None
    vacations.declare_vacation_dates(session, user, item.start, item.end, moment)
    return f"Vacation noted: from {_day(item.start)} to {_day(item.end)} (both included, in your time zone)."


def _day(day: date) -> str:
    return day.isoformat()


def _error_text(done: list[str], stop: _Stop, rest: list[str], c: MailContext) -> str:
    parts = list(done)
    number = _line_number(c, stop.line)
    where = f"line {number}" if number else "a line"
    head = "Nothing was carried out" if not done else "The rest was not carried out"
    body = f"{head}: {where} could not be carried out.\n\n{INDENT}> {stop.line}\n"
    if stop.expected and "expected" not in stop.message:
        body += f"{INDENT}{stop.message}; expected {stop.expected}\n"
    else:
        body += f"{INDENT}{stop.message}\n"
    parts.append(body.rstrip())
    if rest:
        parts.append("Not processed:\n" + "\n".join(INDENT + line for line in rest))
    parts.append("Send HELP for the commands and the orders expected from you now.")
    return "\n\n".join(parts)


def _line_number(c: MailContext, line: str) -> int | None:
    try:
        lines = order_lines(c.mail.text)
    except OrderTextError:
        return None
    return next((n for n, text in enumerate(lines, start=1) if text.strip() == line.strip()), None)
