"""What the gateway answers, and when it stays silent.

- `reply`: the one answer to an authenticated mail (what was carried out, or why not), to
  its From, with the seat's reply address as Reply-To and the BOARD picture if asked for;
  keyed by the inbound message, so processing it again never answers twice.
- Short answers (`short_answer`): to mail that could not act (an unknown sender, a replaced
  address) and the notice that a sender's answers stop for the hour, at most one on each topic
  per address and day.
- `held_notice`: tells a seat's player, at their own address, that a mail in their name was
  held for an operator.
- The reply budget (`budget_spent`): a sender whose mails keep carrying nothing out (an
  autoresponder answering our answers) gets no answer beyond `replies_per_hour` of them, and
  nobody more than `answers_per_hour` answers (both in the mail settings).

Mail that must never be answered (auto-replies, bounces, lists, loops) and replays never get here.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

from sqlalchemy import Select, bindparam, func, or_, select
from sqlalchemy.orm import Session

from pbem.mail.inbound import InboundMail
from pbem.mail.models import InboundMessage
from pbem.mail.picture import reply_html
from pbem.models import Game, OutboxMessage, Seat, User, now
from pbem.outbox.messages import Mail, MailPart, send_mail
from pbem.outbox.press_tokens import press_reply_address
from pbem.outbox.seat_tokens import seat_reply_address
from pbem.outbox.settings import MailSettings
from pbem.services import links

UNKNOWN_REPLY_EVERY = timedelta(days=1)  # also the limit of the other short answers and notices
REPLY_TOPIC, UNKNOWN_TOPIC = "reply", "mail-unknown"
REPLACED_TOPIC, HELD_TOPIC, QUIET_TOPIC = "mail-replaced", "mail-held", "mail-quiet"
# Reasons of authenticated mail that carried nothing out: what the reply budget counts.
FRUITLESS = ("empty", "text_error", "command_error", "order_error", "press_error")


@dataclass
class MailContext:
    """An authenticated mail being carried out, and what its reply gathers meanwhile."""

    row: InboundMessage
    mail: InboundMail
    settings: MailSettings
    game: Game
    seat: Seat
    user: User
    parts: list[MailPart] = field(default_factory=list)  # pictures for the reply (BOARD)
    ignored: str = ""  # the lines read but not taken as orders, quoted at the end of the reply
    quiet: bool = False  # the sender's reply budget is spent: carry out, do not answer
    press: bool = False  # sent to a press thread's address: its text is a message, never orders
    audience: str | None = None  # that thread's seat (None: the whole table)
    locked_in: Any = None  # the transaction in which `game` was locked with its pending orders
    last_mark: list[str | None] | None = None  # `inbound_mail.done` once the last step's text is in
    outgoing: list[Mail] = field(default_factory=list)  # the plain reply, for store.finish to send


def reply(session: Session, c: MailContext, text: str) -> None:
    if c.quiet:
        return
    game = session.get(Game, c.game.id)
    seat = session.get(Seat, c.seat.id)
    reply_to = None
    if seat is not None and seat.user_id == c.user.id and seat.name:
        reply_to = press_reply_address(session, seat.game_id, seat.name, c.audience, c.settings) if c.press \
            else seat_reply_address(session, seat, c.settings)
    subject = _re(c.mail.subject or (f"{game.title} (game {game.id})" if game else "your orders"))
    if c.ignored:
        text = f"{text.rstrip()}\n\n{c.ignored}"
    body, key = text.rstrip() + "\n", f"inbound:{c.row.id}"
    if not c.parts:
        # Plain text: held for store.finish, which writes it with the message's final status in
        # one statement.  No look-up of its key first: the reply is committed only with a final
        # status, and a message with one is never processed again (the key's unique index
        # would refuse a second reply all the same).
        c.outgoing.append(Mail(c.mail.from_address, subject, body, REPLY_TOPIC, reply_to, key, _reply_headers(c.mail)))
        return
    send_mail(session, c.mail.from_address, subject, body, topic=REPLY_TOPIC, reply_to=reply_to,
              headers=_reply_headers(c.mail), key=key, html=reply_html(text.rstrip(), c.parts), parts=c.parts)
    # Committed by store.finish, together with the message's final status.


# ---- short answers --------------------------------------------------------------------------------

def short_answer(session: Session, mail: InboundMail, topic: str, text: str) -> None:
    """A reply on `topic` to the sender, at most one per address and day."""
    address = mail.from_address.lower()  # as accounts compare them: Ana@x and ana@x share the day's answer
    if not _sent_lately(session, address, topic):
        send_mail(session, address, _re(mail.subject or "your mail to pbem"), text, topic=topic,
                  headers=_reply_headers(mail))


def replaced_address(session: Session, mail: InboundMail) -> None:
    short_answer(session, mail, REPLACED_TOPIC, "This reply address was replaced; use the one in "
                 "your latest mail from pbem.\n\nNothing in your mail was carried out.\n")


def unknown_sender(session: Session, mail: InboundMail, settings: MailSettings) -> None:
    """At most one short answer per address and day; it says nothing about any game."""
    short_answer(session, mail, UNKNOWN_TOPIC,
                 "Your mail could not be taken as orders: it was not sent to a seat's reply address from one of "
                 "that player's confirmed addresses.\n\nReply to a turn mail from pbem from the address your "
                 f"account uses, or play on {settings.base_url}/ (confirm more addresses on your profile).\n\n"
                 "You will not get this answer again today.\n")


def held_notice(session: Session, game: Game, user: User, settings: MailSettings) -> None:
    """Tell the seat's player (at their own primary address, not the From, which may be
    forged) that a mail in their name was held; never what it said.  One a day at most."""
    address = user.primary_address
    if address is None or _sent_lately(session, address, HELD_TOPIC):
        return
    send_mail(session, address, f"A mail in your name was held ({game.title}, game {game.id})",
              f"A mail sent in your name to your reply address for {game.title} (game {game.id}) failed "
              "the sender checks (DMARC) of our mail server, so it was held and nothing in it was "
              "carried out. A site operator will look at it and either carry it out or discard it.\n\n"
              "If you did not send it, someone may know your reply address: you can replace it on the "
              f"game page, {links.game(settings.base_url, game.id)}\n\n"
              "You will get at most one such notice a day.\n", topic=HELD_TOPIC)


def _sent_lately(session: Session, address: str, topic: str) -> bool:
    since = now() - UNKNOWN_REPLY_EVERY
    return session.scalar(select(OutboxMessage.id).where(OutboxMessage.to_address == address,
                                                         OutboxMessage.topic == topic,
                                                         OutboxMessage.created_at > since).limit(1)) is not None


def _re(subject: str) -> str:
    subject = " ".join(subject.split())
    return subject if subject.lower().startswith("re:") else f"Re: {subject}"


def _reply_headers(mail: InboundMail) -> dict[str, str]:
    headers = {"Auto-Submitted": "auto-replied"}
    if not mail.message_id.endswith("@content-id.invalid>"):
        headers["In-Reply-To"] = headers["References"] = mail.message_id
    return headers


# ---- the reply budget -----------------------------------------------------------------------------

def budget_spent(counts: tuple[Any, ...], settings: MailSettings) -> bool:
    """Whether the sender had as many answers in the hour before this mail as the budget
    allows; `counts` as `answered_lately` counts them."""
    fruitless, answered = (int(count or 0) for count in counts)
    return fruitless >= settings.replies_per_hour or answered >= settings.answers_per_hour


def quiet_notice(session: Session, mail: InboundMail, settings: MailSettings) -> None:
    """Once a day: why this sender's mails are carried out but not answered."""
    short_answer(session, mail, QUIET_TOPIC, _quiet_text(settings))


def answered_lately(sender: str, row: InboundMessage) -> tuple[Select[Any], dict[str, Any]]:
    """How many mails from `sender` in the hour before this one were answered, as one row:
    of those whose reason starts with one of FRUITLESS (they carried nothing out, which is
    what an autoresponder that sets no auto-reply header sends back to each of our answers),
    and of all (STATUS, BOARD and HELP are answered too, and BOARD draws a picture).  The
    statement and its parameters: the gateway reads it with its other checks (`store.admission`)."""
    return _ANSWERED_LATELY, {"sender": sender, "inbound_id": row.id,
                              "hour_before": row.received_at - timedelta(hours=1)}


_ANSWERED_LATELY = select(
    func.count(InboundMessage.id).filter(
        or_(*(InboundMessage.reason.startswith(reason, autoescape=True) for reason in FRUITLESS))),
    func.count(InboundMessage.id)).where(
    InboundMessage.from_address == bindparam("sender"), InboundMessage.id != bindparam("inbound_id"),
    InboundMessage.status == InboundMessage.PROCESSED, InboundMessage.reason.not_like("%; unanswered"),
    InboundMessage.received_at > bindparam("hour_before"))


def _quiet_text(settings: MailSettings) -> str:
    return (f"pbem answers at most {settings.replies_per_hour} mails an hour from one address that carry "
            f"nothing out (an error, or no orders found), and {settings.answers_per_hour} in all; yours sent "
            "more. Until the hour is over your "
            "mails are still read and their orders carried out, but not answered; see the game page on "
            f"{settings.base_url}/ for where your games stand.\n\n"
            "If an automatic answer of yours (a vacation or ticket system) replies to our mails, please "
            "turn it off for pbem.\n\nYou will not get this notice again today.\n")
