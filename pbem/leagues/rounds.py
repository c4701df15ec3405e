"""A league's rounds: seating them, starting their games, ending them.

- `preview(...)` seats the next round (pbem.leagues.seating) without starting it;
  `override(...)` lets an organiser set its tables instead, kept until it starts.
- `start_round(...)` seats the round (or takes the override) and creates each table's game
  through the lobby (pbem.services.lobby.seated_game, with the league's settings; seats in
  the seating's order, bot seats played by the game's stand-in bot), recording who sat where.
- A round ends when every game of it has ended (`check_round`; the advance that ends a game
  tells us, pbem.services.game_over), or at its hard date (`tick`), where the game's stand-in
  bot takes every seat still playing and finishes the game, marked in its record (an event,
  "stand-in" order lines, the table's `forced_at`).  Then the members are mailed the
  standings and the next round starts by itself, until the season's last.

The clock's work is `tick(session, now)`, run by beat (worker/league_tasks.py); it also picks
up what a lost message missed, so a round never hangs.
"""
from __future__ import annotations

import hashlib
import logging
from datetime import datetime, timedelta
from typing import Any

from flask import current_app
from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from engine import get_game
from pbem.leagues import mails, seating
from pbem.leagues.league import active_members, current_rounds, get_league, host_of, is_organiser, organised
from pbem.leagues.members import ENTRANT_REASON
from pbem.leagues.models import League, LeagueRound, LeagueTable
from pbem.models import Game, Seat, User
from pbem.services import game_over, lobby
from pbem.services.dispatch import LEAGUE_CHECK_TASK, STALL_GRACE, advance_mode, request_advance
from pbem.services.errors import Conflict, Forbidden, Invalid, ServiceError
from pbem.services.events import log_event
from pbem.services.locking import lock_game, unit_of_work
from pbem.tasks import QUEUE, after_commit, producer
from pbem.text import clean_text

log = logging.getLogger(__name__)

ROUND_END_REASON = "round-end"  # Seat.stand_in_reason of a seat the hard date handed to the bot
Tables = list[list[int | None]]


# ---- seating -------------------------------------------------------------------------------

def past_tables(league: League, before: int | None = None) -> list[list[list[str | None]]]:
    """The season's started rounds as the seating reads them (member keys, None: a bot)."""
    return [[[None if held is None else str(held) for held in table.seats] for table in r.tables]
            for r in current_rounds(league) if r.state != LeagueRound.PLANNED and (before is None or r.number < before)]


def plan(league: League, number: int) -> Tables:
    """Round `number`'s tables for today's members: fewest repeated opponents, then the
    fairest first seats (pbem.leagues.seating), the same for the same league and round."""
    players = [m.key for m in active_members(league)]
    rules = get_game(league.kind)
    # The season's seed every round, so that an exact design begun in round 1 is continued.
    tables = seating.seat_round(players, league.table_size, past_tables(league, number),
                                f"{league.seed}:{league.season}", min_size=rules.min_players)
    return [[None if key is None else int(key) for key in table] for table in tables]


def _next_number(league: League) -> int:
    rounds = current_rounds(league)
    running = [r for r in rounds if r.state == LeagueRound.RUNNING]
    if running:
        raise Conflict(f"round {running[0].number} is still running")
    number = 1 + sum(r.state == LeagueRound.FINISHED for r in rounds)
    if number > league.rounds:
        raise Conflict("every round of the season has been played")
    return number


def _planned_row(session: Session, league: League, number: int) -> LeagueRound:
    row = next((r for r in current_rounds(league) if r.number == number), None)
    if row is None:
        row = LeagueRound(league_id=league.id, season=league.season, number=number, state=LeagueRound.PLANNED)
        league.round_rows.append(row)
        session.flush()
    return row


def next_tables(league: League) -> tuple[int, Tables, bool]:
    """The next round's number, its tables and whether an organiser set them."""
    number = _next_number(league)
    row = next((r for r in current_rounds(league) if r.number == number), None)
    if row is not None and row.pairings is not None and row.overridden_by is not None:
        return number, row.pairings, True
    return number, plan(league, number), False


def preview(session: Session, league_id: int, organiser: User) -> tuple[int, Tables, bool]:
    return next_tables(organised(session, league_id, organiser, "preview pairings"))


def checked_tables(league: League, tables: Any) -> Tables:
    """An organiser's tables: lists of member ids (None: a bot seat), each active member at
    most once (one left out sits the round out), each table a size the game is played at
    with at least one member."""
    rules = get_game(league.kind)
    if not isinstance(tables, list) or not tables or len(tables) > 1000:
        raise Invalid("give the round's tables")
    active = {m.id for m in active_members(league)}
    seen: set[int] = set()
    out: Tables = []
    for table in tables:
        if not isinstance(table, list) or not rules.min_players <= len(table) <= rules.max_players:
            raise Invalid(f"a table has {rules.min_players} to {rules.max_players} seats")
        row: list[int | None] = []
        for held in table:
            if held is not None and (isinstance(held, bool) or not isinstance(held, int) or held not in active):
                raise Invalid(f"{str(held)[:20]!r} is not a member playing in this league")
            if held is not None and held in seen:
                raise Invalid("a member sits at two tables")
            if held is not None:
                seen.add(held)
            row.append(held)
        if all(held is None for held in row):
            raise Invalid("a table needs at least one member")
        out.append(row)
    return out


@unit_of_work
def override(session: Session, league_id: int, organiser: User, tables: Any) -> LeagueRound:
    """Set the next round's tables (None: back to the seating's own)."""
    league = organised(session, league_id, organiser, "set pairings")
    number = _next_number(league)
    row = _planned_row(session, league, number)
    if tables is None:
        row.pairings, row.overridden_by = None, None
    else:
        row.pairings, row.overridden_by = checked_tables(league, tables), organiser.id
    session.commit()
    return row


# ---- starting ------------------------------------------------------------------------------

@unit_of_work
def new_season(session: Session, league_id: int, organiser: User) -> League:
    """After a season's last round: the next season, its rounds from 1, open for registration
    again (members stay; standings start afresh, ratings go on)."""
    league = _lock_league(session, league_id)
    if not is_organiser(league, organiser):
        raise Forbidden("only the league's organisers can start a season")
    if league.status != League.FINISHED:
        raise Conflict("the season is not over yet")
    league.season, league.status = league.season + 1, League.OPEN
    league.registration_closes_at = None  # the organiser starts its first round
    session.commit()
    return league


def _lock_league(session: Session, league_id: int) -> League:
    league = session.scalar(select(League).where(League.id == league_id).with_for_update()
                            .execution_options(populate_existing=True))
    if league is None:
        return get_league(session, league_id)  # raises NotFound
    return league


@unit_of_work
def start_round(session: Session, league_id: int, organiser: User | None, at: datetime) -> LeagueRound:
    """Start the season's next round (an organiser, or None: by itself): its tables as set
    or seated now, a game for each."""
    league = _lock_league(session, league_id)  # two starts at once: the second finds the first's round
    if organiser is not None and not is_organiser(league, organiser):
        raise Forbidden("only the league's organisers can start rounds")
    if league.status == League.FINISHED:
        raise Conflict("the league is over")
    number, tables, overridden = next_tables(league)
    if overridden:
        tables = checked_tables(league, tables)  # members may have left since
    if len([m for table in tables for m in table if m is not None]) < 2:
        raise Conflict("a round needs at least two members")
    row = _planned_row(session, league, number)
    row.pairings, row.state, row.started_at = tables, LeagueRound.RUNNING, at
    row.ends_by = at + timedelta(days=league.round_days)
    league.status = League.RUNNING
    session.commit()
    _create_tables(session, league, row)
    return row


def _game_seed(league: League, row: LeagueRound, number: int) -> int:
    digest = hashlib.sha256(f"{league.seed}:{row.season}:{row.number}:{number}".encode()).hexdigest()
    return int(digest[:13], 16) % lobby.SEED_LIMIT


def _occupant(league: League, member_id: int | None) -> dict[str, Any]:
    if member_id is None:
        return {"bot": get_game(league.kind).stand_in}
    member = next(m for m in league.members if m.id == member_id)
    if member.bot:
        return {"user_id": member.user_id, "stand_in": member.bot, "stand_in_reason": ENTRANT_REASON}
    return {"user_id": member.user_id}


def table_title(league: League, row: LeagueRound, number: int) -> str:
    return f"{clean_text(league.name, 60)} · season {row.season} round {row.number} · table {number}"


def _create_tables(session: Session, league: League, row: LeagueRound) -> None:
    """Each table of a running round that has no game yet gets one (each its own commit, so
    a round whose start broke off is completed by the next check)."""
    host = host_of(session, league)
    made = {table.number for table in row.tables}
    for number, seats in enumerate(row.pairings or [], start=1):
        if number in made:
            continue
        try:
            game_id = _create_table(session, league, row, host, number, seats)
        except IntegrityError:  # another process made this table meanwhile
            session.rollback()
            continue
        # Bots may owe the first decisions.  Asked before anything loads again (which would
        # open a transaction and hold the task until a commit that may never come).
        request_advance(session, game_id)


def _create_table(session: Session, league: League, row: LeagueRound, host: User, number: int,
                  seats: list[int | None]) -> int:
    """Table `number`'s game and its record, started, in one commit; the game's id."""
    game = lobby.seated_game(session, host, lobby.NewGame(
        title=table_title(league, row, number), game=league.kind, players=len(seats), setup=dict(league.setup),
        options=dict(league.options), deadlines=dict(league.deadline_policy), seed=_game_seed(league, row, number),
        rated=league.rated), [_occupant(league, held) for held in seats])
    game_id = game.id
    session.add(LeagueTable(round_id=row.id, number=number, game_id=game_id, seats=list(seats)))
    lobby.start_game(session, game, in_order=True)  # commits the game and its table together
    return game_id


# ---- ending --------------------------------------------------------------------------------

def _lock_round(session: Session, round_id: int) -> LeagueRound | None:
    return session.scalar(select(LeagueRound).where(LeagueRound.id == round_id).with_for_update()
                          .execution_options(populate_existing=True))


@unit_of_work
def check_round(session: Session, round_id: int, at: datetime) -> bool:
    """End the round if every game of it has ended: mail the standings, then start the next
    round (or end the league after the season's last).  True if it ended now."""
    row = _lock_round(session, round_id)
    if row is None or row.state != LeagueRound.RUNNING:
        session.rollback()
        return False
    league = row.league
    if len(row.tables) < len(row.pairings or []):
        session.commit()
        if row.started_at is not None and row.started_at < at - STALL_GRACE:
            _create_tables(session, league, row)  # its start broke off: finish it
        return False  # (else it is still being started, by whoever started it)
    statuses = session.scalars(select(Game.status).where(Game.id.in_([t.game_id for t in row.tables])))
    if any(status in (Game.OPEN, Game.ACTIVE) for status in statuses):
        session.rollback()
        return False
    row.state, row.finished_at = LeagueRound.FINISHED, at
    last = row.number >= league.rounds
    if last:
        league.status = League.FINISHED
    session.flush()
    mails.round_ended(session, league, row)
    session.commit()
    if not last:
        try:
            start_round(session, league.id, None, at)
        except ServiceError as error:  # too few members left, say: the organisers start it by hand
            log.warning("league %s: the next round did not start: %s", league.id, error.message)
    return True


@unit_of_work
def force_round(session: Session, round_id: int, at: datetime) -> list[int]:
    """The hard date: the game's stand-in bot takes every seat of the round still played by
    a person, and the game is advanced to its end.  The games it forced."""
    row = session.get(LeagueRound, round_id)
    if row is None or row.state != LeagueRound.RUNNING:
        return []
    forced = []
    for table in row.tables:
        game = lock_game(session, table.game_id)
        if game.status != Game.ACTIVE:
            session.rollback()
            continue
        bot = get_game(game.kind).stand_in
        handed = []
        for seat in game.seats:
            if seat.user_id is not None and seat.stand_in_reason != ENTRANT_REASON:
                seat.stand_in, seat.stand_in_reason, seat.waiting = bot, ROUND_END_REASON, False
                handed.append(seat.name)
        log_event(session, game, "round-end", f"the league round's hard date passed: the {bot} bot finishes "
                  f"the game for {', '.join(handed) or 'nobody'}", at)
        table.forced_at = at
        game_id = game.id
        session.commit()
        request_advance(session, game_id)  # before anything loads again (see _create_tables)
        forced.append(game_id)
    return forced


def tick(session: Session, now: datetime) -> dict[str, list[int]]:
    """The leagues' work by the clock (beat, every tick): rounds past their hard date are
    finished by bots; running rounds whose games all ended are closed (and the next one
    started); leagues whose registration closed, or whose next round did not start, start it."""
    report: dict[str, list[int]] = {"forced": [], "ended": [], "started": []}
    due = list(session.scalars(select(LeagueRound.id).where(LeagueRound.state == LeagueRound.RUNNING,
                                                             LeagueRound.ends_by <= now)))
    session.rollback()
    for round_id in due:
        report["forced"] += force_round(session, round_id, now)
    running = list(session.scalars(select(LeagueRound.id).where(LeagueRound.state == LeagueRound.RUNNING)))
    session.rollback()
    for game_id in _unattended(session, now):
        request_advance(session, game_id)
    for round_id in running:
        if check_round(session, round_id, now):
            report["ended"].append(round_id)
    for league_id in _waiting_leagues(session, now):
        try:
            report["started"].append(start_round(session, league_id, None, now).id)
        except ServiceError:
            session.rollback()  # too few members yet: tried again next tick
    return report


def _unattended(session: Session, now: datetime) -> list[int]:
    """Running games of running rounds that wait for nobody and have not moved for a
    while: their advance was lost (a broker restart), so they are asked for again."""
    waiting = select(Seat.game_id).where(Seat.waiting.is_(True))
    ids = list(session.scalars(
        select(Game.id).join(LeagueTable, LeagueTable.game_id == Game.id).join(LeagueRound)
        .where(LeagueRound.state == LeagueRound.RUNNING, Game.status == Game.ACTIVE,
               Game.updated_at < now - STALL_GRACE, Game.id.not_in(waiting))))
    session.rollback()
    return ids


def _waiting_leagues(session: Session, now: datetime) -> list[int]:
    """Leagues due a round: registration closed and none started, or running with no round
    under way and rounds left."""
    busy = select(LeagueRound.league_id).where(LeagueRound.state == LeagueRound.RUNNING)
    opened = session.scalars(select(League.id).where(League.status == League.OPEN,
                                                     League.registration_closes_at <= now))
    stalled = session.scalars(select(League.id).where(League.status == League.RUNNING, League.id.not_in(busy)))
    ids = sorted(set(opened) | set(stalled))
    session.rollback()
    return ids


# ---- told by the advance that ended a game ------------------------------------------------

def _send_check(round_id: int, app: Any) -> None:
    try:
        producer(app).send_task(LEAGUE_CHECK_TASK, args=[round_id], queue=QUEUE)
    except Exception:  # noqa: BLE001 - the league tick finds the round anyway
        log.exception("could not queue the check of league round %s", round_id)


@game_over.listen
def table_ended(session: Session, game: Game) -> None:
    """A game ended: if it is a league table, its round is checked once this commits (by a
    worker; without one, by the league tick or the caller)."""
    round_id = session.scalar(select(LeagueTable.round_id).where(LeagueTable.game_id == game.id))
    if round_id is not None and advance_mode() == "queue":
        app = current_app._get_current_object()  # type: ignore[attr-defined]
        after_commit(session, lambda: _send_check(round_id, app))
