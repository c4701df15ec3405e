"""The tick at scale (docs/deadlines.md, "At scale"): the database picks whose digest is due
(only those people are read), digests go out in batches, a tick bounded in time leaves the
rest to the next one and nothing is done twice, and an idle tick runs a fixed number of
statements however many people and games there are.  Behaviour and budgets, never timings:
the figures are in `make bench` (bench/scale.py)."""
from __future__ import annotations

from datetime import date, datetime, timedelta, timezone
from typing import Any, Iterator

import pytest
from sqlalchemy import event, select, update

from pbem.models import EmailAddress, Game, OrderLogEntry, TickState, User
from pbem.services import deadlines, moves_mail
from pbem.services import tick as tick_module
from pbem.services.moves_mail import digest_due, due_condition, send_digests
from deadline_helpers import (HOUR, SECOND, fresh, mails, overlapping_ticks, owes, pending, play_own, policy_game,
                              tick, two_humans)

ZONES = ("Pacific/Auckland", "Asia/Tokyo", "Asia/Kolkata", "Europe/Paris", "UTC", "America/New_York",
         "America/Los_Angeles", "Pacific/Honolulu", "Not/AZone")  # the last is no zone: read as UTC
HOURS = (0, 7, 8, 9, 23)
DAY = date(2030, 1, 15)
DAYS_DONE = (None, DAY - timedelta(days=1), DAY, DAY + timedelta(days=1))
MOMENTS = [datetime(2030, 1, 15, hour, minute, tzinfo=timezone.utc)
           for hour, minute in ((0, 30), (7, 59), (8, 0), (11, 0), (16, 0), (19, 0), (23, 30))]
IDLE_STATEMENTS = 16  # an idle tick's statements (13 on PostgreSQL), whatever the number of games and people
MISSED_STATEMENTS = 1  # each game's missed deadline on PostgreSQL: its default, the advance, the mails


def person(session: Any, address: str, zone: str = "UTC", hour: int = 8, moves: str = "digest",
           done: date | None = None) -> User:
    user = User(display_name=address.split("@")[0], time_zone=zone, digest_hour=hour, opponent_moves=moves,
                digest_on=done)
    user.addresses.append(EmailAddress(address=address, is_primary=True))
    session.add(user)
    return user


def test_the_database_picks_exactly_the_people_whose_digest_is_due(session):
    """Every zone, hour and day done, at moments around the day's edges: the SQL test agrees
    with `digest_due` person by person."""
    number = 0
    for zone in ZONES:
        for hour in HOURS:
            for done in DAYS_DONE:
                for moves in ("digest", "each"):
                    person(session, f"p{number}@example.com", zone, hour, moves, done)
                    number += 1
    session.commit()
    people = list(session.scalars(select(User)))
    for now in MOMENTS:
        chosen = set(session.scalars(select(User.id).where(due_condition(session, now))))
        assert chosen == {user.id for user in people if digest_due(user, now)}, now
        assert chosen  # every moment has some people due, and (below) some not
        assert len(chosen) < len(people)


@pytest.fixture
def loaded_users(session: Any) -> Iterator[list[int]]:
    """The ids of the people read from the database as objects while the fixture lives."""
    loaded: list[int] = []

    def on_load(user: User, *_: Any) -> None:
        loaded.append(user.id)

    for name in ("load", "refresh"):  # new to the session, or read again into one it holds
        event.listen(User, name, on_load)
    yield loaded
    for name in ("load", "refresh"):
        event.remove(User, name, on_load)


def test_only_the_people_whose_digest_is_due_are_read(session, ana, bo, loaded_users):
    two_humans(session, ana, bo)
    person(session, "carla@example.com", "Asia/Tokyo", hour=8)  # due, but in no running game
    # Ana reads hers at 08:00 in Paris, Bo at 23:00 UTC.
    session.execute(update(User).where(User.id == ana.id).values(time_zone="Europe/Paris", digest_hour=8))
    session.execute(update(User).where(User.id == bo.id).values(time_zone="UTC", digest_hour=23))
    session.commit()
    now = datetime(2030, 1, 15, 9, 0, tzinfo=timezone.utc)  # 10:00 in Paris, 18:00 in Tokyo
    session.expire_all()
    loaded_users.clear()
    assert send_digests(session, now)[1] is False
    assert set(loaded_users) == {ana.id}  # the database handed over Ana alone: never Bo, nor Carla
    session.expire_all()
    assert session.get(User, ana.id).digest_on == DAY and session.get(User, bo.id).digest_on is None


def test_digests_go_out_in_batches_and_everyone_gets_one(session, ana, bo, monkeypatch):
    monkeypatch.setattr(moves_mail, "BATCH", 1)
    session.execute(update(User).values(notify_turn=False))  # turn mails would carry the news
    session.commit()
    game = two_humans(session, ana, bo)
    for _ in range(3):  # some moves, so each of them has news
        for someone in (ana, bo):
            if owes(session, game, someone) and not pending(session, game, someone):
                play_own(session, game, someone)
    assert fresh(session, game).status == Game.ACTIVE
    now = datetime(2030, 1, 15, 12, 0, tzinfo=timezone.utc)  # past both people's 08:00 UTC
    first, more = send_digests(session, now, out_of_time=lambda: True)
    assert len(first) == 1 and more  # one batch at least, then the clock said stop
    second, more = send_digests(session, now, out_of_time=lambda: True)
    assert not more and len(second) == 1 and set(first + second) == {ana.id, bo.id}
    assert send_digests(session, now) == ([], False)  # again: nothing, nobody twice
    assert sorted(m.to_address for m in mails(session, topic="moves")) == [ana.primary_address, bo.primary_address]
    session.expire_all()
    assert [u.digest_on for u in session.scalars(select(User).where(User.id.in_([ana.id, bo.id])))] == [DAY] * 2


def due_games(session: Any, ana: User, count: int) -> list[Game]:
    """`count` games where Ana owes a decision, all past their deadline at the returned games'
    latest deadline plus a second."""
    return [policy_game(session, ana, bots=("heuristic", "random")) for _ in range(count)]


def test_a_tick_out_of_time_leaves_the_rest_to_the_next_and_does_nothing_twice(session, ana):
    games = due_games(session, ana, 3)
    now = max(fresh(session, game).deadline_at for game in games) + SECOND
    reports = []
    for n in range(3):  # no time at all: each tick still takes one game, and says more are left
        reports.append(deadline_tick(session, now + n * SECOND, budget=0))
    assert [len(r.defaulted) for r in reports] == [1, 1, 1]
    assert [r.more for r in reports] == [True, True, False]
    assert sorted(game for r in reports for game, _ in r.defaulted) == sorted(game.id for game in games)
    # A tick with all the time in the world now finds nothing: every deadline was met once.
    again = tick(session, now + 10 * SECOND)
    assert again.defaulted == [] and not again.more
    for game in games:
        defaults = session.scalars(select(OrderLogEntry.seq).where(OrderLogEntry.game_id == game.id,
                                                                   OrderLogEntry.by == "default")).all()
        assert len(defaults) == 1
        seat = next(s for s in fresh(session, game).seats if s.user_id == ana.id)
        assert seat.missed_total == 1


def deadline_tick(session: Any, now: datetime, budget: float) -> Any:
    """`tick` with a time budget (the helper's clock set-up, then the service's tick)."""
    row = session.get(TickState, 1)
    if row is None:
        session.add(TickState(id=1, last_tick_at=now - 30 * SECOND))
    else:
        row.last_tick_at = now - 30 * SECOND
    session.commit()
    report = deadlines.tick(session, now, budget=budget)
    session.expire_all()
    return report


@pytest.fixture
def statements(session: Any) -> Iterator[list[str]]:
    seen: list[str] = []
    engine = session.get_bind()

    def count(_connection: Any, _cursor: Any, statement: str, *_: Any) -> None:
        seen.append(statement)

    event.listen(engine, "before_cursor_execute", count)
    yield seen
    event.remove(engine, "before_cursor_execute", count)


def idle_statements(session: Any, now: datetime, statements: list[str]) -> int:
    """How many statements a tick at `now` runs (it must find nothing to do)."""
    deadline_tick(session, now - HOUR, budget=60)  # sets the clock up: no outage at `now`
    row = session.get(TickState, 1)
    row.last_tick_at = now - 30 * SECOND
    session.commit()
    statements.clear()
    report = deadlines.tick(session, now)
    count = len(statements)
    assert not (report.defaulted or report.reminded or report.digests or report.scheduled or report.more)
    return count


def test_an_idle_tick_runs_the_same_few_statements_however_many_people_and_games(session, ana, bo, statements):
    game = two_humans(session, ana, bo)
    now = fresh(session, game).decision_at + HOUR  # deadlines two days off: no reminder
    today = now.date()
    session.execute(update(User).values(digest_on=today))  # today's digests are sent
    session.commit()
    few = idle_statements(session, now, statements)
    for number in range(4):  # more people (due tomorrow) and more running games
        guest = person(session, f"guest{number}@example.com", ("Asia/Tokyo", "America/New_York")[number % 2],
                       done=today + timedelta(days=1))
        session.commit()
        policy_game(session, guest)
    session.execute(update(Game).values(deadline_at=now + 48 * HOUR, reminded=None))
    session.commit()
    assert idle_statements(session, now, statements) == few <= IDLE_STATEMENTS


def defaults_of(session: Any, game: Game) -> int:
    return len(session.scalars(select(OrderLogEntry.seq).where(OrderLogEntry.game_id == game.id,
                                                               OrderLogEntry.by == "default")).all())


def test_missed_deadlines_go_in_batches_each_once_and_the_games_advance(session, ana, monkeypatch):
    monkeypatch.setattr(tick_module, "BATCH", 2)
    games = due_games(session, ana, 5)  # three transactions: 2, 2 and 1 games
    now = max(fresh(session, game).deadline_at for game in games) + SECOND
    report = tick(session, now)
    assert sorted(game for game, _ in report.defaulted) == sorted(game.id for game in games)
    assert not report.more and not report.failed and not report.skipped
    for game in games:
        assert defaults_of(session, game) == 1  # played, and applied by the advance in the same transaction
        assert pending(session, game, ana) == [] and fresh(session, game).deadline_at > now
    assert tick(session, now + SECOND).defaulted == []


def missed_statements(session: Any, ana: User, count: int, statements: list[str]) -> int:
    """How many statements a tick runs that plays the defaults of `count` games just due."""
    games = due_games(session, ana, count)
    now = max(fresh(session, game).deadline_at for game in games) + SECOND
    deadline_tick(session, now - 10 * SECOND, budget=60)  # primes the tick state: no outage
    statements.clear()
    report = deadlines.tick(session, now)
    count = len(statements)
    assert sorted(game for game, _ in report.defaulted) == sorted(game.id for game in games)
    assert [defaults_of(session, game) for game in games] == [1] * len(games)  # each applied by its advance
    return count


def test_a_missed_deadline_costs_one_statement_a_game_on_postgresql(session, ana, statements, monkeypatch):
    """The default's event, mail and seat counters go with the advance's one statement (its
    order log, schedule, turn mails): a batch reads its games, order logs and queued mails
    together, then writes each game in one statement (issue 18)."""
    if session.get_bind().dialect.name != "postgresql":
        pytest.skip("SQLite has no data-modifying CTEs: there each write is a statement of its own")
    monkeypatch.setattr(tick_module, "BATCH", 10)
    two = missed_statements(session, ana, 2, statements)
    five = missed_statements(session, ana, 5, statements)
    assert five - two == 3 * MISSED_STATEMENTS


def test_a_batch_with_a_broken_game_is_done_again_game_by_game(session, ana, monkeypatch):
    monkeypatch.setattr(tick_module, "BATCH", 10)
    games = due_games(session, ana, 3)
    bad = games[1]
    now = max(fresh(session, game).deadline_at for game in games) + SECOND
    monkeypatch.setattr(tick_module, "event_row", broken_for(bad.id, tick_module.event_row))
    report = tick(session, now)
    assert report.failed == [bad.id] and "no default today" in report.errors[bad.id]
    assert sorted(game for game, _ in report.defaulted) == [games[0].id, games[2].id]
    assert defaults_of(session, bad) == 0 and fresh(session, bad).deadline_at < now  # the next tick tries again
    assert [defaults_of(session, game) for game in (games[0], games[2])] == [1, 1]


def broken_for(game_id: int, event_row: Any) -> Any:
    """`event_row` that fails for one game, halfway through its missed deadline (its default
    is chosen and stored by then): that game's work must be undone, the others' kept."""
    def logged(game: Game, *args: Any, **kwargs: Any) -> Any:
        if game.id == game_id:
            raise RuntimeError("no default today")
        return event_row(game, *args, **kwargs)
    return logged


def test_overlapping_ticks_over_a_batch_play_each_default_once(app, session, ana, monkeypatch):
    monkeypatch.setattr(tick_module, "BATCH", 3)
    games = due_games(session, ana, 7)
    now = max(fresh(session, game).deadline_at for game in games) + SECOND
    deadline_tick(session, now - 10 * SECOND, budget=60)  # primes the tick state: no outage
    fired = [game for r in overlapping_ticks(session, now) for game, _ in r.defaulted]
    assert sorted(fired) == sorted(game.id for game in games)  # each once, by one tick or the other
    assert [defaults_of(session, game) for game in games] == [1] * len(games)
