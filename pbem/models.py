"""The database tables (SQLAlchemy 2.0 declarative).  Alembic migrations in migrations/ build them.

A game's truth is its setup (with the secret seed) plus `order_log`; the engine state is
rebuilt from those on demand (pbem/services/state.py caches it by version).
"""
from __future__ import annotations

from datetime import date, datetime, timezone
from typing import Any

from sqlalchemy import (JSON, Date, DateTime, ForeignKey, Index, String, Text, TypeDecorator, UniqueConstraint, column,
                        false, func, select, table, true)
from sqlalchemy.orm import Mapped, column_property, mapped_column, relationship

from pbem.extensions import db
from pbem.text import one_line

EMAIL_MAX = 254
NAME_MAX = 60  # the engine's limit on a player's name
TITLE_MAX = 100
ORDER_MAX = 500
ERROR_MAX = 500  # an exception's text kept for operators


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


class OneLine(TypeDecorator[str]):
    """A name or title: one line of visible text (pbem.text.one_line) going in and coming
    out, whoever wrote it (a service, the mail gateway, a row older than the rule), so no
    page, API answer or mail subject shows a direction override or a zero-width character.
    Services clean and check the length first; this is the floor under every writer."""

    impl = String
    cache_ok = True

    def process_bind_param(self, value: str | None, dialect: Any) -> str | None:
        return None if value is None else one_line(value)

    def process_result_value(self, value: str | None, dialect: Any) -> str | None:
        return None if value is None else one_line(value)


# The vacations table as far as `User.vacations_end` reads it (the model is declared below).
_VACATION_ENDS = table("vacations", column("user_id"), column("ends_at", UTCDateTime()))


class User(db.Model):
    __tablename__ = "users"

    id: Mapped[int] = mapped_column(primary_key=True)
    display_name: Mapped[str] = mapped_column(OneLine(NAME_MAX))
    time_zone: Mapped[str] = mapped_column(String(64), default="UTC")
    notify_turn: Mapped[bool] = mapped_column(default=True)  # "your turn" mails
    notify_results: Mapped[bool] = mapped_column(default=True)  # age results and reports
    notify_invites: Mapped[bool] = mapped_column(default=True)
    notify_press: Mapped[bool] = mapped_column(default=True, server_default=true())  # press mails (services/press.py)
    # Opponents' moves (pbem/services/moves_mail.py): "off", "each" (a mail per advance) or
    # "digest" (one mail a day at digest_hour, local time; digest_on: the local day last done).
    opponent_moves: Mapped[str] = mapped_column(String(8), default="digest", server_default="digest")
    digest_hour: Mapped[int] = mapped_column(default=8, server_default="8")
    digest_on: Mapped[date | None] = mapped_column(Date)
    paper_size: Mapped[str] = mapped_column(String(8), default="A4", server_default="A4")  # report PDFs
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=now)
    # Bumped by signing out: a browser session counts only while it carries the current
    # value (pbem/app.py), so a session cookie copied before sign-out is dead after it.
    session_generation: Mapped[int] = mapped_column(default=0, server_default="0")
    # The end of the person's last vacation (None: none), read only when asked for (the
    # advance reads it with a game's people, pbem/services/locking.py): a deadline looks
    # for vacations that stretch it only when one ends after its decision began.
    vacations_end: Mapped[datetime | None] = column_property(
        select(func.max(_VACATION_ENDS.c.ends_at)).where(_VACATION_ENDS.c.user_id == id)
        .correlate_except(_VACATION_ENDS).scalar_subquery(), deferred=True)

    addresses: Mapped[list["EmailAddress"]] = relationship(
        back_populates="user", cascade="all, delete-orphan", order_by="EmailAddress.id")

    # The deadline tick finds whose digest is due per time zone (pbem/services/moves_mail.py).
    __table_args__ = (Index("ix_users_opponent_moves_time_zone", "opponent_moves", "time_zone"),)

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
    # Bounces (pbem/mail/bounces.py): no mail goes to a suppressed address until its owner
    # says it works again on the profile page.
    bounce_count: Mapped[int] = mapped_column(default=0, server_default="0")  # hard, since it last worked
    soft_bounce_count: Mapped[int] = mapped_column(default=0, server_default="0")
    last_bounce_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    last_bounce_reason: Mapped[str | None] = mapped_column(String(200))
    suppressed_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    suppressed_reason: Mapped[str | None] = mapped_column(String(200))

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
    name: Mapped[str] = mapped_column(OneLine(NAME_MAX))
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    prefix: Mapped[str] = mapped_column(String(12))  # shown in lists so people can tell tokens apart
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=now)
    last_used_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    revoked_at: Mapped[datetime | None] = mapped_column(UTCDateTime)

    user: Mapped[User] = relationship()


# A game's press rule (pbem/services/press.py): none, to the whole table only, or also private.
PRESS_RULES = ("none", "public", "all")


class Game(db.Model):
    __tablename__ = "games"

    id: Mapped[int] = mapped_column(primary_key=True)
    kind: Mapped[str] = mapped_column(String(20))  # the registered game it is (engine.get_game)
    title: Mapped[str] = mapped_column(OneLine(TITLE_MAX))
    status: Mapped[str] = mapped_column(String(12), default="open", index=True)
    # The record's setup (board, edition, options, seed, and players once started).
    # The seed is secret until the game is finished: never copy `setup` into an answer.
    setup: Mapped[dict[str, Any]] = mapped_column(JSON)
    deadline_policy: Mapped[dict[str, Any]] = mapped_column(JSON)
    # Bumped by compare-and-set on every change of the order log or the status.
    version: Mapped[int] = mapped_column(default=0)
    result: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    # Counts for ratings (docs/leagues.md, "Ratings"), fixed when the game is created: casual
    # unless asked; a league's games are rated unless the league is casual.
    rated: Mapped[bool] = mapped_column(default=False, server_default=false())
    created_by: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=now)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime, default=now)
    started_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    finished_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    # Deadlines (pbem/services/schedule.py keeps them; docs/deadlines.md).  The current decision
    # is known by the order log's length when it began; its deadline is derived from when it
    # began, its kind's hours, the host's extensions, delays (pauses, outages) and vacations.
    deadline_at: Mapped[datetime | None] = mapped_column(UTCDateTime, index=True)
    decision_seq: Mapped[int | None] = mapped_column()
    decision_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    extended_hours: Mapped[int] = mapped_column(default=0, server_default="0")  # this decision
    deadline_delay: Mapped[int] = mapped_column(default=0, server_default="0")  # seconds, this decision
    reminded: Mapped[int | None] = mapped_column()  # smallest "hours before" reminder sent
    paused_at: Mapped[datetime | None] = mapped_column(UTCDateTime, index=True)  # the tick's paused games
    paused_by: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"))
    paused_seconds: Mapped[int] = mapped_column(default=0, server_default="0")  # ended pauses, whole game
    # Press (pbem/services/press.py): the rule chosen at creation, "none", "public" (to the
    # whole table only) or "all" (also private, seat to seat); the host may switch it off.
    press_rule: Mapped[str] = mapped_column(String(8), default="all", server_default="all")
    press_off: Mapped[bool] = mapped_column(default=False, server_default=false())

    seats: Mapped[list["Seat"]] = relationship(back_populates="game", cascade="all, delete-orphan",
                                               order_by="Seat.position")
    # Read with the game's lock (pbem/services/locking.py), in arrival and queue order;
    # written as rows of their own.
    pending_orders: Mapped[list["PendingOrder"]] = relationship(viewonly=True, order_by="PendingOrder.id")
    queued_turns: Mapped[list["QueuedTurn"]] = relationship(viewonly=True, order_by="QueuedTurn.id")

    OPEN, ACTIVE, FINISHED, ABORTED = "open", "active", "finished", "aborted"

    # The deadline tick's running games that have no schedule yet (pbem/services/tick.py).
    __table_args__ = (Index("ix_games_status_decision_seq", "status", "decision_seq"),)


class Seat(db.Model):
    """One player's place in a game: a person, a bot, an invitation or an open seat.

    `name` is the seat's name in the game (the game's `seating` draws it when the game
    starts); `position` is then the initial stack order.
    """

    __tablename__ = "seats"

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    position: Mapped[int]
    name: Mapped[str | None] = mapped_column(String(16))
    user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"), index=True)
    bot: Mapped[str | None] = mapped_column(String(20))
    invited_email: Mapped[str | None] = mapped_column(String(EMAIL_MAX))
    joined_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    # Kept by advance(): the seat owes a decision now (for "waiting for me" lists).
    waiting: Mapped[bool] = mapped_column(default=False)
    # The last queued order that turned out illegal when its turn came, for the player to see.
    last_error: Mapped[str | None] = mapped_column(Text)
    # Missed deadlines: in a row (0 again once the seat gives its own order) and in all.
    missed_in_row: Mapped[int] = mapped_column(default=0, server_default="0")
    missed_total: Mapped[int] = mapped_column(default=0, server_default="0")
    # Set when the seat is offered to a replacement (after too many missed deadlines in a row).
    replacement_offered_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    # A bot that plays for the person while they are away: stand_in_reason "vacation" or "abandoned".
    stand_in: Mapped[str | None] = mapped_column(String(20))
    stand_in_reason: Mapped[str | None] = mapped_column(String(12), index=True)  # the tick's stand-ins
    # The order-log length at which a queued turn failed: the queue waits for the seat's own order.
    queue_held_seq: Mapped[int | None] = mapped_column()
    # The seat's clock, when the game's deadline policy has one (pbem/services/clock.py): the
    # reserve in seconds at the start of its current decision (None: not begun, the initial),
    # the decision its clock runs in, when it acted in it, its own deadline (kept once it acted,
    # for the charge) and the smallest "hours before" reminder it was sent.
    reserve_seconds: Mapped[int | None] = mapped_column()
    clock_seq: Mapped[int | None] = mapped_column()
    clock_acted_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    deadline_at: Mapped[datetime | None] = mapped_column(UTCDateTime, index=True)  # the tick's reminders
    reminded: Mapped[int | None] = mapped_column()
    # How many events of the seat's view were mailed as opponents' moves (services/moves_mail.py).
    events_reported: Mapped[int] = mapped_column(default=0, server_default="0")

    game: Mapped[Game] = relationship(back_populates="seats")
    user: Mapped[User | None] = relationship()
    # The seat's live reply token (pbem/outbox/seat_tokens.py), read with an advance's lock.
    reply_tokens: Mapped[list["SeatToken"]] = relationship(  # noqa: F821 - pbem/outbox/models.py
        primaryjoin="and_(foreign(SeatToken.game_id) == Seat.game_id, foreign(SeatToken.seat) == Seat.name, "
                    "SeatToken.revoked_at.is_(None))", viewonly=True, order_by="SeatToken.id")

    __table_args__ = (UniqueConstraint("game_id", "position"), UniqueConstraint("game_id", "user_id"),
                      UniqueConstraint("game_id", "name"))

    @property
    def is_open(self) -> bool:
        return self.user_id is None and self.bot is None

    @property
    def label(self) -> str:
        if self.user is not None:
            return self.user.display_name
        if self.bot:  # named by seat once drawn: two "heuristic bot"s would be ambiguous
            return f"{self.name} bot ({self.bot})" if self.name else f"{self.bot} bot"
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
    # Who decided: "player", "bot" (a bot seat), "default" (a missed deadline's default),
    # "stand-in" (a bot playing for a person on vacation or who abandoned the seat).
    by: Mapped[str] = mapped_column(String(10), default="player", server_default="player")

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


class QueuedTurn(db.Model):
    """An order queued ahead (pbem/services/turn_queue.py; the kind the game's presentation
    names): applied, first queued first, when the seat's turn comes in the round it was
    queued for."""

    __tablename__ = "queued_turns"

    id: Mapped[int] = mapped_column(primary_key=True)  # queue order
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    seat: Mapped[str] = mapped_column(String(16))
    round: Mapped[int]  # the game's round whose turns it is for (Presentation.queue_round)
    text: Mapped[str] = mapped_column(String(ORDER_MAX))
    channel: Mapped[str] = mapped_column(String(10))
    user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=now)

    __table_args__ = (Index("ix_queued_turns_game_seat", "game_id", "seat"),)


class GameEvent(db.Model):
    """What happened to a game besides its orders: extensions, pauses, missed deadlines,
    replacement offers, takeovers, outage delays.  Public: shown in the game's history."""

    __tablename__ = "game_events"

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    at: Mapped[datetime] = mapped_column(UTCDateTime)
    type: Mapped[str] = mapped_column(String(20))  # what happened: "extend", "pause", "resign", ...
    seat: Mapped[str | None] = mapped_column(String(16))
    user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"))
    decision_seq: Mapped[int | None] = mapped_column()
    hours: Mapped[int | None] = mapped_column()  # an extension's hours
    text: Mapped[str] = mapped_column(String(ORDER_MAX))

    __table_args__ = (Index("ix_game_events_game_type", "game_id", "type"),)


class Vacation(db.Model):
    """A declared absence (pbem/services/vacations.py): [starts_at, ends_at)."""

    __tablename__ = "vacations"

    id: Mapped[int] = mapped_column(primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    starts_at: Mapped[datetime] = mapped_column(UTCDateTime)
    ends_at: Mapped[datetime] = mapped_column(UTCDateTime, index=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime)


class TickState(db.Model):
    """One row: when the deadline tick last ran, to notice outages."""

    __tablename__ = "tick_state"

    id: Mapped[int] = mapped_column(primary_key=True)
    last_tick_at: Mapped[datetime] = mapped_column(UTCDateTime)  # began
    last_outage_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    finished_at: Mapped[datetime | None] = mapped_column(UTCDateTime)  # the last tick that ran to its end
    error: Mapped[str | None] = mapped_column(String(ERROR_MAX))  # why the last tick broke off, if it did


class TickFailure(db.Model):
    """A game the deadline tick failed on, in a row of ticks (`count`); gone once a tick gets
    through it.  The health endpoint and the operators' page show the games that keep failing."""

    __tablename__ = "tick_failures"

    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    first_at: Mapped[datetime] = mapped_column(UTCDateTime)
    last_at: Mapped[datetime] = mapped_column(UTCDateTime)
    count: Mapped[int] = mapped_column(default=1)
    error: Mapped[str] = mapped_column(String(ERROR_MAX))


class OutboxMessage(db.Model):
    """A mail to send.  Development shows the outbox; issue 5 delivers it over SMTP."""

    __tablename__ = "outbox"

    id: Mapped[int] = mapped_column(primary_key=True)
    to_address: Mapped[str] = mapped_column(String(EMAIL_MAX), index=True)
    subject: Mapped[str] = mapped_column(String(200))
    body: Mapped[str] = mapped_column(Text)
    topic: Mapped[str] = mapped_column(String(20))  # what it is about: "turn", "report", ... (delivery.PREFERENCES)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=now)
    sent_at: Mapped[datetime | None] = mapped_column(UTCDateTime)


class ReportJob(db.Model):
    """Reports or notices owed to a game's seats at one moment (pbem/services/report_mail.py).

    Written in the advance's own transaction, so the job exists exactly when the phase it
    announces was committed; a worker renders it per seat and sets `done_at`.  `seq` is the
    order-log length at that moment; `turn_seats` are the seats that newly owed a decision
    then and are told so in this job's mail instead of a separate turn mail."""

    __tablename__ = "report_jobs"

    REPORT, NOTICE = "report", "notice"

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    topic: Mapped[str] = mapped_column(String(8))  # REPORT or NOTICE: the topic of its mails
    round: Mapped[int]  # the game's round whose report or notice it is
    phase: Mapped[str] = mapped_column(String(20))
    seq: Mapped[int]
    turn_seats: Mapped[list[str] | None] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=now)
    tried_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    attempts: Mapped[int] = mapped_column(default=0)
    done_at: Mapped[datetime | None] = mapped_column(UTCDateTime, index=True)

    __table_args__ = (UniqueConstraint("game_id", "topic", "round", "phase"),)


PRESS_MAX = 2000  # characters of one press message
REPORT_REASON_MAX = 200


class PressMessage(db.Model):
    """A message of one seat to the whole table (`to_seat` None) or privately to one seat
    (pbem/services/press.py).  Never part of the record; a private one is shown only to the
    two seats, and mailed only to the one it is for."""

    __tablename__ = "press_messages"

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    seat: Mapped[str] = mapped_column(String(16))  # the author's seat
    user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"))
    to_seat: Mapped[str | None] = mapped_column(String(16))  # None: the whole table
    text: Mapped[str] = mapped_column(Text)  # pbem.text.clean_message, at most PRESS_MAX
    channel: Mapped[str] = mapped_column(String(10))  # web, api, email
    round: Mapped[int | None] = mapped_column()  # the game's round when it was sent
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=now)
    hidden_at: Mapped[datetime | None] = mapped_column(UTCDateTime)  # an operator hid it after a report

    __table_args__ = (Index("ix_press_messages_game_seat_created", "game_id", "seat", "created_at"),)

    @property
    def public(self) -> bool:
        return self.to_seat is None


class PressMute(db.Model):
    """A person who does not want to read or be mailed a seat's press in a game."""

    __tablename__ = "press_mutes"

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))
    seat: Mapped[str] = mapped_column(String(16))  # the muted seat
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=now)

    __table_args__ = (UniqueConstraint("game_id", "user_id", "seat"),)


class PressReport(db.Model):
    """A press message someone reported: the site operators' review list shows it until one
    of them dismisses it or hides the message."""

    __tablename__ = "press_reports"

    id: Mapped[int] = mapped_column(primary_key=True)
    message_id: Mapped[int] = mapped_column(ForeignKey("press_messages.id", ondelete="CASCADE"))
    user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"))
    reason: Mapped[str] = mapped_column(String(REPORT_REASON_MAX))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=now)
    resolved_at: Mapped[datetime | None] = mapped_column(UTCDateTime, index=True)
    resolution: Mapped[str | None] = mapped_column(String(REPORT_REASON_MAX))  # what, by which operator

    message: Mapped[PressMessage] = relationship()

    __table_args__ = (UniqueConstraint("message_id", "user_id"),)
