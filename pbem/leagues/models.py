"""A league's tables (SQLAlchemy; migration 0015): the league, its organisers and members,
its rounds, each round's tables (the games it started, with who sat where), and the
organisers' corrections and annulments of results.

A member is named in seatings and standings by its id as text (`key`); a table's `seats`
lists member ids in seat order, first player first, None for a bot seat.
"""
from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, ForeignKey, Index, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column, relationship

from pbem.extensions import db
from pbem.models import ORDER_MAX, TITLE_MAX, Game, OneLine, User, UTCDateTime, now

REASON_MAX = ORDER_MAX


class League(db.Model):
    __tablename__ = "leagues"

    OPEN, RUNNING, FINISHED = "open", "running", "finished"  # registration; a season under way; done

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(OneLine(TITLE_MAX))
    kind: Mapped[str] = mapped_column(String(20))  # the registered game every table plays
    # The game's setup choices (a board...) and rule options, as pbem.services.lobby checks them.
    setup: Mapped[dict[str, Any]] = mapped_column(JSON)
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    deadline_policy: Mapped[dict[str, Any]] = mapped_column(JSON)  # each table's (lobby.deadline_policy)
    scoring: Mapped[str] = mapped_column(String(10))  # one of pbem.leagues.scoring.SYSTEMS
    table_size: Mapped[int]
    rated: Mapped[bool] = mapped_column(default=True)  # its games count for ratings
    cap: Mapped[int | None] = mapped_column()  # most members; None: no cap
    registration_closes_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    withdrawal: Mapped[str] = mapped_column(String(10), default="bot")  # WITHDRAWAL rules (leagues.py)
    rounds: Mapped[int]  # rounds in a season
    round_days: Mapped[int]  # a round's hard end date, in days after it starts
    season: Mapped[int] = mapped_column(default=1)  # the current season
    status: Mapped[str] = mapped_column(String(10), default=OPEN, index=True)
    # Secret: seats the rounds and seeds the tables' games (like a game's seed, never shown).
    seed: Mapped[str] = mapped_column(String(64))
    created_by: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=now)

    organisers: Mapped[list["LeagueOrganiser"]] = relationship(cascade="all, delete-orphan")
    members: Mapped[list["LeagueMember"]] = relationship(back_populates="league", cascade="all, delete-orphan",
                                                         order_by="LeagueMember.id")
    round_rows: Mapped[list["LeagueRound"]] = relationship(back_populates="league", cascade="all, delete-orphan",
                                                           order_by="(LeagueRound.season, LeagueRound.number)")


class LeagueOrganiser(db.Model):
    __tablename__ = "league_organisers"

    league_id: Mapped[int] = mapped_column(ForeignKey("leagues.id", ondelete="CASCADE"), primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), primary_key=True)

    user: Mapped[User] = relationship()


class LeagueMember(db.Model):
    """A person in a league.  `bot`: an entrant whose seats a bot plays (the organisers'
    house bots, simulations), a member like any other in standings and ratings."""

    __tablename__ = "league_members"

    REGISTERED, WITHDRAWN, REPLACED = "registered", "withdrawn", "replaced"

    id: Mapped[int] = mapped_column(primary_key=True)
    league_id: Mapped[int] = mapped_column(ForeignKey("leagues.id", ondelete="CASCADE"), index=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))
    status: Mapped[str] = mapped_column(String(10), default=REGISTERED)
    replaced_by_id: Mapped[int | None] = mapped_column(ForeignKey("league_members.id", ondelete="SET NULL"))
    bot: Mapped[str | None] = mapped_column(String(20))
    joined_at: Mapped[datetime] = mapped_column(UTCDateTime, default=now)
    left_at: Mapped[datetime | None] = mapped_column(UTCDateTime)

    league: Mapped[League] = relationship(back_populates="members")
    user: Mapped[User] = relationship()
    replaced_by: Mapped["LeagueMember | None"] = relationship(remote_side="LeagueMember.id")

    __table_args__ = (UniqueConstraint("league_id", "user_id"),)

    @property
    def key(self) -> str:
        return str(self.id)

    @property
    def active(self) -> bool:
        return self.status == self.REGISTERED


class LeagueRound(db.Model):
    """One round of a season: planned (its pairings may be previewed and overridden),
    running (its tables' games are under way) or finished."""

    __tablename__ = "league_rounds"

    PLANNED, RUNNING, FINISHED = "planned", "running", "finished"

    id: Mapped[int] = mapped_column(primary_key=True)
    league_id: Mapped[int] = mapped_column(ForeignKey("leagues.id", ondelete="CASCADE"))
    season: Mapped[int]
    number: Mapped[int]
    state: Mapped[str] = mapped_column(String(10), default=PLANNED, index=True)
    # The seating an organiser previewed or set (member ids per table, None: a bot seat); the
    # round starts with exactly these tables.  None: seated afresh when it starts.
    pairings: Mapped[list[list[int | None]] | None] = mapped_column(JSON)
    overridden_by: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"))
    started_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    ends_by: Mapped[datetime | None] = mapped_column(UTCDateTime, index=True)  # the hard end date
    finished_at: Mapped[datetime | None] = mapped_column(UTCDateTime)

    league: Mapped[League] = relationship(back_populates="round_rows")
    tables: Mapped[list["LeagueTable"]] = relationship(back_populates="round", cascade="all, delete-orphan",
                                                       order_by="LeagueTable.number")

    __table_args__ = (UniqueConstraint("league_id", "season", "number"),)


class LeagueTable(db.Model):
    """A round's game: who sat where (member ids in seat order, None for a bot seat; seat
    i is the game's seat at position i), who forfeited it, and whether the round's hard date handed its
    unfinished seats to the game's stand-in bot (`forced_at`)."""

    __tablename__ = "league_tables"

    id: Mapped[int] = mapped_column(primary_key=True)
    round_id: Mapped[int] = mapped_column(ForeignKey("league_rounds.id", ondelete="CASCADE"), index=True)
    number: Mapped[int]
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), unique=True)
    seats: Mapped[list[int | None]] = mapped_column(JSON)
    # Members who withdrew while the game ran, under the "forfeit" rule: placed last.
    forfeits: Mapped[list[int] | None] = mapped_column(JSON)
    forced_at: Mapped[datetime | None] = mapped_column(UTCDateTime)

    round: Mapped[LeagueRound] = relationship(back_populates="tables")
    game: Mapped[Game] = relationship()

    # One game a table: two processes completing a round's start at once cannot both make it.
    __table_args__ = (UniqueConstraint("round_id", "number"),)
    corrections: Mapped[list["LeagueCorrection"]] = relationship(back_populates="table",
                                                                 cascade="all, delete-orphan",
                                                                 order_by="LeagueCorrection.id")


class LeagueCorrection(db.Model):
    """An organiser's correction ("correct": `places` per member id replaces the game's) or
    annulment ("annul": the table counts for nothing) of a table's result, with the reason
    kept.  The newest one stands; "restore" puts the game's own result back."""

    __tablename__ = "league_corrections"

    ANNUL, CORRECT, RESTORE = "annul", "correct", "restore"

    id: Mapped[int] = mapped_column(primary_key=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("league_tables.id", ondelete="CASCADE"))
    action: Mapped[str] = mapped_column(String(10))
    places: Mapped[dict[str, int] | None] = mapped_column(JSON)  # member id -> place
    reason: Mapped[str] = mapped_column(String(REASON_MAX))
    by: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"))
    at: Mapped[datetime] = mapped_column(UTCDateTime, default=now)

    table: Mapped[LeagueTable] = relationship(back_populates="corrections")

    __table_args__ = (Index("ix_league_corrections_table_id", "table_id"),)
