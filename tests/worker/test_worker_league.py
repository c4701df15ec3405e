"""A league of 32 bot entrants over 3 rounds of 4-player tables, played end to end by real
`celery worker` processes on PostgreSQL and Redis (no eager mode, no inline advance): the
first round is started as an organiser starts it, then only the workers act.  Each game's
end reaches the league through the advance that ended it (pbem.league_check), which closes
the round, mails nobody (bot entrants have no address) and starts the next one.  Afterwards
every member has played each round once and the standings page renders them."""
from __future__ import annotations

from datetime import datetime, timezone
from typing import Any

from flask import Flask
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from pbem.extensions import db
from pbem.leagues import results, simulate
from pbem.leagues.models import League, LeagueRound, LeagueTable
from pbem.models import Game
from worker_helpers import wait_until

PLAYERS, ROUNDS = 32, 3


def league_state(session: Session, league_id: int) -> tuple[str, int]:
    session.expire_all()
    status = session.scalar(select(League.status).where(League.id == league_id))
    finished = session.scalar(select(func.count()).select_from(LeagueRound).where(
        LeagueRound.league_id == league_id, LeagueRound.state == LeagueRound.FINISHED))
    session.rollback()
    return status, finished


def test_a_league_of_32_bots_plays_three_rounds_through_the_workers(app: Flask, session: Session, workers: Any) -> None:
    workers.start(concurrency=2)
    with app.app_context():  # PBEM_ADVANCE=queue: the first advances go to the workers
        league_id = simulate.set_up(db.session(), "aztlan", PLAYERS, ROUNDS, "worker-test",
                                    now=datetime.now(timezone.utc))
    wait_until(lambda: league_state(session, league_id) == (League.FINISHED, ROUNDS), 900,
               "the league's three rounds to end")

    league = session.get(League, league_id)
    tables = session.scalars(select(LeagueTable).join(LeagueRound).where(LeagueRound.league_id == league_id)).all()
    assert len(tables) == ROUNDS * PLAYERS // 4
    assert all(table.game.status == Game.FINISHED and table.game.rated for table in tables)
    for row in league.round_rows:  # every member at exactly one table a round
        seated = sorted(held for table in row.tables for held in table.seats)
        assert seated == sorted(m.id for m in league.members)
    standing = results.standings(session, league)
    assert len(standing) == PLAYERS and all(row.standing.games == ROUNDS for row in standing)
    assert sum(row.standing.points for row in standing) == ROUNDS * (PLAYERS // 4) * 6  # 3 + 2 + 1 + 0 a table
    report = simulate.report(session, league_id)
    assert report["finished"] and all(row["mu"] is not None for row in report["standings"])
    assert report["repeated_pairs"] == 0  # the seating's exact design for 32 in fours
    page = app.test_client().get(f"/leagues/{league_id}/standings")
    assert page.status_code == 200 and page.text.count("<tr>") == 1 + PLAYERS
    assert all(row["player"] in page.text for row in report["standings"])
