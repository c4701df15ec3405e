"""Leagues through the application layer (docs/leagues.md, "Running a league"): created,
joined, seated, started, ended by their games or by the hard date, scored, corrected and
rated, on both databases.  Games advance inline here (no worker): the league tick is called
as beat would call it."""
from __future__ import annotations

from datetime import datetime, timedelta, timezone
from typing import Any

import pytest
from sqlalchemy import select

from pbem.leagues import members, results, rounds
from pbem.leagues.league import NewLeague, create_league
from pbem.leagues.models import League, LeagueMember, LeagueRound
from pbem.models import Game, OrderLogEntry, OutboxMessage, Seat
from pbem.services.errors import Conflict, Forbidden, Invalid
from service_helpers import make_user

T0 = datetime(2026, 3, 1, 12, tzinfo=timezone.utc)


def league_of(session: Any, organiser: Any, **given: Any) -> League:
    settings = {"name": "Spring league", "game": "duel", "table_size": 4, "rounds": 2, "round_days": 7,
                "seed": "s1", **given}
    return create_league(session, organiser, NewLeague(**settings))


def bot_entrants(session: Any, league: League, organiser: Any, count: int) -> list[LeagueMember]:
    return [members.add_bot_entrant(session, league.id, organiser, f"Bot {i:02}", "heuristic", T0)
            for i in range(count)]


def test_a_league_of_bot_entrants_plays_its_season_and_ranks_everyone(session, ana):
    league = league_of(session, ana)
    entrants = bot_entrants(session, league, ana, 8)
    first = rounds.start_round(session, league.id, ana, T0)
    assert [len(t) for t in first.pairings] == [4, 4]
    session.expire_all()
    games = [table.game for table in first.tables]
    assert all(game.status == Game.FINISHED and game.rated for game in games)  # bots play at once, inline
    # Each member sits in the place the seating gave them (first player first).
    for table in first.tables:
        by_position = sorted(table.game.seats, key=lambda seat: seat.position)
        users = {m.id: m.user_id for m in entrants}
        assert [seat.user_id for seat in by_position] == [users[m] for m in table.seats]
        assert [p["seat"] for p in table.game.setup["players"]] == [seat.name for seat in by_position]
    report = rounds.tick(session, T0 + timedelta(minutes=1))
    assert report["ended"] == [first.id] and report["started"] == []  # the next round started by itself
    session.expire_all()
    league = session.get(League, league.id)
    assert [r.state for r in league.round_rows] == [LeagueRound.FINISHED, LeagueRound.RUNNING]
    second = league.round_rows[1]
    assert rounds.tick(session, T0 + timedelta(minutes=2))["ended"] == [second.id]  # its bots played inline
    session.expire_all()
    league = session.get(League, league.id)
    assert league.status == League.FINISHED and league.round_rows[1].state == LeagueRound.FINISHED
    standing = results.standings(session, league)
    assert sorted(row.member.id for row in standing) == sorted(m.id for m in entrants)
    assert all(row.standing.games == 2 for row in standing)
    rated = results.member_ratings(session, league)
    assert all(rating is not None for rating in rated.values())
    # A new season: rounds from 1 again, standings afresh, ratings kept.
    rounds.new_season(session, league.id, ana)
    again = rounds.start_round(session, league.id, ana, T0 + timedelta(days=30))
    assert (again.season, again.number) == (2, 1)
    session.expire_all()
    league = session.get(League, league.id)
    assert all(row.standing.games == 1 for row in results.standings(session, league))
    assert len(results.standings(session, league, season=1)) == 8


def test_the_organiser_alone_starts_rounds_and_sets_pairings(session, ana, bo):
    league = league_of(session, ana)
    entrants = bot_entrants(session, league, ana, 4)
    with pytest.raises(Forbidden):
        rounds.start_round(session, league.id, bo, T0)
    with pytest.raises(Forbidden):
        rounds.override(session, league.id, bo, [[entrants[0].id, entrants[1].id]])
    with pytest.raises(Invalid):
        rounds.override(session, league.id, ana, [[entrants[0].id, entrants[0].id]])
    with pytest.raises(Invalid):
        rounds.override(session, league.id, ana, [[entrants[0].id, 999999]])
    ids = [m.id for m in entrants]
    rounds.override(session, league.id, ana, [[ids[3], ids[2]], [ids[1], ids[0]]])
    number, tables, overridden = rounds.preview(session, league.id, ana)
    assert (number, tables, overridden) == (1, [[ids[3], ids[2]], [ids[1], ids[0]]], True)
    started = rounds.start_round(session, league.id, ana, T0)
    assert [t.seats for t in started.tables] == [[ids[3], ids[2]], [ids[1], ids[0]]]


def test_the_hard_date_hands_the_seats_still_played_to_the_stand_in_bot(session, ana, bo):
    league = league_of(session, ana, rounds=1)
    cy = make_user(session, "cy@example.com", "Cy")
    for person in (ana, bo, cy):
        members.register(session, league.id, person, T0)
    bot_entrants(session, league, ana, 1)
    row = rounds.start_round(session, league.id, ana, T0)
    game = row.tables[0].game
    assert game.status == Game.ACTIVE  # waiting for the people
    assert rounds.tick(session, T0 + timedelta(days=6))["forced"] == []
    report = rounds.tick(session, T0 + timedelta(days=7, seconds=1))
    assert report["forced"] == [game.id] and report["ended"] == [row.id]
    session.expire_all()
    game = session.get(Game, game.id)
    assert game.status == Game.FINISHED and row.tables[0].forced_at is not None
    by = set(session.scalars(select(OrderLogEntry.by).where(OrderLogEntry.game_id == game.id)))
    assert "stand-in" in by
    assert {s.stand_in_reason for s in game.seats if s.user_id} >= {rounds.ROUND_END_REASON}
    mailed = session.scalars(select(OutboxMessage.to_address).where(OutboxMessage.topic == "league")).all()
    assert sorted(mailed) == ["ana@example.com", "bo@example.com", "cy@example.com"]


def test_registration_has_a_cap_and_a_closing_date(session, ana, bo):
    league = league_of(session, ana, cap=2, registration_closes_at=T0 + timedelta(days=1))
    members.register(session, league.id, ana, T0)
    with pytest.raises(Conflict):
        members.register(session, league.id, ana, T0)
    members.register(session, league.id, bo, T0)
    cy = make_user(session, "cy@example.com", "Cy")
    with pytest.raises(Conflict, match="full"):
        members.register(session, league.id, cy, T0)
    other = league_of(session, ana, registration_closes_at=T0)
    with pytest.raises(Conflict, match="closed"):
        members.register(session, other.id, cy, T0)


def test_a_correction_and_an_annulment_keep_their_reason_and_change_the_standings(session, ana, bo):
    league = league_of(session, ana, rounds=1, table_size=2)
    entrants = bot_entrants(session, league, ana, 4)
    row = rounds.start_round(session, league.id, ana, T0)
    table = row.tables[0]
    found = results.outcome(table, table.game)
    winner = min(found.places, key=found.places.get)
    loser = max(found.places, key=found.places.get)
    with pytest.raises(Forbidden):
        results.correct(session, league.id, table.id, bo, "annul", "no", T0)
    with pytest.raises(Invalid):
        results.correct(session, league.id, table.id, ana, "annul", " \u202e ", T0)
    results.correct(session, league.id, table.id, ana, "correct", "scored wrongly", T0,
                    places={winner: 2, loser: 1})
    assert results.outcome(table, table.game).places == {winner: 2, loser: 1}
    results.correct(session, league.id, table.id, ana, "annul", "played with the wrong rules", T0)
    assert results.outcome(table, table.game).void
    standing = {row.member.key: row.standing for row in results.standings(session, league)}
    assert standing[winner] is None or standing[winner].games == 0
    assert [c.reason for c in table.corrections] == ["scored wrongly", "played with the wrong rules"]
    del entrants


def test_a_withdrawn_members_running_games_are_forfeited(session, ana, bo):
    league = league_of(session, ana, rounds=1, table_size=2)
    members.register(session, league.id, bo, T0)
    entrant = bot_entrants(session, league, ana, 1)[0]
    row = rounds.start_round(session, league.id, ana, T0)
    member = next(m for m in row.league.members if m.user_id == bo.id)
    members.withdraw(session, league.id, member.id, bo, T0)
    session.expire_all()
    table = row.tables[0]
    assert table.game.status == Game.FINISHED and table.forfeits == [member.id]
    assert results.outcome(table, table.game).places == {entrant.key: 1, member.key: 2}


def test_the_first_round_starts_by_itself_when_registration_closes(session, ana):
    league = league_of(session, ana, registration_closes_at=T0 + timedelta(days=2), table_size=2)
    bot_entrants(session, league, ana, 1)
    assert rounds.tick(session, T0 + timedelta(days=3))["started"] == []  # one member: too few, tried again later
    members.register(session, league.id, ana, T0)
    report = rounds.tick(session, T0 + timedelta(days=3))
    assert len(report["started"]) == 1
    session.expire_all()
    assert session.get(League, league.id).status == League.RUNNING


def test_a_replacement_takes_over_the_running_seat_under_the_replace_rule(session, ana, bo):
    league = league_of(session, ana, rounds=1, table_size=2, withdrawal="replace")
    dee = make_user(session, "dee@example.com", "Dee")
    for person in (bo, dee):
        members.register(session, league.id, person, T0)
    row = rounds.start_round(session, league.id, ana, T0)
    member = next(m for m in row.league.members if m.user_id == bo.id)
    members.withdraw(session, league.id, member.id, bo, T0)
    game_id = row.tables[0].game_id
    session.expire_all()
    seat = next(s for s in session.get(Game, game_id).seats if s.user_id == bo.id)
    assert seat.stand_in_reason == members.WITHDRAWN_REASON
    assert session.get(Game, game_id).status == Game.ACTIVE  # Dee still owes her decisions
    cy = make_user(session, "cy@example.com", "Cy")
    successor = members.replace(session, league.id, member.id, ana, cy, T0)
    session.expire_all()
    seat = session.get(Seat, seat.id)
    assert seat.user_id == cy.id and seat.stand_in is None
    seats = session.get(LeagueRound, row.id).tables[0].seats
    assert successor.id in seats and member.id not in seats  # the table counts for the replacement
    assert session.get(LeagueMember, member.id).status == LeagueMember.REPLACED
    with pytest.raises(Forbidden):
        members.withdraw(session, league.id, successor.id, make_user(session, "eve@example.com", "Eve"), T0)


def test_ordinary_games_are_casual_and_league_games_rated_unless_the_league_is_casual(session, ana):
    from service_helpers import make_game
    assert make_game(session, ana).rated is False
    casual = league_of(session, ana, rounds=1, table_size=2, rated=False)
    bot_entrants(session, casual, ana, 2)
    row = rounds.start_round(session, casual.id, ana, T0)
    assert row.tables[0].game.rated is False
    assert results.rated_games(session, "duel") == []
