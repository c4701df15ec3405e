"""What a league's finished games count for: each table's outcome (the game's result, less
forfeits, as an organiser corrected or annulled it), the standings (pbem.leagues.scoring) and
the ratings of a game kind (pbem.leagues.ratings), and the organisers' corrections.

Who is rated (docs/leagues.md, "Ratings" and "Running a league"): every rated game of the kind,
league table or not, in the order the games ended; a seat counts for the person holding it
when the game ended (a replacement who took it over; a member whose seat a bot finished at
the round's hard date or after they withdrew; a bot entrant); bot seats do not count.  An
annulled table rates nobody; a corrected one rates by the corrected places.
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any, Iterable

from sqlalchemy import select
from sqlalchemy.orm import Session

from pbem.leagues import ratings, scoring
from pbem.leagues.league import organised
from pbem.leagues.members import ENTRANT_REASON, WITHDRAWN_REASON
from pbem.leagues.models import League, LeagueCorrection, LeagueMember, LeagueRound, LeagueTable, REASON_MAX
from pbem.models import Game, GameEvent, OrderLogEntry, User
from pbem.services.errors import Conflict, Invalid, NotFound
from pbem.services.locking import unit_of_work
from pbem.text import clean_text


@dataclass
class Outcome:
    """A finished table as standings and ratings read it.  `keys[i]`: who sat at seat
    position i (a member's key, or "bot<table>.<i>" for a bot seat)."""

    table: LeagueTable
    keys: list[str]
    places: dict[str, int]
    scores: dict[str, float]
    bots: frozenset[str]
    void: bool
    correction: LeagueCorrection | None

    def as_result(self) -> Any:
        return scoring.TableResult(scores=self.scores, places=self.places, bots=self.bots, void=self.void)


def seat_keys(table: LeagueTable) -> list[str]:
    return [str(held) if held is not None else f"bot{table.id}.{i}" for i, held in enumerate(table.seats)]


def _ranked(places: dict[str, int]) -> dict[str, int]:
    """Places again from 1, ties kept (1, 2, 2, 4), for what is left after some are taken out."""
    order = sorted(places, key=lambda key: places[key])
    out: dict[str, int] = {}
    for i, key in enumerate(order):
        out[key] = out[order[i - 1]] if i and places[key] == places[order[i - 1]] else i + 1
    return out


def outcome(table: LeagueTable, game: Game) -> Outcome | None:
    """The table's outcome, or None while its game has not finished (an aborted game counts
    as annulled)."""
    correction = table.corrections[-1] if table.corrections else None
    if correction is not None and correction.action == LeagueCorrection.RESTORE:
        correction = None
    keys = seat_keys(table)
    bots = frozenset(key for key, held in zip(keys, table.seats) if held is None)
    if game.status == Game.ABORTED:
        return Outcome(table, keys, {}, {}, bots, True, correction)
    if game.status != Game.FINISHED or not game.result:
        return None
    of_seat = {seat.name: keys[seat.position] for seat in game.seats}
    result = game.result
    given = result.get("places") or {name: i for i, name in enumerate(result["ranking"], start=1)}
    places = {of_seat[name]: int(place) for name, place in given.items()}
    scores = {of_seat[name]: float(score) for name, score in result["scores"].items()}
    forfeits = {str(held) for held in table.forfeits or []} & set(places)
    if forfeits:  # behind everyone who played on, sharing the last place, with nothing scored
        places = _ranked({key: place for key, place in places.items() if key not in forfeits})
        places.update({key: len(places) + 1 for key in forfeits})
        scores.update({key: 0.0 for key in forfeits})
    void = False
    if correction is not None and correction.action == LeagueCorrection.ANNUL:
        void = True
    elif correction is not None and correction.places:
        places = {key: int(place) for key, place in correction.places.items()}
    return Outcome(table, keys, places, scores, bots, void, correction)


def league_tables(session: Session, league: League, season: int | None = None) -> list[tuple[LeagueRound, LeagueTable, Game]]:
    season = league.season if season is None else season
    rows = session.execute(select(LeagueRound, LeagueTable, Game).join(LeagueTable, LeagueTable.round_id == LeagueRound.id)
                           .join(Game, Game.id == LeagueTable.game_id)
                           .where(LeagueRound.league_id == league.id, LeagueRound.season == season)
                           .order_by(LeagueRound.number, LeagueTable.number))
    return [tuple(row) for row in rows]  # type: ignore[misc]


@dataclass
class Row:
    """One line of the standings: the member and their standing (None: no game counted yet)."""

    member: LeagueMember
    standing: Any


def standings(session: Session, league: League, season: int | None = None, upto: int | None = None) -> list[Row]:
    """The season's standings (through round `upto` if given), best first; members yet to
    finish a game follow."""
    results = []
    for row, table, game in league_tables(session, league, season):
        if upto is not None and row.number > upto:
            continue
        found = outcome(table, game)
        if found is not None:
            results.append(found.as_result())
    ranked = scoring.standings(league.scoring, results)
    members = {m.key: m for m in league.members}
    rows = [Row(members[s.player], s) for s in ranked if s.player in members]
    listed = {row.member.id for row in rows}
    rows += [Row(m, None) for m in league.members if m.id not in listed and m.active]
    return rows


def tiebreak_names(league: League) -> tuple[str, ...]:
    return tuple(scoring.TIEBREAKS.get(league.scoring, ()))


# ---- corrections --------------------------------------------------------------------------

def get_table(session: Session, league: League, table_id: int) -> LeagueTable:
    table = session.get(LeagueTable, table_id)
    if table is None or table.round.league_id != league.id:
        raise NotFound(f"there is no table {table_id} in this league")
    return table


def _checked_places(table: LeagueTable, places: Any) -> dict[str, int]:
    keys = seat_keys(table)
    if not isinstance(places, dict) or set(map(str, places)) != set(keys):
        raise Invalid("give a place for every seat of the table")
    out = {}
    for key, place in places.items():
        if isinstance(place, bool) or not isinstance(place, int) or not 1 <= place <= len(keys):
            raise Invalid(f"a place is a whole number from 1 to {len(keys)}")
        out[str(key)] = place
    return _ranked(out)


@unit_of_work
def correct(session: Session, league_id: int, table_id: int, organiser: User, action: str, reason: Any,
            at: datetime, places: Any = None) -> LeagueCorrection:
    """An organiser annuls a table's result, corrects its places (every seat: member ids,
    and the bots' "bot<table>.<i>"), or restores the game's own; the reason is kept."""
    league = organised(session, league_id, organiser, "correct results")
    table = get_table(session, league, table_id)
    if action not in (LeagueCorrection.ANNUL, LeagueCorrection.CORRECT, LeagueCorrection.RESTORE):
        raise Invalid("the action is annul, correct or restore")
    text = clean_text(reason if isinstance(reason, str) else "", REASON_MAX)
    if not text:
        raise Invalid("give a reason: it is kept with the result")
    if table.game.status not in (Game.FINISHED, Game.ABORTED):
        raise Conflict("the game has not ended yet")
    checked = _checked_places(table, places) if action == LeagueCorrection.CORRECT else None
    row = LeagueCorrection(table_id=table.id, action=action, places=checked, reason=text, by=organiser.id, at=at)
    table.corrections.append(row)
    session.commit()
    return row


# ---- ratings ----------------------------------------------------------------------------

OWN = ("player", "default")  # order-log lines a seat's person answers for (a missed turn's default too)


def _seat_decisions(session: Session, game: Game) -> dict[str, Any]:
    """Per seat name: its order-log lines' (seq, by) and when a replacement took it over."""
    lines: dict[str, list[tuple[int, str]]] = {}
    for seq, seat, by in session.execute(select(OrderLogEntry.seq, OrderLogEntry.seat, OrderLogEntry.by)
                                         .where(OrderLogEntry.game_id == game.id)):
        lines.setdefault(seat, []).append((seq, by))
    takeovers = {seat: seq or 0 for seat, seq in session.execute(
        select(GameEvent.seat, GameEvent.decision_seq).where(GameEvent.game_id == game.id,
                                                              GameEvent.type == "takeover"))}
    return {"lines": lines, "takeovers": takeovers}


def _previous_holder(table: LeagueTable | None, position: int) -> str | None:
    """The member a league replacement took the seat over from (a user id as text)."""
    if table is None or table.seats[position] is None:
        return None
    successor = table.seats[position]
    before = next((m for m in table.round.league.members if m.replaced_by_id == successor), None)
    return str(before.user_id) if before is not None else None


def _rated_seats(game: Game, table: LeagueTable | None, places: dict[int, int], known: dict[str, Any]) -> list[Any]:
    """Every seat of the game as the seat rule reads it (pbem.leagues.ratings.rated_game)."""
    seats = []
    for seat in sorted(game.seats, key=lambda s: s.position):
        mine = known["lines"].get(seat.name, [])
        total, place = len(mine), places[seat.position]
        if seat.user_id is None or seat.bot is not None or (table is not None and table.seats[seat.position] is None):
            seats.append(ratings.Seat(place=place, decisions={}, total=total))
            continue
        person = str(seat.user_id)
        own = [(seq, by) for seq, by in mine if by in OWN or seat.stand_in_reason == ENTRANT_REASON]
        decisions: dict[str, int] = {}
        came_in = known["takeovers"].get(seat.name)
        previous = _previous_holder(table, seat.position) if came_in is not None else None
        if previous is not None:
            decisions[previous] = sum(seq <= came_in for seq, _ in own)
            own = [(seq, by) for seq, by in own if seq > came_in]
        decisions[person] = len(own)
        holder = None if seat.stand_in_reason == WITHDRAWN_REASON else person  # who left is rated last
        seats.append(ratings.Seat(place=place, decisions=decisions, total=total, holder=holder))
    return seats


def rated_games(session: Session, kind: str) -> list[Any]:
    """Every finished rated game of the kind as ratings.RatedGame, in the order they ended,
    by the seat rule (docs/leagues.md, "Ratings"): people by user id, bots not rated."""
    games = list(session.scalars(select(Game).where(Game.kind == kind, Game.rated.is_(True),
                                                    Game.status == Game.FINISHED)
                                 .order_by(Game.finished_at, Game.id)))
    tables = {t.game_id: t for t in session.scalars(select(LeagueTable).where(
        LeagueTable.game_id.in_([g.id for g in games])))} if games else {}
    out = []
    for game in games:
        table = tables.get(game.id)
        if table is not None:
            found = outcome(table, game)
            if found is None or found.void:
                continue
            places = {i: found.places[key] for i, key in enumerate(found.keys)}
        else:
            result = game.result or {}
            given = result.get("places") or {name: i for i, name in enumerate(result.get("ranking", []), start=1)}
            places = {seat.position: int(given[seat.name]) for seat in game.seats}
        out.append(ratings.rated_game(str(game.id), _rated_seats(game, table, places,
                                                                 _seat_decisions(session, game))))
    return out


def kind_ratings(session: Session, kind: str) -> tuple[dict[str, Any], list[tuple[str, str, Any]]]:
    """Ratings of every person who played a rated game of the kind (by user id as text), and
    the history: (game id, user id, rating after that game)."""
    return ratings.rate(rated_games(session, kind))


def leaderboard(session: Session, kind: str, limit: int = 100) -> list[tuple[User, Any]]:
    found, _ = kind_ratings(session, kind)
    users = {str(u.id): u for u in session.scalars(select(User).where(User.id.in_([int(k) for k in found])))} \
        if found else {}
    board = sorted(((users[k], r) for k, r in found.items() if k in users), key=lambda pair: -pair[1].ordinal)
    return board[:limit]


def history_of(session: Session, kind: str, user_id: int) -> list[tuple[int, Any]]:
    """A person's rating after each rated game of the kind: (game id, rating)."""
    _, history = kind_ratings(session, kind)
    return [(int(key), rating) for key, player, rating in history if player == str(user_id)]


def member_ratings(session: Session, league: League) -> dict[int, Any]:
    """The members' ratings in the league's game (member id -> Rating, None: never rated)."""
    found, _ = kind_ratings(session, league.kind)
    return {m.id: found.get(str(m.user_id)) for m in league.members}


def rows_as_data(rows: Iterable[Row], rated: dict[int, Any] | None = None) -> list[dict[str, Any]]:
    """Standings as plain data (JSON, CSV, the simulation's report)."""
    out = []
    for number, row in enumerate(rows, start=1):
        s = row.standing
        rating = (rated or {}).get(row.member.id)
        out.append({"place": s.place if s else None, "member": row.member.id, "player": row.member.user.display_name,
                    "status": row.member.status, "points": s.points if s else 0.0, "games": s.games if s else 0,
                    "wins": s.wins if s else 0.0, "tiebreaks": list(s.tiebreaks) if s else [],
                    "mu": rating.mu if rating else None, "sigma": rating.sigma if rating else None,
                    "ordinal": rating.ordinal if rating else None})
    return out
