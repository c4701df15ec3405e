"""The deadline tick at scale: 10,000 active games and 5,000 people on PostgreSQL.

The database is built the way the service builds it, then multiplied: a template block of
TEMPLATE_USERS people and TEMPLATE_GAMES games (two people and a heuristic bot each, the
project's games in turn, played some turns into the game) made through the project's own
services (lobby, play), then copied COPIES times in SQL (INSERT ... SELECT with the ids
offset), in a schema of its own that is dropped at the end.  People live in time zones
from UTC-8 to UTC+7, so at 16:00 UTC everyone's 08:00 digest hour has come.

Three cases, each run RUNS times on the same database (seconds on a shared, loaded machine:
min and median), the tick called in this process as the beat task calls it, and called again
while it reports work left over (a tick does a bounded share and hands on the rest), so a
figure is the time until everything due is done; `longest_tick_s` is the longest single call,
which must stay well inside a task's time limit:

- scale.tick_idle_s: nothing is due (deadlines days away, today's digests sent);
- scale.tick_missed_1000_s: 1,000 games past their deadline (a fresh 1,000 each run), the
  default bot plays for every seat that owes a decision and the games advance;
- scale.digests_5000_s: every person's digest due in the same tick (the worst case), every
  seat with news.

The state cache is emptied before each run of the last two: the replays are part of the cost.
PBEM_BENCH_POSTGRES picks the server (default: the local test database).

For profiling one case again and again without the build's minutes:
PBEM_BENCH_SCALE_SCHEMA=NAME builds into that schema only if it is empty, and keeps it at the
end (drop it by hand when done; the missed case moves its games on each time, so after many
runs some games end and the digest case's count no longer holds: build afresh for figures); PBEM_BENCH_SCALE_CASES=missed,digests runs only those cases
(of idle, missed, digests; the build row is reported only when the build ran),
PBEM_BENCH_SCALE_RUNS=1 runs each once;
PBEM_BENCH_PROFILE=FILE writes a cProfile of the cases (not the build) to FILE.
"""
from __future__ import annotations

import os
import statistics
import sys
import time
from datetime import datetime, timedelta, timezone
from typing import Any, Callable

from sqlalchemy import text

from bench.postgres import create_schema, drop_schema, schema_url

KEPT = os.environ.get("PBEM_BENCH_SCALE_SCHEMA")  # a schema kept between runs, built once
SCHEMA = KEPT or f"pbem_bench_scale_{os.getpid()}"
CASES = os.environ.get("PBEM_BENCH_SCALE_CASES", "idle,missed,digests").split(",")
PROFILE = os.environ.get("PBEM_BENCH_PROFILE")
TEMPLATE_USERS = 50
TEMPLATE_GAMES = 100  # each person sits in 4 of them
COPIES = 100  # 5,000 people, 10,000 games
MAX_TURNS = 6  # template game g is played (g % MAX_TURNS) rounds of its people's decisions
KINDS = ("aztlan", "coatl")  # the project's games, in turn (not the test suite's plug-in)
MISSED = 1000
RUNS = int(os.environ.get("PBEM_BENCH_SCALE_RUNS", "3"))  # fewer when profiling
ZONES = ("America/Los_Angeles", "America/New_York", "America/Sao_Paulo", "UTC", "Europe/London",
         "Europe/Paris", "Europe/Moscow", "Asia/Kolkata", "Asia/Bangkok")
DIGEST_UTC_HOUR = 16  # 08:00 in Los Angeles (winter) ... 23:00 in Bangkok: every digest due
MAX_TICKS = 50  # a case that needs more ticks than this is broken


def _log(message: str) -> None:
    print(f"# scale: {message}", file=sys.stderr, flush=True)


# ---- building the database -----------------------------------------------------------------------

def _template(session: Any) -> None:
    """The template block, through the services."""
    from pbem.models import EmailAddress, Game, User
    from pbem.services import lobby, play
    from pbem.testing import first_legal_order

    users = []
    for index in range(TEMPLATE_USERS):
        user = User(display_name=f"Player {index}", time_zone=ZONES[index % len(ZONES)])
        user.addresses.append(EmailAddress(address=f"p{index}@bench.example", is_primary=True))
        session.add(user)
        users.append(user)
    session.commit()
    for number in range(TEMPLATE_GAMES):
        # Pairs (i, i+1) and (i, i+2): every person hosts two games and joins two.
        host = users[number % TEMPLATE_USERS]
        guest = users[(number % TEMPLATE_USERS + 1 + number // TEMPLATE_USERS) % TEMPLATE_USERS]
        kind = KINDS[number % len(KINDS)]
        game = lobby.create_game(session, host, lobby.NewGame(
            title=f"Scale {number}", game=kind, players=3, bots=["heuristic"], invites=[guest.primary_address],
            seed=number), base_url="http://bench.example")
        lobby.join_game(session, game.id, guest)
        for _ in range(number % MAX_TURNS):
            for person in (host, guest):
                game = session.get(Game, game.id)
                if game.status != Game.ACTIVE:
                    break
                decisions = play.game_view(session, game, person).view.get("me", {}).get("decisions", [])
                if decisions:
                    play.submit_for_user(session, game.id, person, first_legal_order(decisions[0], kind),
                                         channel="api")
    session.commit()


# Columns that hold an id of another copied table, and the table.
_REFERENCES = {"user_id": "users", "created_by": "users", "paused_by": "users", "game_id": "games"}
_COPIED = ("users", "email_addresses", "games", "seats", "order_log", "pending_orders", "queued_turns",
           "game_events", "seat_tokens")
# Each copy its own value where the template's must be unique: an address, and a reply token
# (26 characters of lower-case base32, pbem/outbox/tokens.py).
_UNIQUE = {("email_addresses", "address"): "'c' || k || '.' || address",
           ("seat_tokens", "token"): "translate(substr(md5(token || k), 1, 26), '0189', 'wxyz')"}


def _copy(session: Any) -> None:
    """COPIES - 1 more blocks in SQL, every id offset by the template's largest."""
    largest = {table: session.scalar(text(f"SELECT coalesce(max(id), 0) FROM {table}")) for table in _COPIED}
    for table in _COPIED:
        columns = list(session.scalars(text(
            "SELECT column_name FROM information_schema.columns WHERE table_schema = current_schema() "
            "AND table_name = :table ORDER BY ordinal_position"), {"table": table}))
        values = []
        for column in columns:
            if column == "id":
                values.append(f"id + k * {largest[table]}")
            elif column in _REFERENCES:
                values.append(f"{column} + k * {largest[_REFERENCES[column]]}")
            elif (table, column) in _UNIQUE:
                values.append(_UNIQUE[table, column])
            else:
                values.append(column)
        session.execute(text(f"INSERT INTO {table} ({', '.join(columns)}) SELECT {', '.join(values)} "
                             f"FROM {table}, generate_series(1, {COPIES - 1}) AS k"))
        session.execute(text(f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), "
                             f"(SELECT max(id) FROM {table}))"))
    session.execute(text("DELETE FROM outbox"))  # the template's sign-up and turn mails
    session.commit()
    session.execute(text("ANALYZE"))
    session.commit()


def _moment(built: datetime) -> datetime:
    """The tick's `now`: the next DIGEST_UTC_HOUR o'clock at least an hour after the build."""
    moment = (built + timedelta(hours=1)).replace(minute=0, second=0, microsecond=0)
    while moment.hour != DIGEST_UTC_HOUR:
        moment += timedelta(hours=1)
    return moment


# ---- the cases -------------------------------------------------------------------------------------

def _quiet(session: Any, now: datetime) -> None:
    """Nothing due at `now`: deadlines days away (no reminder either), today's digests done."""
    from pbem.timezones import zone
    session.execute(text("UPDATE games SET deadline_at = :at, reminded = NULL WHERE status = 'active'"),
                    {"at": now + timedelta(days=5)})
    for name in ZONES:
        session.execute(text("UPDATE users SET digest_on = :day WHERE time_zone = :zone"),
                        {"day": now.astimezone(zone(name)).date(), "zone": name})
    session.commit()


def _ticks(session: Any, now: datetime) -> tuple[float, float, list[Any]]:
    """Tick at `now` until a tick leaves nothing over: (seconds in all, the longest, reports)."""
    from pbem.models import TickState
    from pbem.services import deadlines
    total, longest, reports = 0.0, 0.0, []
    for _ in range(MAX_TICKS):
        row = session.get(TickState, 1)
        if row is None:
            session.add(TickState(id=1, last_tick_at=now - timedelta(seconds=30)))
        else:
            row.last_tick_at = now - timedelta(seconds=30)
        session.commit()
        began = time.perf_counter()
        report = deadlines.tick(session, now)
        spent = time.perf_counter() - began
        total, longest = total + spent, max(longest, spent)
        reports.append(report)
        if not getattr(report, "more", False):
            return total, longest, reports
    raise RuntimeError(f"the tick still had work after {MAX_TICKS} ticks")


def _row(name: str, samples: list[tuple[float, float]], goal: float, **extra: Any) -> dict[str, Any]:
    totals = [total for total, _ in samples]
    return {"name": name, "value": round(statistics.median(totals), 3), "unit": "s",
            "min": round(min(totals), 3), "runs": [round(t, 3) for t in totals],
            "longest_tick_s": round(max(longest for _, longest in samples), 3), "goal": f"<= {goal} s",
            "games": TEMPLATE_GAMES * COPIES, "users": TEMPLATE_USERS * COPIES, "database": "postgresql", **extra}


def _idle(session: Any, now: datetime) -> dict[str, Any]:
    samples = []
    for _ in range(RUNS):
        total, longest, reports = _ticks(session, now)
        assert not any(r.defaulted or r.digests or r.reminded or r.scheduled for r in reports), reports
        samples.append((total, longest))
    return _row("scale.tick_idle_s", samples, 0.1, note="a tick with nothing due")


def _missed(session: Any, now: datetime) -> dict[str, Any]:
    from pbem.services.state import clear_cache
    samples = []
    for run in range(RUNS):
        _quiet(session, now)  # the games of the run before have new deadlines: nothing else due
        ids = list(session.scalars(text(
            "SELECT id FROM games WHERE status = 'active' AND id % :runs = :run ORDER BY id LIMIT :count"),
            {"runs": RUNS, "run": run, "count": MISSED}))
        session.execute(text("UPDATE games SET deadline_at = :at WHERE id = ANY(:ids)"),
                        {"at": now - timedelta(minutes=1), "ids": ids})
        session.commit()
        clear_cache()
        total, longest, reports = _ticks(session, now)
        fired = {game for r in reports for game, _ in r.defaulted}
        left = session.scalar(text("SELECT count(*) FROM games WHERE status = 'active' AND deadline_at <= :at"),
                              {"at": now})
        assert len(fired) >= MISSED * 0.9 and not left, (len(fired), left)
        samples.append((total, longest))
        _log(f"missed run {run + 1}: {total:.2f} s, {sum(len(r.defaulted) for r in reports)} defaults, "
             f"{len(reports)} ticks")
    return _row("scale.tick_missed_1000_s", samples, 10.0,
                note="1,000 games past their deadline: defaults played, games advanced")


def _digests(session: Any, now: datetime) -> dict[str, Any]:
    from pbem.services.state import clear_cache
    samples = []
    for run in range(RUNS):
        _quiet(session, now)
        session.execute(text("UPDATE users SET digest_on = NULL"))
        session.execute(text("UPDATE seats SET events_reported = 0"))
        session.execute(text("DELETE FROM mail_delivery"))
        session.execute(text("DELETE FROM outbox"))
        session.commit()
        clear_cache()
        total, longest, reports = _ticks(session, now)
        mailed = sum(len(r.digests) for r in reports)
        assert mailed == TEMPLATE_USERS * COPIES, mailed
        samples.append((total, longest))
        _log(f"digest run {run + 1}: {total:.2f} s, {mailed} digests, {len(reports)} ticks")
    _quiet(session, now)
    return _row("scale.digests_5000_s", samples, 20.0, note="every person's digest due in one tick (worst case)")


def _timed(what: str, work: Callable[[], Any]) -> float:
    began = time.perf_counter()
    work()
    spent = time.perf_counter() - began
    _log(f"{what}: {spent:.1f} s")
    return spent


def _built(session: Any) -> bool:
    """Whether the schema holds a built database already (a kept schema's second run)."""
    return bool(session.scalar(text("SELECT count(*) FROM users")))


def _cases(session: Any, now: datetime) -> list[dict[str, Any]]:
    chosen = {"idle": _idle, "missed": _missed, "digests": _digests}
    unknown = [name for name in CASES if name not in chosen]
    if unknown:
        raise ValueError(f"unknown scale case {unknown[0]!r}; the cases: {', '.join(chosen)}")
    profile = None
    if PROFILE:
        import cProfile
        profile = cProfile.Profile()
        profile.enable()
    try:
        return [chosen[name](session, now) for name in CASES]
    finally:
        if profile is not None:
            profile.disable()
            profile.dump_stats(PROFILE)
            _log(f"profile written to {PROFILE}")


def run() -> list[dict[str, Any]]:
    from pbem.app import create_app
    from pbem.db import upgrade
    from pbem.extensions import db

    url = schema_url(SCHEMA) if KEPT else create_schema(SCHEMA)
    try:
        upgrade(url)
        app = create_app({"PBEM_ENV": "testing", "SECRET_KEY": "bench", "DATABASE_URL": url,
                          "RATELIMIT_ENABLED": False})
        with app.app_context():
            session = db.session()
            rows = []
            if not _built(session):
                began = time.perf_counter()
                _timed("template through the services", lambda: _template(session))
                _timed("SQL copies", lambda: _copy(session))
                build = time.perf_counter() - began
                rows.append({"name": "scale.build_s", "value": round(build, 1), "unit": "s", "goal": "<= 180 s",
                             "games": TEMPLATE_GAMES * COPIES, "users": TEMPLATE_USERS * COPIES,
                             "note": f"{TEMPLATE_GAMES} games through the services, then {COPIES - 1} SQL copies"})
            now = _moment(datetime.now(timezone.utc))
            _quiet(session, now)
            rows += _cases(session, now)
            session.close()
            db.engine.dispose()
        return rows
    finally:
        if not KEPT:
            drop_schema(SCHEMA)
