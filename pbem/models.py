"""The database tables (SQLAlchemy 2.0 declarative).  Alembic migrations in migrations/ build them.

A game's truth is its setup (with the secret seed) plus `order_log`; the engine state is
rebuilt from those on demand (pbem/services/state.py caches it by version).
"""
from __future__ import annotations

from datetime import datetime, timezone
from typing import Any

from sqlalchemy import JSON, DateTime, ForeignKey, Index, String, Text, TypeDecorator, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column, relationship

from pbem.extensions import db

EMAIL_MAX = 254
NAME_MAX = 60  # the engine's limit on a player's name
TITLE_MAX = 100
ORDER_MAX = 500


def now() -> datetime:
    return datetime.now(timezone.utc)


class UTCDateTime(TypeDecorator[datetime]):
    """Aware UTC datetimes on every database (SQLite keeps no time zone of its own)."""

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Any) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError("naive datetime: store aware UTC times")
        value = value.astimezone(timezone.utc)
        return value.replace(tzinfo=None) if dialect.name == "sqlite" else value

    def process_result_value(self, value: datetime | None, dialect: Any) -> datetime | None:
        if value is not None and value.tzinfo is None:
            value = value.replace(tzinfo=timezone.utc)
        return value


class User(db.Model):
    __tablename__ = "users"

    id: Mapped[int] = mapped_column(primary_key=True)
    display_name: Mapped[str] = mapped_column(String(NAME_MAX))
    time_zone: Mapped[str] = mapped_column(String(64), default="UTC")
    notify_turn: Mapped[bool] = mapped_column(default=True)  # "your turn" mails
    notify_results: Mapped[bool] = mapped_column(default=True)  # age results and reports
    notify_invites: Mapped[bool] = mapped_column(default=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=now)

    addresses: Mapped[list["EmailAddress"]] = relationship(
        back_populates="user", cascade="all, delete-orphan", order_by="EmailAddress.id")

    @property
    def primary_address(self) -> str | None:
        for address in self.addresses:
            if address.is_primary:
                return address.address
        return self.addresses[0].address if self.addresses else None


class EmailAddress(db.Model):
    """A confirmed address of a person.  Unconfirmed ones live only in an EmailToken."""

    __tablename__ = "email_addresses"

    id: Mapped[int] = mapped_column(primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    address: Mapped[str] = mapped_column(String(EMAIL_MAX), unique=True)
    is_primary: Mapped[bool] = mapped_column(default=False)
    confirmed_at: Mapped[datetime] = mapped_column(UTCDateTime, default=now)

    user: Mapped[User] = relationship(back_populates="addresses")


class EmailToken(db.Model):
    """A one-time link sent by mail: sign in, or confirm a new address of a signed-in person."""

    __tablename__ = "email_tokens"

    id: Mapped[int] = mapped_column(primary_key=True)
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    purpose: Mapped[str] = mapped_column(String(16))  # "signin" or "confirm"
    address: Mapped[str] = mapped_column(String(EMAIL_MAX))
    user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=now)
    expires_at: Mapped[datetime] = mapped_column(UTCDateTime)
    used_at: Mapped[datetime | None] = mapped_column(UTCDateTime)

    __table_args__ = (Index("ix_email_tokens_address_created", "address", "created_at"),)


class ApiToken(db.Model):
    """A personal API token; only its hash is kept, the token is shown once."""

    __tablename__ = "api_tokens"

    id: Mapped[int] = mapped_column(primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    name: Mapped[str] = mapped_column(String(NAME_MAX))
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    prefix: Mapped[str] = mapped_column(String(12))  # shown in lists so people can tell tokens apart
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=now)
    last_used_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    revoked_at: Mapped[datetime | None] = mapped_column(UTCDateTime)

    user: Mapped[User] = relationship()


class Game(db.Model):
    __tablename__ = "games"

    id: Mapped[int] = mapped_column(primary_key=True)
    kind: Mapped[str] = mapped_column(String(20), default="aztlan")
    title: Mapped[str] = mapped_column(String(TITLE_MAX))
    status: Mapped[str] = mapped_column(String(12), default="open", index=True)
    # The record's setup (board, edition, options, seed, and players once started).
    # The seed is secret until the game is finished: never copy `setup` into an answer.
    setup: Mapped[dict[str, Any]] = mapped_column(JSON)
    deadline_policy: Mapped[dict[str, Any]] = mapped_column(JSON)
    # Bumped by compare-and-set on every change of the order log or the status.
    version: Mapped[int] = mapped_column(default=0)
    result: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    created_by: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=now)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime, default=now)
    started_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    finished_at: Mapped[datetime | None] = mapped_column(UTCDateTime)

    seats: Mapped[list["Seat"]] = relationship(back_populates="game", cascade="all, delete-orphan",
                                               order_by="Seat.position")

    OPEN, ACTIVE, FINISHED, ABORTED = "open", "active", "finished", "aborted"


class Seat(db.Model):
    """One player's place in a game: a person, a bot, an invitation or an open seat.

    `tribe` is drawn when the game starts; `position` is then the initial stack order.
    """

    __tablename__ = "seats"

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    position: Mapped[int]
    tribe: Mapped[str | None] = mapped_column(String(16))
    user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"), index=True)
    bot: Mapped[str | None] = mapped_column(String(20))
    invited_email: Mapped[str | None] = mapped_column(String(EMAIL_MAX))
    joined_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    # Kept by advance(): the seat owes a decision now (for "waiting for me" lists).
    waiting: Mapped[bool] = mapped_column(default=False)
    # The last queued order that turned out illegal when its turn came, for the player to see.
    last_error: Mapped[str | None] = mapped_column(Text)

    game: Mapped[Game] = relationship(back_populates="seats")
    user: Mapped[User | None] = relationship()

    __table_args__ = (UniqueConstraint("game_id", "position"), UniqueConstraint("game_id", "user_id"),
                      UniqueConstraint("game_id", "tribe"))

    @property
    def is_open(self) -> bool:
        return self.user_id is None and self.bot is None

    @property
    def label(self) -> str:
        if self.user is not None:
            return self.user.display_name
        if self.bot:  # named by tribe once drawn: two "heuristic bot"s would be ambiguous
            return f"{self.tribe} bot ({self.bot})" if self.tribe else f"{self.bot} bot"
        return "invited" if self.invited_email else "open seat"


class OrderLogEntry(db.Model):
    """One applied order line: with the setup and seed, the game's truth."""

    __tablename__ = "order_log"

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    seq: Mapped[int]
    seat: Mapped[str] = mapped_column(String(16))
    text: Mapped[str] = mapped_column(String(ORDER_MAX))
    applied_at: Mapped[datetime] = mapped_column(UTCDateTime, default=now)

    __table_args__ = (UniqueConstraint("game_id", "seq"),)


class PendingOrder(db.Model):
    """An order committed but not applied yet: a secret choice waiting for the others, or
    the rest of a submission that goes on after someone else's decision."""

    __tablename__ = "pending_orders"

    id: Mapped[int] = mapped_column(primary_key=True)  # arrival order
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    seat: Mapped[str] = mapped_column(String(16))
    text: Mapped[str] = mapped_column(String(ORDER_MAX))
    channel: Mapped[str] = mapped_column(String(10))  # web, api, email, bot
    user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"))
    submitted_at: Mapped[datetime] = mapped_column(UTCDateTime, default=now)

    __table_args__ = (Index("ix_pending_orders_game_seat", "game_id", "seat"),)


class OutboxMessage(db.Model):
    """A mail to send.  Development shows the outbox; issue 5 delivers it over SMTP."""

    __tablename__ = "outbox"

    id: Mapped[int] = mapped_column(primary_key=True)
    to_address: Mapped[str] = mapped_column(String(EMAIL_MAX), index=True)
    subject: Mapped[str] = mapped_column(String(200))
    body: Mapped[str] = mapped_column(Text)
    kind: Mapped[str] = mapped_column(String(20))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=now)
    sent_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
