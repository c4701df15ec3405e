"""The host's controls: extensions and pauses, each capped and logged."""
from __future__ import annotations

from datetime import timedelta

import pytest

from pbem.services import deadlines
from pbem.services.errors import Conflict, Forbidden, Invalid
from deadline_helpers import HOUR, SECOND, events, fresh, make_user, play_own, policy_game, tick, two_humans

DAY = timedelta(days=1)


def test_an_extension_moves_the_deadline_is_logged_and_announced(session, ana):
    game = policy_game(session, ana)
    before, now = game.deadline_at, game.decision_at + HOUR
    deadlines.extend_deadline(session, game.id, ana, 24, now)
    game = fresh(session, game)
    assert game.deadline_at == before + 24 * HOUR
    event = events(session, game, "extend")[-1]
    assert event.hours == 24 and event.user_id == ana.id and "extended the deadline by 24 hours" in event.text
    # Nothing fires at the old deadline; the new one fires.
    assert tick(session, before + SECOND).defaulted == []
    assert tick(session, before + 24 * HOUR + SECOND).defaulted


def test_extensions_are_capped_per_decision_in_number_and_hours(session, ana):
    game = policy_game(session, ana)
    now = game.decision_at
    with pytest.raises(Invalid):
        deadlines.extend_deadline(session, game.id, ana, 73, now)
    with pytest.raises(Invalid):
        deadlines.extend_deadline(session, game.id, ana, 0, now)
    deadlines.extend_deadline(session, game.id, ana, 60, now)
    with pytest.raises(Conflict, match="at most 72 hours of extension per decision; 12 left"):
        deadlines.extend_deadline(session, game.id, ana, 13, now)
    deadlines.extend_deadline(session, game.id, ana, 12, now)
    with pytest.raises(Conflict, match="extended 2 times already; at most 2 extensions per decision"):
        deadlines.extend_deadline(session, game.id, ana, 1, now)
    assert fresh(session, game).deadline_at == game.decision_at + (48 + 72) * HOUR
    assert len(events(session, game, "extend")) == 2


def test_extensions_are_capped_per_game(session, ana):
    game = policy_game(session, ana)
    for _ in range(2):  # two decisions extended by 72 hours each
        deadlines.extend_deadline(session, game.id, ana, 72, fresh(session, game).decision_at)
        play_own(session, game, ana)
    with pytest.raises(Conflict, match="at most 168 hours of extension per game; 24 left"):
        deadlines.extend_deadline(session, game.id, ana, 25, fresh(session, game).decision_at)
    deadlines.extend_deadline(session, game.id, ana, 24, fresh(session, game).decision_at)


def test_only_the_host_extends_and_only_a_running_deadline(session, ana):
    bo = make_user(session, "bo@example.com", "Bo")
    game = two_humans(session, ana, bo)
    with pytest.raises(Forbidden):
        deadlines.extend_deadline(session, game.id, bo, 24, game.decision_at)
    without = policy_game(session, ana, hours={"power": None})
    with pytest.raises(Conflict, match="no deadline to extend"):
        deadlines.extend_deadline(session, without.id, ana, 24, without.decision_at)


def test_a_pause_stops_the_clock_and_resuming_keeps_the_time_left(session, ana):
    game = policy_game(session, ana)
    t0, deadline = game.decision_at, game.deadline_at
    deadlines.pause_game(session, game.id, ana, t0 + HOUR)
    with pytest.raises(Conflict, match="paused already"):
        deadlines.pause_game(session, game.id, ana, t0 + HOUR)
    with pytest.raises(Conflict, match="paused"):
        deadlines.extend_deadline(session, game.id, ana, 1, t0 + HOUR)
    # Paused: no reminders, no defaults, whatever the clock says.
    report = tick(session, deadline + 2 * DAY)
    assert report.defaulted == [] and report.reminded == []
    deadlines.resume_game(session, game.id, ana, t0 + HOUR + 3 * DAY)
    game = fresh(session, game)
    assert game.paused_at is None and game.deadline_at == deadline + 3 * DAY
    assert game.paused_seconds == 3 * 24 * 3600
    assert [e.type for e in events(session, game)] == ["pause", "resume"]
    assert tick(session, deadline + 3 * DAY + SECOND).defaulted


def test_pauses_are_capped_per_game_and_end_by_themselves(session, ana):
    game = policy_game(session, ana)
    t0 = game.decision_at
    deadlines.pause_game(session, game.id, ana, t0)
    deadlines.resume_game(session, game.id, ana, t0 + 10 * DAY)
    deadlines.pause_game(session, game.id, ana, t0 + 10 * DAY)
    assert tick(session, t0 + 14 * DAY - SECOND).resumed == []
    assert tick(session, t0 + 14 * DAY).resumed == [game.id]  # 14 days of pause used up
    game = fresh(session, game)
    assert game.paused_at is None and "resumed by itself" in events(session, game, "resume")[-1].text
    with pytest.raises(Conflict, match="used all of its 14 days of pause"):
        deadlines.pause_game(session, game.id, ana, t0 + 15 * DAY)


def test_only_the_host_pauses(session, ana):
    bo = make_user(session, "bo@example.com", "Bo")
    game = two_humans(session, ana, bo)
    with pytest.raises(Forbidden):
        deadlines.pause_game(session, game.id, bo, game.decision_at)
    with pytest.raises(Conflict, match="not paused"):
        deadlines.resume_game(session, game.id, ana, game.decision_at)
