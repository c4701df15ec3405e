"""League endpoints (docs/leagues.md): the league, its standings and its pairings, read-only
and public like the league's pages."""
from __future__ import annotations

from typing import Any

from flask import request

from pbem.api import api_bp
from pbem.extensions import db
from pbem.leagues import results
from pbem.leagues.league import get_league
from pbem.schemas import LeagueSchema, PairingsSchema, StandingsSchema
from pbem.services.errors import Invalid


@api_bp.get("/leagues/<int:league_id>")
def league(league_id: int) -> Any:
    return LeagueSchema().dump(get_league(db.session(), league_id))


@api_bp.get("/leagues/<int:league_id>/standings")
def league_standings(league_id: int) -> Any:
    found = get_league(db.session(), league_id)
    given = request.args.get("round", "")
    if given and (not given.isdigit() or len(given) > 4):
        raise Invalid("round is a round's number")
    upto = int(given) if given else None
    rows = results.rows_as_data(results.standings(db.session(), found, upto=upto),
                                results.member_ratings(db.session(), found))
    return StandingsSchema().dump({"league": found.id, "season": found.season, "round": upto,
                                   "scoring": found.scoring, "tiebreaks": list(results.tiebreak_names(found)),
                                   "standings": rows})


@api_bp.get("/leagues/<int:league_id>/pairings")
def league_pairings(league_id: int) -> Any:
    found = get_league(db.session(), league_id)
    rounds = []
    for row in found.round_rows:
        tables = []
        for table in row.tables:
            outcome = results.outcome(table, table.game)
            tables.append({"number": table.number, "game": table.game_id, "seats": table.seats,
                           "status": table.game.status, "places": outcome.places if outcome else None,
                           "void": bool(outcome and outcome.void), "forced": table.forced_at is not None})
        rounds.append({"season": row.season, "number": row.number, "state": row.state, "tables": tables})
    return PairingsSchema().dump({"league": found.id, "rounds": rounds})
