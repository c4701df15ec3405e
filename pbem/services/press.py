"""Press: messages between the seats of a running game, to the whole table or privately to
one seat, by web, API and mail (docs/service.md, "Press").

- The game's rule, chosen at creation (pbem.models.PRESS_RULES): "none", "public" (to the whole table only)
  or "all" (also private).  The host may switch press off (and on again) at any time.
- Who reads what (`readable`): a public message, everyone who may see the game; a private
  one, only its two seats (whoever plays them now).  A person who muted a seat reads none
  of its messages and is mailed none.  Press is never part of the record.
- Mail (`_mail`): each recipient by their `notify_press`, with a Reply-To whose token
  names the thread (pbem/outbox/press_tokens.py), so a reply goes to the same audience.
- Limits: `MAX_TEXT` characters a message, `per_hour()` messages a seat and hour, on every
  channel (the web and API have a per-minute limit of their own besides).
- Reports go to the site operators' list (`open_reports`), who dismiss them or hide the
  message from everyone.
"""
from __future__ import annotations

import os
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from flask import current_app, has_app_context
from sqlalchemy import func, or_, select
from sqlalchemy.orm import Session

from pbem import live
from pbem.models import PRESS_MAX, PRESS_RULES, REPORT_REASON_MAX, Game, PressMessage, PressMute, PressReport, Seat, User, now
from pbem.outbox.messages import send_mail
from pbem.outbox.press_tokens import press_reply_address
from pbem.services import links
from pbem.services.errors import Conflict, Forbidden, Invalid, NotFound, ServiceError
from pbem.services.events import log_event
from pbem.services.locking import lock_game, unit_of_work
from pbem.services.play import require_seat, seat_of
from pbem.services.state import game_state
from pbem.text import clean_message, clean_text

NONE, PUBLIC, ALL = PRESS_RULES
RULE_TITLES = {ALL: "public and private messages", PUBLIC: "public messages only (to the whole table)",
               NONE: "no press"}  # in the order the new-game form offers them
MAX_TEXT = PRESS_MAX
PER_HOUR = 30
TOPIC = "press"


class PressLimited(ServiceError):
    """The seat sent as many messages in the last hour as the limit allows."""

    status, code = 429, "rate-limited"


def per_hour() -> int:
    """Messages a seat may send in an hour, on all channels together."""
    if has_app_context():
        return int(current_app.config.get("PBEM_PRESS_PER_HOUR", PER_HOUR))
    return int(os.environ.get("PBEM_PRESS_PER_HOUR", PER_HOUR))


@dataclass(frozen=True)
class PressState:
    """What a reader is told about a game's press besides the messages."""

    rule: str
    off: bool
    can_send: bool  # the reader plays a seat and press is open now
    private: bool  # private messages are allowed
    why_not: str  # why the reader cannot send, if they cannot


def status_of(game: Game, user: User | None) -> PressState:
    closed = closed_reason(game)
    seat = seat_of(game, user)
    why = closed or ("" if seat is not None and seat.name else "only the game's players send press")
    return PressState(game.press_rule, game.press_off, not why, game.press_rule == ALL, why)


def closed_reason(game: Game) -> str:
    """Why nobody may send press in `game` now ("" if they may)."""
    if game.press_rule == NONE:
        return "this game has no press (chosen when it was created)"
    if game.press_off:
        return "the host switched press off in this game"
    if game.status != Game.ACTIVE:
        return "press is open while the game runs"
    return ""


# ---- sending --------------------------------------------------------------------------------------

@unit_of_work
def post(session: Session, game_id: int, user: User, text: str, *, to: str | None = None,
         channel: str) -> PressMessage:
    """`user`'s seat says `text` to the whole table (`to` None) or to the seat named `to`."""
    game = lock_game(session, game_id)
    seat = require_seat(game, user)
    return post_for_seat(session, game, seat, text, to=to, channel=channel)


def post_for_seat(session: Session, game: Game, seat: Seat, text: str, *, to: str | None,
                  channel: str) -> PressMessage:
    """The same for a seat already checked (the mail gateway: its token); the game is locked."""
    closed = closed_reason(game)
    if closed:
        raise Conflict(f"No press sent: {closed}.")
    if to is not None:
        to = check_recipient(game, seat, to)
    body = clean_message(text)
    if not body:
        raise Invalid("the message is empty")
    if len(body) > MAX_TEXT:
        raise Invalid(f"a message has at most {MAX_TEXT} characters (this one has {len(body)})")
    since = now() - timedelta(hours=1)
    sent = session.scalar(select(func.count(PressMessage.id)).where(
        PressMessage.game_id == game.id, PressMessage.seat == seat.name, PressMessage.created_at > since))
    if (sent or 0) >= per_hour():
        raise PressLimited(f"No press sent: {seat.name} sent {sent} messages in the last hour, the most "
                           f"allowed; try again later.")
    message = PressMessage(game_id=game.id, seat=seat.name, user_id=seat.user_id, to_seat=to, text=body,
                           channel=channel, round=game_state(session, game).round)
    session.add(message)
    session.flush()
    _mail(session, game, seat, message)
    live.changed(session, game.id)  # open pages show it once committed
    session.commit()
    return message


def check_recipient(game: Game, seat: Seat, to: str) -> str:
    """The seat a private message goes to, by its name (any case); a clear error otherwise."""
    if game.press_rule != ALL:
        raise Conflict("No press sent: this game allows public press only; send it to the whole table.")
    names = {s.name.lower(): s.name for s in game.seats if s.name}
    name = names.get(str(to).strip().lower())
    if name is None:
        known = ", ".join(n for n in names.values() if n != seat.name)
        raise Invalid(f"no seat {clean_text(to, 20)!r} in this game; the others are: {known}")
    if name == seat.name:
        raise Invalid("a private message goes to another seat, not your own")
    return name


def _mail(session: Session, game: Game, author: Seat, message: PressMessage) -> None:
    """Each recipient who wants press mail (and did not mute the author) gets one, with a
    Reply-To that answers in the same thread: the table, or the author alone."""
    recipients = [s for s in game.seats if s.name and s.name != author.name and s.user is not None
                  and (message.to_seat is None or s.name == message.to_seat)]
    muted_by = set(session.scalars(select(PressMute.user_id).where(PressMute.game_id == game.id,
                                                                   PressMute.seat == author.name)))
    url = links.game(links.base_url(), game.id)
    who = f"{author.label} ({author.name})"
    for seat in recipients:
        user = seat.user
        address = user.primary_address if user is not None else None
        if user is None or address is None or not user.notify_press or user.id in muted_by:
            continue
        audience = "to the whole table" if message.public else "privately to you"
        answer = ("Reply to this mail to answer the whole table" if message.public
                  else f"Reply to this mail to answer {author.name} privately")
        body = (f"{who} wrote {audience} in {game.title} (game {game.id}):\n\n{message.text}\n\n"
                f"{answer}: your reply is sent as press, never read as orders.\n"
                f"The game's press: {url}#press\n")
        send_mail(session, address, f"Press from {author.name} in {game.title} (game {game.id})"
                  + ("" if message.public else " (private)"), body, topic=TOPIC,
                  reply_to=press_reply_address(session, game.id, seat.name,
                                               None if message.public else author.name),
                  key=f"press:{message.id}:{seat.name}")


# ---- reading --------------------------------------------------------------------------------------

def readable(session: Session, game: Game, user: User | None) -> list[PressMessage]:
    """The messages `user` may read, oldest first: public ones, and private ones to or from
    the seat they play; none of a seat they muted, none an operator hid."""
    seat = seat_of(game, user)
    query = select(PressMessage).where(PressMessage.game_id == game.id, PressMessage.hidden_at.is_(None))
    if seat is not None and seat.name:
        query = query.where(or_(PressMessage.to_seat.is_(None), PressMessage.to_seat == seat.name,
                                PressMessage.seat == seat.name))
    else:
        query = query.where(PressMessage.to_seat.is_(None))
    if user is not None:
        query = query.where(PressMessage.seat.not_in(muted(session, game.id, user)))
    return list(session.scalars(query.order_by(PressMessage.id)))


def as_json(message: PressMessage, names: dict[str, str]) -> dict[str, Any]:
    """A message as the API answers it (`names`: seat -> its player's name)."""
    return {"id": message.id, "seat": message.seat, "author": names.get(message.seat, message.seat),
            "to": message.to_seat, "text": message.text, "round": message.round, "created_at": message.created_at}


def muted(session: Session, game_id: int, user: User) -> list[str]:
    return list(session.scalars(select(PressMute.seat).where(PressMute.game_id == game_id,
                                                             PressMute.user_id == user.id).order_by(PressMute.seat)))


# ---- muting and reporting -------------------------------------------------------------------------

@unit_of_work
def set_muted(session: Session, game_id: int, user: User, seat_name: str, mute: bool) -> list[str]:
    """Mute (or unmute) a seat's press for `user` in a game; the seats they mute now."""
    game = session.get(Game, game_id)
    if game is None:
        raise NotFound(f"there is no game {game_id}")
    names = {s.name.lower(): s.name for s in game.seats if s.name}
    name = names.get(str(seat_name).strip().lower())
    if name is None:
        raise Invalid(f"no seat {clean_text(seat_name, 20)!r} in this game")
    mine = seat_of(game, user)
    if mine is not None and mine.name == name:
        raise Invalid("you cannot mute your own seat")
    row = session.scalar(select(PressMute).where(PressMute.game_id == game.id, PressMute.user_id == user.id,
                                                 PressMute.seat == name))
    if mute and row is None:
        session.add(PressMute(game_id=game.id, user_id=user.id, seat=name))
    elif not mute and row is not None:
        session.delete(row)
    session.commit()
    return muted(session, game.id, user)


@unit_of_work
def report(session: Session, game_id: int, message_id: int, user: User, reason: str) -> PressReport:
    """Report a message `user` may read to the site operators (once per person and message)."""
    game = session.get(Game, game_id)
    message = session.get(PressMessage, message_id)
    if game is None or message is None or message.game_id != game.id \
            or message not in readable(session, game, user):
        raise NotFound("there is no such message you can read")
    text = clean_text(reason, REPORT_REASON_MAX)
    if not text:
        raise Invalid("say in a few words what is wrong with the message")
    row = session.scalar(select(PressReport).where(PressReport.message_id == message.id,
                                                   PressReport.user_id == user.id))
    if row is not None:
        raise Conflict("you reported this message already; the site operators will look at it")
    row = PressReport(message_id=message.id, user_id=user.id, reason=text)
    session.add(row)
    session.commit()
    return row


def open_reports(session: Session) -> list[PressReport]:
    return list(session.scalars(select(PressReport).where(PressReport.resolved_at.is_(None))
                                .order_by(PressReport.id)))


@unit_of_work
def resolve_report(session: Session, report_id: int, operator: str, *, hide: bool) -> PressReport:
    """An operator dismisses a report, or hides its message from everyone (every open report
    of that message is resolved with it)."""
    row = session.get(PressReport, report_id)
    if row is None:
        raise NotFound(f"there is no press report {report_id}")
    if row.resolved_at is not None:
        raise Conflict(f"press report {report_id} was resolved already: {row.resolution}")
    moment = now()
    resolution = clean_text(f"{'message hidden' if hide else 'dismissed'} by {operator}", REPORT_REASON_MAX)
    rows = [row]
    if hide:
        row.message.hidden_at = moment
        live.changed(session, row.message.game_id)
        rows = list(session.scalars(select(PressReport).where(PressReport.message_id == row.message_id,
                                                              PressReport.resolved_at.is_(None))))
    for each in rows:
        each.resolved_at, each.resolution = moment, resolution
    session.commit()
    return row


# ---- the host's switch ----------------------------------------------------------------------------

@unit_of_work
def switch(session: Session, game_id: int, user: User, off: bool) -> Game:
    """The host switches press off (or on again); the game's log says so."""
    game = lock_game(session, game_id)
    if game.created_by != user.id:
        raise Forbidden("only the host (who created the game) can switch press off or on")
    if game.press_rule == NONE:
        raise Conflict("this game has no press to switch (chosen when it was created)")
    if game.press_off != off:
        game.press_off = off
        log_event(session, game, "press", "The host switched press " + ("off." if off else "on again."), now(),
                  user_id=user.id)
        live.changed(session, game.id)
    session.commit()
    return game
