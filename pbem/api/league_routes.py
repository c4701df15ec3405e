"""League endpoints (docs/leagues.md): the league, its standings and its pairings, public
like the league's pages; and what members and organisers do on those pages, with a token:
create a league, register, withdraw, and the organisers' tools."""
from __future__ import annotations

from typing import Any

from flask import request

from pbem.api import api_bp
from pbem.api.routes import _body, _user
from pbem.extensions import db
from pbem.leagues import members, results, rounds
from pbem.leagues.league import NewLeague, add_organiser, all_leagues, create_league, get_league, organised, person
from pbem.leagues.models import League, LeagueRound
from pbem.models import now
from pbem.schemas import (BotEntrantSchema, CorrectionCreateSchema, CorrectionSchema, LeagueCreateSchema,
                          LeagueMemberSchema, LeagueSchema, NextRoundSchema, PairingRoundSchema, PairingsSchema,
                          PairingsSetSchema, PersonSchema, StandingsSchema, WithdrawSchema)
from pbem.services.errors import Invalid


def _league(league_id: int) -> Any:
    return LeagueSchema().dump(get_league(db.session(), league_id))


@api_bp.get("/leagues")
def leagues() -> Any:
    return {"leagues": LeagueSchema(only=("id", "name", "game", "status", "season")).dump(
        all_leagues(db.session()), many=True)}


@api_bp.post("/leagues")
def new_league() -> Any:
    user = _user()
    data = _body(LeagueCreateSchema())
    closes = data.pop("registration_closes_at")
    league = create_league(db.session(), user, NewLeague(registration_closes_at=closes, **data))
    return _league(league.id), 201


@api_bp.get("/leagues/<int:league_id>")
def league(league_id: int) -> Any:
    return _league(league_id)


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


def _round_data(row: LeagueRound) -> dict[str, Any]:
    """A round's tables: who sat where, each game and its places once over."""
    tables = []
    for table in row.tables:
        outcome = results.outcome(table, table.game)
        tables.append({"number": table.number, "game": table.game_id, "seats": table.seats,
                       "status": table.game.status, "places": outcome.places if outcome else None,
                       "void": bool(outcome and outcome.void), "forced": table.forced_at is not None})
    return {"season": row.season, "number": row.number, "state": row.state, "tables": tables}


@api_bp.get("/leagues/<int:league_id>/pairings")
def league_pairings(league_id: int) -> Any:
    found = get_league(db.session(), league_id)
    return PairingsSchema().dump({"league": found.id, "rounds": [_round_data(row) for row in found.round_rows]})


# ---- members ----------------------------------------------------------------------------------

@api_bp.post("/leagues/<int:league_id>/register")
def league_register(league_id: int) -> Any:
    return LeagueMemberSchema().dump(members.register(db.session(), league_id, _user(), now())), 201


def _optional_body(schema: Any) -> dict[str, Any]:
    """A body that may be left out altogether."""
    return _body(schema) if request.get_data() else {}


@api_bp.post("/leagues/<int:league_id>/withdraw")
def league_withdraw(league_id: int) -> Any:
    user = _user()
    member_id = _optional_body(WithdrawSchema()).get("member")
    if member_id is None:
        found = get_league(db.session(), league_id)
        mine = next((m for m in found.members if m.user_id == user.id), None)
        if mine is None:
            raise Invalid("you are not in this league")
        member_id = mine.id
    return LeagueMemberSchema().dump(members.withdraw(db.session(), league_id, member_id, user, now()))


# ---- organisers -------------------------------------------------------------------------------

def _next_round(found: tuple[int, Any, bool]) -> Any:
    number, tables, overridden = found
    return NextRoundSchema().dump({"round": number, "tables": tables, "overridden": overridden})


@api_bp.get("/leagues/<int:league_id>/next-round")
def league_next_round(league_id: int) -> Any:
    return _next_round(rounds.preview(db.session(), league_id, _user()))


@api_bp.put("/leagues/<int:league_id>/next-round")
def league_set_pairings(league_id: int) -> Any:
    user = _user()
    tables = _body(PairingsSetSchema())["tables"]
    rounds.override(db.session(), league_id, user, tables)
    return _next_round(rounds.preview(db.session(), league_id, _user()))


@api_bp.delete("/leagues/<int:league_id>/next-round")
def league_reset_pairings(league_id: int) -> Any:
    rounds.override(db.session(), league_id, _user(), None)
    return _next_round(rounds.preview(db.session(), league_id, _user()))


@api_bp.post("/leagues/<int:league_id>/rounds")
def league_start_round(league_id: int) -> Any:
    row = rounds.start_round(db.session(), league_id, _user(), now())
    return PairingRoundSchema().dump(_round_data(db.session().get(LeagueRound, row.id))), 201


@api_bp.post("/leagues/<int:league_id>/seasons")
def league_new_season(league_id: int) -> Any:
    found: League = rounds.new_season(db.session(), league_id, _user())
    return _league(found.id), 201


@api_bp.post("/leagues/<int:league_id>/bots")
def league_add_bot(league_id: int) -> Any:
    user = _user()
    data = _body(BotEntrantSchema())
    entrant = members.add_bot_entrant(db.session(), league_id, user, data["name"], data["bot"], now())
    return LeagueMemberSchema().dump(entrant), 201


@api_bp.post("/leagues/<int:league_id>/members/<int:member_id>/replace")
def league_replace(league_id: int, member_id: int) -> Any:
    organiser = _user()
    organised(db.session(), league_id, organiser, "replace members")  # a stranger learns nothing of the address
    data = _body(PersonSchema())
    successor = members.replace(db.session(), league_id, member_id, organiser,
                                person(db.session(), data["email"]), now())
    return LeagueMemberSchema().dump(successor), 201


@api_bp.post("/leagues/<int:league_id>/tables/<int:table_id>/correct")
def league_correct(league_id: int, table_id: int) -> Any:
    user = _user()
    data = _body(CorrectionCreateSchema())
    row = results.correct(db.session(), league_id, table_id, user, data["action"], data["reason"], now(),
                          places=data["places"])
    return CorrectionSchema().dump(row), 201


@api_bp.post("/leagues/<int:league_id>/organisers")
def league_add_organiser(league_id: int) -> Any:
    organiser = _user()
    organised(db.session(), league_id, organiser, "add organisers")
    data = _body(PersonSchema())
    add_organiser(db.session(), league_id, organiser, person(db.session(), data["email"]))
    return _league(league_id)
