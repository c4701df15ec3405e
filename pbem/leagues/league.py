"""Creating a league and finding it: its settings checked as a game's are (every table of it
is created with them), its organisers, and the lists of leagues."""
from __future__ import annotations

import secrets
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session, selectinload

from pbem.leagues import scoring
from pbem.leagues.models import League, LeagueMember, LeagueOrganiser, LeagueRound
from pbem.models import TITLE_MAX, User, now
from pbem.services import lobby
from pbem.services.accounts import normalize_address, owner_of
from pbem.services.errors import Forbidden, Invalid, NotFound
from pbem.services.locking import unit_of_work
from pbem.text import one_line

WITHDRAWAL = ("forfeit", "replace")  # a withdrawn member's running games: forfeited, or a replacement's
MAX_ROUNDS = 50
MAX_ROUND_DAYS = 365
MAX_CAP = 1000
MAX_ORGANISERS = 10


@dataclass
class NewLeague:
    """What an organiser asks for.  `game`: a registered game; `setup`, `options`,
    `deadlines`: as for a game (pbem.services.lobby.NewGame), for every table."""

    name: str
    game: str | None = None
    table_size: int = 4
    rounds: int = 3
    round_days: int = 28
    scoring: str = "rank"
    rated: bool = True
    cap: int | None = None
    registration_closes_at: datetime | None = None
    withdrawal: str = "forfeit"
    setup: dict[str, Any] = field(default_factory=dict)
    options: dict[str, Any] = field(default_factory=dict)
    deadlines: dict[str, Any] | None = None
    seed: str | None = None  # None: a random secret one (tests and simulations fix it)


def _whole(value: Any, name: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise Invalid(f"{name} must be a whole number from {low} to {high}")
    return value


def checked_name(text: Any) -> str:
    name = one_line(text if isinstance(text, str) else "")
    if not 1 <= len(name) <= TITLE_MAX:
        raise Invalid(f"a league's name has 1 to {TITLE_MAX} characters")
    return name


@unit_of_work
def create_league(session: Session, organiser: User, new: NewLeague) -> League:
    name = checked_name(new.name)
    rules = lobby.rules_for(new.game)
    size = _whole(new.table_size, "the table size", rules.min_players, rules.max_players)  # type: ignore[attr-defined]
    setup, options, policy = lobby.checked_settings(lobby.NewGame(
        title=name, game=rules.name, players=size, setup=dict(new.setup or {}), options=dict(new.options or {}),
        deadlines=new.deadlines))
    if new.scoring not in scoring.SYSTEMS:
        raise Invalid(f"scoring must be one of {', '.join(scoring.SYSTEMS)}")
    if new.withdrawal not in WITHDRAWAL:
        raise Invalid(f"the withdrawal rule must be one of {', '.join(WITHDRAWAL)}")
    cap = None if new.cap is None else _whole(new.cap, "the cap", 2, MAX_CAP)
    closes = new.registration_closes_at
    if closes is not None and (not isinstance(closes, datetime) or closes.tzinfo is None):
        raise Invalid("the closing date needs a time zone")
    league = League(name=name, kind=rules.name, setup=setup, options=options, deadline_policy=policy,
                    scoring=new.scoring, table_size=size, rated=bool(new.rated), cap=cap,
                    registration_closes_at=closes.astimezone(timezone.utc) if closes else None,
                    withdrawal=new.withdrawal, rounds=_whole(new.rounds, "rounds", 1, MAX_ROUNDS),
                    round_days=_whole(new.round_days, "days per round", 1, MAX_ROUND_DAYS),
                    seed=(str(new.seed)[:64] if new.seed is not None else secrets.token_hex(16)),
                    created_by=organiser.id, created_at=now())
    league.organisers = [LeagueOrganiser(user_id=organiser.id)]
    session.add(league)
    session.commit()
    return league


def get_league(session: Session, league_id: int) -> League:
    league = session.get(League, league_id)
    if league is None:
        raise NotFound(f"there is no league {league_id}")
    return league


def is_organiser(league: League, user: User | None) -> bool:
    return user is not None and any(o.user_id == user.id for o in league.organisers)


def organised(session: Session, league_id: int, user: User | None, action: str) -> League:
    """The league, if `user` organises it; else Forbidden (NotFound for no league)."""
    league = get_league(session, league_id)
    if not is_organiser(league, user):
        raise Forbidden(f"only the league's organisers can {action}")
    return league


def person(session: Session, address: Any) -> User:
    """The person who signed in with `address`: a replacement, an organiser to add."""
    user = owner_of(session, normalize_address(address if isinstance(address, str) else ""))
    if user is None:
        raise Invalid("nobody has signed in with that address yet")
    return user


@unit_of_work
def add_organiser(session: Session, league_id: int, by: User, user: User) -> None:
    league = organised(session, league_id, by, "add organisers")
    if is_organiser(league, user):
        return
    if len(league.organisers) >= MAX_ORGANISERS:
        raise Invalid(f"a league has at most {MAX_ORGANISERS} organisers")
    league.organisers.append(LeagueOrganiser(user_id=user.id))
    session.commit()


def host_of(session: Session, league: League) -> User:
    """Who creates the league's games (their host): its creator, else its first organiser."""
    ids = ([league.created_by] if league.created_by else []) + [o.user_id for o in league.organisers]
    for user_id in ids:
        user = session.get(User, user_id)
        if user is not None:
            return user
    raise Invalid("the league has no organiser left to host its games")


LIST_LIMIT = 100


def all_leagues(session: Session, limit: int = LIST_LIMIT) -> list[League]:
    return list(session.scalars(select(League).options(selectinload(League.members))
                                .order_by(League.created_at.desc(), League.id.desc()).limit(limit)))


def current_rounds(league: League) -> list[LeagueRound]:
    """The rounds of the league's current season, in order."""
    return [r for r in league.round_rows if r.season == league.season]


def active_members(league: League) -> list[LeagueMember]:
    return [m for m in league.members if m.active]
