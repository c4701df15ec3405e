"""The email gateway's table (migration 0003): every inbound message as received.

Kept apart from pbem/models.py; whatever needs the full metadata (the app factory, Alembic's
env.py) imports this module too.  The tables of outgoing mail are in pbem/outbox/models.py.
"""
from __future__ import annotations

from datetime import datetime

from sqlalchemy import JSON, ForeignKey, Index, LargeBinary, String
from sqlalchemy.orm import Mapped, mapped_column

from pbem.extensions import db
from pbem.models import EMAIL_MAX, UTCDateTime, now
from pbem.outbox.models import TOKEN_MAX

RECIPIENTS_MAX = 2000
REASON_MAX = 200
MESSAGE_ID_MAX = 255


class InboundMessage(db.Model):
    """One inbound mail, stored raw before it is acknowledged (SMTP 250, webhook 200), then
    processed once.  `received_at` (server time) is the order of arrival; the sender's
    Date header is never used for that.

    status: stored (not processed yet) -> processed | ignored | rejected | review.
    `dedup_key` ("<from> <message-id>") is set on the one message that claimed it: a replay
    of the same Message-ID from the same sender cannot claim it again.
    """

    __tablename__ = "inbound_mail"

    STORED, PROCESSED, IGNORED, REJECTED, REVIEW = "stored", "processed", "ignored", "rejected", "review"

    id: Mapped[int] = mapped_column(primary_key=True)
    received_at: Mapped[datetime] = mapped_column(UTCDateTime, default=now, index=True)
    channel: Mapped[str] = mapped_column(String(8))  # smtp, webhook, imap
    envelope_from: Mapped[str | None] = mapped_column(String(EMAIL_MAX + 2))
    envelope_to: Mapped[str | None] = mapped_column(String(RECIPIENTS_MAX))  # comma-separated
    raw: Mapped[bytes] = mapped_column(LargeBinary)
    size: Mapped[int] = mapped_column(default=0)
    status: Mapped[str] = mapped_column(String(10), default=STORED, index=True)
    reason: Mapped[str | None] = mapped_column(String(REASON_MAX))
    from_address: Mapped[str | None] = mapped_column(String(EMAIL_MAX))
    message_id: Mapped[str | None] = mapped_column(String(MESSAGE_ID_MAX))
    digest: Mapped[str | None] = mapped_column(String(64))
    dedup_key: Mapped[str | None] = mapped_column(String(EMAIL_MAX + MESSAGE_ID_MAX + 1), unique=True)
    game_id: Mapped[int | None] = mapped_column(ForeignKey("games.id", ondelete="SET NULL"))
    seat: Mapped[str | None] = mapped_column(String(16))
    user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"))
    processed_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    # The seat token it is addressed to, recorded on arrival: a seat's mails act in order (0009).
    token: Mapped[str | None] = mapped_column(String(TOKEN_MAX))
    # What its steps that change something answered, each committed with the step: a step
    # already here is never carried out again when the mail is processed again (0009).
    done: Mapped[list[str | None] | None] = mapped_column(JSON)

    __table_args__ = (Index("ix_inbound_mail_from_received", "from_address", "received_at"),
                      Index("ix_inbound_mail_digest", "digest"), Index("ix_inbound_mail_token", "token", "id"))

    @property
    def recipients(self) -> list[str]:
        return [a for a in (self.envelope_to or "").split(",") if a]
