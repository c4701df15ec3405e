"""Vacations: caps in length and frequency, no overlaps, and what they do to games
("stretch": deadlines wait; "bot": the default plays while the person is away)."""
from __future__ import annotations

from datetime import date, datetime, timedelta, timezone

import pytest

from pbem.models import User, Vacation, now
from pbem.services.locking import lock_row
from pbem.services import accounts, vacations
from pbem.services.policy import policy_of
from pbem.services.errors import Conflict, Invalid, NotFound
from deadline_helpers import (HOUR, SECOND, events, fresh, log, mails, make_user, owes, play_own, seat_of, tick,
                              two_humans, until_owes)

DAY = timedelta(days=1)
NOW = datetime(2027, 3, 1, 12, 0, tzinfo=timezone.utc)


def test_a_vacation_is_at_most_14_days_and_never_starts_in_the_past(session, ana):
    with pytest.raises(Invalid, match="at most 14 days"):
        vacations.declare_vacation(session, ana, NOW + DAY, NOW + 16 * DAY, NOW)
    with pytest.raises(Invalid, match="past"):
        vacations.declare_vacation(session, ana, NOW - HOUR, NOW + DAY, NOW)
    with pytest.raises(Invalid, match="ends after it starts"):
        vacations.declare_vacation(session, ana, NOW + DAY, NOW + DAY, NOW)
    with pytest.raises(Invalid, match="ahead"):
        vacations.declare_vacation(session, ana, NOW + 400 * DAY, NOW + 401 * DAY, NOW)
    vacation = vacations.declare_vacation(session, ana, NOW + DAY, NOW + 15 * DAY, NOW)
    assert vacation.ends_at - vacation.starts_at == 14 * DAY
    assert "Your vacation is noted" in mails(session, "ana@example.com", "vacation")[-1].body


def test_vacations_do_not_overlap(session, ana):
    vacations.declare_vacation(session, ana, NOW + 10 * DAY, NOW + 15 * DAY, NOW)
    with pytest.raises(Conflict, match="overlaps"):
        vacations.declare_vacation(session, ana, NOW + 14 * DAY, NOW + 20 * DAY, NOW)
    vacations.declare_vacation(session, ana, NOW + 15 * DAY, NOW + 20 * DAY, NOW)  # back to back is fine


def test_at_most_30_days_in_any_365(session, ana):
    vacations.declare_vacation(session, ana, NOW + DAY, NOW + 15 * DAY, NOW)
    vacations.declare_vacation(session, ana, NOW + 100 * DAY, NOW + 114 * DAY, NOW)
    with pytest.raises(Conflict, match="at most 30 days of vacation in any 365 days; with this one you would have 31"):
        vacations.declare_vacation(session, ana, NOW + 200 * DAY, NOW + 203 * DAY, NOW)
    vacations.declare_vacation(session, ana, NOW + 200 * DAY, NOW + 202 * DAY, NOW)  # exactly 30
    # A year after the first one started, its days no longer count.
    vacations.declare_vacation(session, ana, NOW + 366 * DAY, NOW + 370 * DAY, NOW + 300 * DAY)


def test_dates_are_read_in_the_persons_time_zone(session, ana):
    accounts.update_profile(session, ana, display_name="Ana", time_zone="Europe/Paris", notify_turn=True,
                            notify_results=True, notify_invites=True)
    vacation = vacations.declare_vacation_dates(session, ana, date(2027, 3, 10), date(2027, 3, 12), NOW)
    assert vacation.starts_at == datetime(2027, 3, 9, 23, 0, tzinfo=timezone.utc)  # midnight in Paris
    assert vacation.ends_at == datetime(2027, 3, 12, 23, 0, tzinfo=timezone.utc)  # the end day included
    today = vacations.declare_vacation_dates(session, ana, date(2027, 3, 1), date(2027, 3, 2), NOW)
    assert today.starts_at == NOW  # starting today means now


def test_cancelling(session, ana):
    later = vacations.declare_vacation(session, ana, NOW + 5 * DAY, NOW + 7 * DAY, NOW)
    vacations.cancel_vacation(session, ana, later.id, NOW)
    assert session.get(Vacation, later.id) is None  # not begun: forgotten
    ongoing = vacations.declare_vacation(session, ana, NOW, NOW + 7 * DAY, NOW)
    vacations.cancel_vacation(session, ana, ongoing.id, NOW + DAY)
    assert session.get(Vacation, ongoing.id).ends_at == NOW + DAY  # under way: ends now
    with pytest.raises(Conflict):
        vacations.cancel_vacation(session, ana, ongoing.id, NOW + 2 * DAY)
    bo = make_user(session, "bo@example.com")
    mine = vacations.declare_vacation(session, ana, NOW + 20 * DAY, NOW + 21 * DAY, NOW)
    with pytest.raises(NotFound):
        vacations.cancel_vacation(session, bo, mine.id, NOW)
    assert [v.id for v in vacations.upcoming(session, ana, NOW + 2 * DAY)] == [mine.id]


def test_stretch_a_decision_owed_by_someone_away_waits_for_their_return(session, ana, bo):
    game = two_humans(session, ana, bo)  # vacation rule "stretch" by default
    until_owes(session, game, bo, [ana])
    game = fresh(session, game)
    t0, normal = game.decision_at, game.deadline_at
    vacation = vacations.declare_vacation(session, bo, t0 + HOUR, t0 + 6 * DAY, t0 + HOUR)
    game = fresh(session, game)
    assert game.deadline_at == vacation.ends_at + 48 * HOUR
    assert tick(session, normal + SECOND).defaulted == []
    assert vacations.away_until(session, [bo.id], t0 + 2 * DAY) == {bo.id: vacation.ends_at}
    # Back early: the vacation ends now, and so the deadline is the usual hours after the return.
    vacations.cancel_vacation(session, bo, vacation.id, t0 + 3 * DAY)
    assert fresh(session, game).deadline_at == t0 + 3 * DAY + 48 * HOUR
    assert tick(session, t0 + 5 * DAY - SECOND).defaulted == []
    assert tick(session, t0 + 5 * DAY + SECOND).defaulted == [(game.id, seat_of(session, game, bo).name)]


def test_stretch_a_decision_an_advance_asks_of_someone_already_away(session, ana, bo):
    """Rule "stretch": a decision owed by someone away waits for their return.  Here the
    vacation is declared first and the advance that asks Bo starts the decision: it reads
    Bo's vacation with the game's people and stretches the new deadline at once."""
    game = two_humans(session, ana, bo)
    declared = now()
    vacation = vacations.declare_vacation(session, bo, declared, declared + 6 * DAY, declared)
    asked = fresh(session, game).decision_seq
    for _ in range(20):  # until an advance after the declaration asks Bo anew
        until_owes(session, game, bo, [ana])
        if fresh(session, game).decision_seq != asked:
            break
        play_own(session, game, bo)
    game = fresh(session, game)
    assert game.decision_seq != asked and game.decision_at >= declared
    hours = policy_of(game).hours_for(owes(session, game, bo))
    assert game.deadline_at == vacation.ends_at + hours * HOUR


def test_a_vacation_cancelled_before_it_began_stretches_nothing(session, ana, bo):
    game = two_humans(session, ana, bo)
    until_owes(session, game, bo, [ana])
    game = fresh(session, game)
    t0, normal = game.decision_at, game.deadline_at
    vacation = vacations.declare_vacation(session, bo, t0 + 2 * HOUR, t0 + 6 * DAY, t0 + HOUR)
    assert fresh(session, game).deadline_at == vacation.ends_at + 48 * HOUR
    vacations.cancel_vacation(session, bo, vacation.id, t0 + HOUR)
    assert fresh(session, game).deadline_at == normal


def test_stretch_is_capped(session, ana, bo):
    game = two_humans(session, ana, bo, hours={"power": 300})
    until_owes(session, game, bo, [ana])
    t0 = fresh(session, game).decision_at
    vacations.declare_vacation(session, bo, t0, t0 + 14 * DAY, t0)
    vacations.declare_vacation(session, bo, t0 + 14 * DAY, t0 + 16 * DAY, t0)
    game = fresh(session, game)
    assert game.deadline_at == t0 + 300 * HOUR + vacations.MAX_LENGTH  # not past the cap


def test_bot_rule_the_default_plays_at_once_while_away_and_stops_after(session, ana, bo):
    game = two_humans(session, ana, bo, vacation="bot")
    until_owes(session, game, bo, [ana])
    t0 = fresh(session, game).decision_at
    bo_seat = seat_of(session, game, bo).name
    vacation = vacations.declare_vacation(session, bo, t0, t0 + 3 * DAY, t0)
    seat = seat_of(session, game, bo)
    assert seat.stand_in == "heuristic" and seat.stand_in_reason == "vacation" and not seat.waiting
    assert any(seat == bo_seat and by == "stand-in" for seat, _, by in log(session, game))
    assert "is away" in events(session, game, "away")[-1].text
    assert seat_of(session, game, bo).missed_in_row == 0  # playing for someone away is no miss
    # Back: the tick switches the stand-in off.
    report = tick(session, vacation.ends_at + SECOND)
    assert (game.id, bo_seat, "off") in report.stand_ins
    assert seat_of(session, game, bo).stand_in is None
    assert "back" in events(session, game, "back")[-1].text


def test_bot_rule_a_vacation_that_starts_later_begins_with_the_tick(session, ana, bo):
    game = two_humans(session, ana, bo, vacation="bot")
    t0 = game.decision_at
    vacations.declare_vacation(session, bo, t0 + DAY, t0 + 2 * DAY, t0)
    assert seat_of(session, game, bo).stand_in is None
    report = tick(session, t0 + DAY + SECOND)
    assert (game.id, seat_of(session, game, bo).name, "on") in report.stand_ins
    assert seat_of(session, game, bo).stand_in == "heuristic"


def test_two_declarations_at_once_see_each_other(session, ana):
    """Another declaration of Ana's holds her row (it has checked her vacations and is adding
    its own).  A second declaration overlapping it must wait for it, then be refused: checking
    only the vacations already there, both would be added."""
    import threading
    import time

    from sqlalchemy import text
    from sqlalchemy.orm import Session

    if session.get_bind().dialect.name != "postgresql":
        pytest.skip("SQLite has one write lock: the second declaration starts after the first commits")
    bind, outcome = session.get_bind(), {}

    def second() -> None:
        with Session(bind) as own:
            try:
                vacations.declare_vacation(own, own.get(type(ana), ana.id), NOW + 3 * DAY, NOW + 8 * DAY, NOW)
                outcome["second"] = "declared"
            except Conflict as refused:
                outcome["second"] = str(refused)

    with Session(bind) as first:
        lock_row(first, User, ana.id)
        first.add(Vacation(user_id=ana.id, starts_at=NOW + DAY, ends_at=NOW + 5 * DAY, created_at=NOW))
        first.flush()
        holder = first.scalar(text("SELECT pg_backend_pid()"))
        thread = threading.Thread(target=second)
        thread.start()
        with Session(bind) as probe:
            deadline = time.monotonic() + 30
            while time.monotonic() < deadline and not outcome and not probe.scalar(
                    text("SELECT count(*) FROM pg_stat_activity WHERE :holder = ANY(pg_blocking_pids(pid))"),
                    {"holder": holder}):
                probe.rollback()
                time.sleep(0.01)
        first.commit()
    thread.join(30)
    assert "overlaps" in outcome["second"]
    assert session.query(Vacation).filter_by(user_id=ana.id).count() == 1
