"""A database of the previous release upgrades and its games go on (docs/service.md, "Run it").

The previous release's database is built at its revision (0012) and filled through plain SQL
in that release's shape: the rows of a game in progress that today's services made (one
database of the same kind at head), with the columns that 0013 renamed given their old names
(report_jobs.age and .kind, outbox.kind, game_events.kind).  Upgraded to head, the game is
played on through the app's own web and API, and the report job it owed keeps its round.
"""
from __future__ import annotations

import os
from typing import Any, Iterator

import pytest
from alembic import command
from flask import Flask
from sqlalchemy import MetaData, create_engine, select, text

from databases import app_config, drop_postgres_schema, postgres_schema_url, worker
from pbem.app import create_app
from pbem.db import alembic_config, upgrade
from pbem.extensions import db
from pbem.models import Game, OrderLogEntry, QueuedTurn, ReportJob
from pbem.services import accounts, lobby, play, turn_queue
from pbem.services.state import clear_cache, game_state
from pbem.testing import first_legal_order
from service_helpers import make_game, web_sign_in

PREVIOUS = "0012"
# Today's column -> its name in the previous release (migrations/versions/0013_one_word.py).
OLD_NAMES = {("report_jobs", "round"): "age", ("report_jobs", "topic"): "kind", ("outbox", "topic"): "kind",
             ("game_events", "type"): "kind"}
QUEUED = "place 12"  # any territory takes a placed pawn, so this turn is legal when it comes


def _owed(session: Any, game: Game, user: Any) -> dict[str, Any] | None:
    decisions = play.game_view(session, session.get(Game, game.id), user).view["me"]["decisions"]
    return decisions[0] if decisions else None


@pytest.fixture
def game_in_progress(session: Any, ana: Any, bo: Any) -> dict[str, Any]:
    """Ana, Bo and a bot in age 2: age 1 played, Ana's power card in but Bo's not (a pending
    order), and a development turn Ana queued for age 2."""
    game = make_game(session, ana, players=3, bots=("heuristic",), seed=11)
    lobby.join_game(session, game.id, bo)
    for _ in range(200):
        state = game_state(session, session.get(Game, game.id))
        if state.age == 2 and state.phase == "choosing":  # type: ignore[attr-defined]
            break
        for person in (ana, bo):
            decision = _owed(session, game, person)
            if decision is not None:
                play.submit_for_user(session, game.id, person, first_legal_order(decision), channel="api")
    else:
        pytest.fail("age 2 never began")
    card = first_legal_order(_owed(session, game, ana))
    assert play.submit_for_user(session, game.id, ana, card, channel="web").pending == [card]
    assert turn_queue.queue_turns(session, game.id, ana, QUEUED) == [QUEUED]
    # A report of age 1 still owed (report mail is off in these tests: the row stands for one).
    session.add(ReportJob(game_id=game.id, topic=ReportJob.REPORT, round=1, phase="scoring", seq=1, attempts=0))
    session.commit()
    tokens = {person.primary_address: accounts.create_api_token(session, person, "old release")[1]
              for person in (ana, bo)}
    game = session.get(Game, game.id)
    return {"game_id": game.id, "version": game.version, "card": card, "tokens": tokens,
            "seats": {person.primary_address: play.seat_of(game, person).name for person in (ana, bo)},
            "log": len(game_state(session, game).order_log())}


@pytest.fixture
def previous_url(app: Flask, tmp_path: Any) -> Iterator[str]:
    """An empty database of the same kind as `app`'s, at the previous release's revision."""
    with app.app_context():
        dialect = db.engine.dialect.name
    schema = f"pbem_test_migrate_{worker()}_{os.getpid()}"
    url = f"sqlite:///{tmp_path}/previous.sqlite3" if dialect == "sqlite" else postgres_schema_url(schema)
    upgrade(url, PREVIOUS)
    yield url
    if dialect == "postgresql":
        drop_postgres_schema(schema)


def copy_rows(app: Flask, url: str) -> int:
    """Every row of `app`'s database into the previous release's tables at `url`, under the
    column names that release had; returns how many were written."""
    old = MetaData()
    target = create_engine(url)
    old.reflect(target)
    with app.app_context():
        source = db.engine
    new = MetaData()
    new.reflect(source)
    written = 0
    with source.connect() as reading, target.begin() as writing:
        for table in old.sorted_tables:
            if table.name == "alembic_version" or table.name not in new.tables:
                continue
            for row in reading.execute(select(new.tables[table.name])).mappings():
                values = {OLD_NAMES.get((table.name, column), column): value for column, value in row.items()}
                writing.execute(table.insert().values({k: v for k, v in values.items() if k in table.c}))
                written += 1
            if writing.dialect.name == "postgresql" and "id" in table.c:
                # Rows came with their ids: the id sequence starts after them, as it would have.
                writing.execute(text(f"SELECT setval(pg_get_serial_sequence('{table.name}', 'id'), "
                                     f"COALESCE((SELECT max(id) FROM {table.name}), 0) + 1, false)"))
    target.dispose()
    return written


def test_a_game_of_the_previous_release_goes_on_after_the_upgrade(app, game_in_progress, previous_url):
    assert copy_rows(app, previous_url) > 20
    engine = create_engine(previous_url)
    with engine.connect() as connection:  # the previous release's shape, with the game in it
        assert connection.scalar(text("SELECT count(*) FROM seats WHERE name IS NOT NULL")) == 3
        assert connection.scalar(text("SELECT round FROM queued_turns")) == 2
        assert connection.scalar(text("SELECT min(age) FROM report_jobs WHERE kind = 'report'")) == 1
    engine.dispose()

    upgrade(previous_url)
    clear_cache()  # the game's states were cached from the other database
    migrated = create_app(app_config(previous_url))
    try:
        go_on(migrated, game_in_progress)
    finally:
        with migrated.app_context():
            db.engine.dispose()


def test_the_upgrade_is_undone_by_the_downgrade_with_every_value(app, game_in_progress, previous_url):
    copy_rows(app, previous_url)
    before = old_shape(previous_url)
    upgrade(previous_url)
    command.downgrade(alembic_config(previous_url), PREVIOUS)
    assert old_shape(previous_url) == before and [(kind, age) for _, kind, age in before[1]] == [("report", 1)]
    upgrade(previous_url)  # and up again


def old_shape(url: str) -> tuple[list[Any], list[Any]]:
    engine = create_engine(url)
    with engine.connect() as connection:
        seats = [tuple(row) for row in connection.execute(text("SELECT id, name FROM seats ORDER BY id"))]
        jobs = [tuple(row) for row in connection.execute(text("SELECT id, kind, age FROM report_jobs ORDER BY id"))]
    engine.dispose()
    return seats, jobs


def go_on(app: Flask, old: dict[str, Any]) -> None:
    game_id, card = old["game_id"], old["card"]
    ana_seat, bo_seat = old["seats"]["ana@example.com"], old["seats"]["bo@example.com"]
    ana, bo = ({"Authorization": f"Bearer {old['tokens'][address]}"} for address in ("ana@example.com", "bo@example.com"))
    client = app.test_client()
    with app.app_context():
        session = db.session()
        game = session.get(Game, game_id)
        assert game.version == old["version"] and game.status == Game.ACTIVE
        assert {s.name for s in game.seats} >= {ana_seat, bo_seat} and all(s.name for s in game.seats)
        queued = session.scalars(select(QueuedTurn)).all()
        assert [(row.seat, row.round, row.text) for row in queued] == [(ana_seat, 2, QUEUED)]
        jobs = session.scalars(select(ReportJob)).all()
        assert [(job.topic, job.round, job.phase) for job in jobs] == [(ReportJob.REPORT, 1, "scoring")]

    # Ana's view, through the API and on the web page: her seat, her pending card, her queue.
    seen = client.get(f"/api/games/{game_id}/view", headers=ana).json
    assert seen["seat"] == ana_seat and seen["pending"] == [card] and seen["view"]["age"] == 2
    assert {s["name"] for s in seen["game"]["seats"]} >= {ana_seat, bo_seat}
    assert client.get(f"/api/games/{game_id}/queue", headers=ana).json["turns"] == [QUEUED]
    browser = app.test_client()
    web_sign_in(browser, app, "ana@example.com")
    page = browser.get(f"/games/{game_id}")
    assert page.status_code == 200 and f"<strong class=\"people-{ana_seat}\">{ana_seat}</strong>" in page.text
    assert f"<li><code>{card}</code></li>" in page.text  # her pending order

    # Bo's card completes the decision: both cards are applied; Ana's queued turn is played
    # when her development turn comes (Bo plays his own turns meanwhile).
    bo_card = first_legal_order(owed_by(client, game_id, bo)[0])
    answer = client.post(f"/api/games/{game_id}/orders", headers=bo, json={"orders": bo_card})
    assert answer.status_code == 201 and answer.json["applied"], answer.json
    for _ in range(10):
        if (ana_seat, QUEUED, "player") in log_of(app, game_id)[old["log"]:]:
            break
        assert not owed_by(client, game_id, ana), "Ana is asked for the turn she had queued"
        answer = client.post(f"/api/games/{game_id}/orders", headers=bo,
                             json={"orders": first_legal_order(owed_by(client, game_id, bo)[0])})
        assert answer.status_code == 201 and answer.json["applied"], answer.json
    else:
        pytest.fail("Ana's queued turn was never played")
    played = log_of(app, game_id)[old["log"]:]
    assert (ana_seat, card, "player") in played and (bo_seat, bo_card, "player") in played
    assert client.get(f"/api/games/{game_id}/queue", headers=ana).json["turns"] == []


def owed_by(client: Any, game_id: int, headers: dict[str, str]) -> list[dict[str, Any]]:
    return client.get(f"/api/games/{game_id}/view", headers=headers).json["view"]["me"]["decisions"]


def log_of(app: Flask, game_id: int) -> list[tuple[str, str, str]]:
    with app.app_context():
        return [tuple(row) for row in db.session().execute(  # type: ignore[misc]
            select(OrderLogEntry.seat, OrderLogEntry.text, OrderLogEntry.by)
            .where(OrderLogEntry.game_id == game_id).order_by(OrderLogEntry.seq))]
