"""A league's members: registration (a cap and a closing date), withdrawal (the league's
rule: its running games forfeited, or played by the game's stand-in bot until a replacement
takes them), replacement, and the organisers' bot entrants (members whose seats a bot plays:
house bots, simulations)."""
from __future__ import annotations

from datetime import datetime

from sqlalchemy import select
from sqlalchemy.orm import Session

from engine import get_game
from pbem.leagues.league import active_members, get_league, is_organiser, organised
from pbem.leagues.models import League, LeagueMember, LeagueRound, LeagueTable
from pbem.models import NAME_MAX, Game, Seat, User
from pbem.services import kinds
from pbem.services.dispatch import request_advance
from pbem.services.errors import Conflict, Forbidden, Invalid, NotFound
from pbem.services.events import log_event
from pbem.services.locking import lock_game, unit_of_work
from pbem.services.takeover import clear_seat, rename_seat
from pbem.text import one_line

WITHDRAWN_REASON = "withdrawn"  # Seat.stand_in_reason of a withdrawn member's seat
ENTRANT_REASON = "entrant"  # ... of a bot entrant's seat


def _open_for(league: League, at: datetime) -> None:
    if league.status == League.FINISHED:
        raise Conflict("the league is over")
    if league.registration_closes_at is not None and at >= league.registration_closes_at:
        raise Conflict("registration for this league is closed")
    if league.cap is not None and len(active_members(league)) >= league.cap:
        raise Conflict(f"the league is full ({league.cap} members)")


def _member_of(league: League, user: User) -> LeagueMember | None:
    return next((m for m in league.members if m.user_id == user.id), None)


@unit_of_work
def register(session: Session, league_id: int, user: User, at: datetime) -> LeagueMember:
    """A person joins; seated from the next round that starts."""
    league = get_league(session, league_id)
    if _member_of(league, user) is not None:
        raise Conflict("you are registered already" if _member_of(league, user).active  # type: ignore[union-attr]
                       else "you left this league; ask an organiser")
    _open_for(league, at)
    member = LeagueMember(league_id=league.id, user_id=user.id, joined_at=at)
    session.add(member)
    session.commit()
    return member


@unit_of_work
def add_bot_entrant(session: Session, league_id: int, organiser: User, name: str, bot: str,
                    at: datetime) -> LeagueMember:
    """An organiser enters a bot as a member: a person without an address whose seats the
    `bot` plays (in the record as a stand-in); ranked and rated like any member."""
    league = organised(session, league_id, organiser, "enter bots")
    kinds.check_bot(league.kind, bot)
    shown = one_line(name)
    if not 1 <= len(shown) <= NAME_MAX:
        raise Invalid(f"a name has 1 to {NAME_MAX} characters")
    _open_for(league, at)
    user = User(display_name=shown)
    session.add(user)
    session.flush()
    member = LeagueMember(league_id=league.id, user_id=user.id, bot=bot, joined_at=at)
    session.add(member)
    session.commit()
    return member


def get_member(league: League, member_id: int) -> LeagueMember:
    member = next((m for m in league.members if m.id == member_id), None)
    if member is None:
        raise NotFound(f"there is no member {member_id} in this league")
    return member


def running_seats(session: Session, league: League, member: LeagueMember) -> list[tuple[LeagueTable, int]]:
    """The member's places at tables whose games still run: (table, seat position)."""
    rows = session.scalars(select(LeagueTable).join(LeagueRound).join(Game, Game.id == LeagueTable.game_id)
                           .where(LeagueRound.league_id == league.id, Game.status == Game.ACTIVE))
    return [(table, i) for table in rows for i, held in enumerate(table.seats) if held == member.id]


def _seat_at(game: Game, position: int) -> Seat:
    return next(seat for seat in game.seats if seat.position == position)


@unit_of_work
def withdraw(session: Session, league_id: int, member_id: int, by: User, at: datetime) -> LeagueMember:
    """A member leaves (themselves, or an organiser withdraws them).  Their running games go
    to the game's stand-in bot at once; under "forfeit" those tables place them last."""
    league = get_league(session, league_id)
    member = get_member(league, member_id)
    if member.user_id != by.id and not is_organiser(league, by):
        raise Forbidden("only the member or an organiser can withdraw a member")
    if not member.active:
        raise Conflict("this member has left already")
    member.status, member.left_at = LeagueMember.WITHDRAWN, at
    games = []
    for table, position in running_seats(session, league, member):
        game = lock_game(session, table.game_id)
        seat = _seat_at(game, position)
        seat.stand_in, seat.stand_in_reason = get_game(game.kind).stand_in, WITHDRAWN_REASON
        seat.waiting = False
        log_event(session, game, "withdrawn", f"{member.user.display_name} withdrew from {league.name}; "
                  f"the {seat.stand_in} bot plays {seat.name}", at, seat=seat.name, user_id=member.user_id)
        if league.withdrawal == "forfeit":
            table.forfeits = sorted(set(table.forfeits or []) | {member.id})
        games.append(game.id)
    session.commit()
    for game_id in games:
        request_advance(session, game_id)
    return member


@unit_of_work
def replace(session: Session, league_id: int, member_id: int, organiser: User, user: User,
            at: datetime) -> LeagueMember:
    """An organiser names `user` to replace a member (who leaves, if still in): the new
    member plays the rounds to come and, under the "replace" rule, takes over the seats of
    the games still running (their results count for the replacement)."""
    league = organised(session, league_id, organiser, "replace members")
    member = get_member(league, member_id)
    if member.status == LeagueMember.REPLACED:
        raise Conflict("this member was replaced already")
    if _member_of(league, user) is not None:
        raise Conflict(f"{user.display_name} is in this league already")
    successor = LeagueMember(league_id=league.id, user_id=user.id, joined_at=at)
    session.add(successor)
    session.flush()
    member.status, member.replaced_by_id = LeagueMember.REPLACED, successor.id
    member.left_at = member.left_at or at
    games = []
    if league.withdrawal == "replace":
        for table, position in running_seats(session, league, member):
            game = lock_game(session, table.game_id)
            seat = _seat_at(game, position)
            before = seat.label
            clear_seat(session, game, seat)
            seat.user_id, seat.user, seat.joined_at = user.id, user, at
            rename_seat(session, game, seat.name, user.display_name)
            table.seats = [successor.id if held == member.id else held for held in table.seats]
            log_event(session, game, "takeover", f"{user.display_name} replaces {before} ({league.name})", at,
                      seat=seat.name, user_id=user.id)
            games.append(game.id)
    session.commit()
    for game_id in games:
        request_advance(session, game_id)  # the seat now waits for its new player
    return successor
