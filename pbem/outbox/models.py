"""The tables of outgoing mail and reply tokens: a seat's reply token, delivery bookkeeping
of an outbox row (migration 0003), and the files sent with it.

Kept apart from pbem/models.py; whatever needs the full metadata (the app factory, Alembic's
env.py) imports this module too.
"""
from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, ForeignKey, Index, LargeBinary, String, Text
from sqlalchemy.orm import Mapped, mapped_column, relationship

from pbem.extensions import db
from pbem.models import EMAIL_MAX, OutboxMessage, UTCDateTime, now

TOKEN_MAX = 32  # tokens are 26 characters (pbem.outbox.tokens)
PART_NAME_MAX = 120


class SeatToken(db.Model):
    """The credential in a seat's reply address `orders+<token>@<domain>`.  One live token per
    seat; replacing it (a leaked address) revokes the old one."""

    __tablename__ = "seat_tokens"

    id: Mapped[int] = mapped_column(primary_key=True)
    token: Mapped[str] = mapped_column(String(TOKEN_MAX), unique=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    seat: Mapped[str] = mapped_column(String(16))  # the seat's name (Seat.name)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=now)
    revoked_at: Mapped[datetime | None] = mapped_column(UTCDateTime)

    __table_args__ = (Index("ix_seat_tokens_game_seat", "game_id", "seat"),)


class PressToken(db.Model):
    """The credential in a press mail's Reply-To `press+<token>@<domain>`: it names the seat
    that replies (`seat`) and the audience its reply goes to (`audience`: None, the whole
    table; else the one seat of a private thread), so a reply stays in its thread and is
    never read as orders.  One live token per seat and audience; replacing the seat's reply
    address revokes them too (pbem/outbox/seat_tokens.py)."""

    __tablename__ = "press_tokens"

    id: Mapped[int] = mapped_column(primary_key=True)
    token: Mapped[str] = mapped_column(String(TOKEN_MAX), unique=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    seat: Mapped[str] = mapped_column(String(16))
    audience: Mapped[str | None] = mapped_column(String(16))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=now)
    revoked_at: Mapped[datetime | None] = mapped_column(UTCDateTime)

    __table_args__ = (Index("ix_press_tokens_game_seat", "game_id", "seat"),)


class MailDelivery(db.Model):
    """Delivery of one outbox row: extra headers, the idempotency key of the notification it
    carries (game, event, seat), and the SMTP attempts.  `claimed_at` is a lease: one
    sender at a time, and `outbox.sent_at` says it went out (never sent twice)."""

    __tablename__ = "mail_delivery"

    outbox_id: Mapped[int] = mapped_column(ForeignKey("outbox.id", ondelete="CASCADE"), primary_key=True)
    key: Mapped[str | None] = mapped_column(String(200), unique=True)
    reply_to: Mapped[str | None] = mapped_column(String(EMAIL_MAX))
    headers: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    attempts: Mapped[int] = mapped_column(default=0)
    claimed_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    last_error: Mapped[str | None] = mapped_column(Text)
    bounce: Mapped[str | None] = mapped_column(String(4))  # "soft" or "hard": the worst bounce reported
    withheld_at: Mapped[datetime | None] = mapped_column(UTCDateTime)  # never sent: recipient suppressed
    retry_at: Mapped[datetime | None] = mapped_column(UTCDateTime)  # next attempt due (migration 0008)
    failed_at: Mapped[datetime | None] = mapped_column(UTCDateTime)  # given up after MAX_ATTEMPTS: never tried again
    html: Mapped[str | None] = mapped_column(Text)  # the HTML alternative of `outbox.body`, if any

    message: Mapped[OutboxMessage] = relationship()


class OutboxPart(db.Model):
    """A file that goes with an outbox row: an inline picture (`content_id`, referred to as
    cid:<content_id> by the HTML) or an attachment (no content_id)."""

    __tablename__ = "outbox_parts"

    id: Mapped[int] = mapped_column(primary_key=True)
    outbox_id: Mapped[int] = mapped_column(ForeignKey("outbox.id", ondelete="CASCADE"), index=True)
    position: Mapped[int] = mapped_column(default=0)
    filename: Mapped[str] = mapped_column(String(PART_NAME_MAX))
    content_type: Mapped[str] = mapped_column(String(100))
    content_id: Mapped[str | None] = mapped_column(String(PART_NAME_MAX))
    data: Mapped[bytes] = mapped_column(LargeBinary)

    message: Mapped[OutboxMessage] = relationship()
