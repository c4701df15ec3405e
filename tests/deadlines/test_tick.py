"""The deadline tick with a controllable clock: reminders, defaults, missed-turn counting,
replacement and takeover, outage back-off, overlapping ticks."""
from __future__ import annotations

import re
from datetime import timedelta
from zoneinfo import ZoneInfo

import pytest
from sqlalchemy import select
from sqlalchemy.orm import Session

from pbem.models import Game, PendingOrder
from pbem.services import deadlines, lobby, play
from pbem.services.errors import Conflict, Forbidden
from pbem.services.locking import lock_game
from pbem.services.state import game_state
from deadline_helpers import (HOUR, SECOND, events, fresh, log, mails, make_user, overlapping_ticks, owes, play_own,
                              policy_game, seat_of, tick, two_humans, until_owes)


def test_a_new_decision_gets_its_kinds_deadline(session, ana):
    game = policy_game(session, ana, hours={"power": 30})
    assert owes(session, game, ana) == "power"
    assert game.deadline_at == game.decision_at + 30 * HOUR
    play_own(session, game, ana)  # the card; the development turns begin
    game = fresh(session, game)
    if owes(session, game, ana) == "turn":
        assert game.deadline_at == game.decision_at + 24 * HOUR


def test_no_deadline_for_a_kind_without_hours(session, ana):
    game = policy_game(session, ana, hours={"power": None})
    assert game.deadline_at is None and game.decision_at is not None
    assert tick(session, game.decision_at + 1000 * HOUR).defaulted == []


def test_reminders_go_once_and_only_to_seats_that_have_not_acted(session, ana, bo):
    game = two_humans(session, ana, bo)
    t0, deadline = game.decision_at, game.deadline_at
    assert deadline == t0 + 48 * HOUR
    play.submit_for_user(session, game.id, bo, f"card {game_state(session, game).power_left[0][0]}", channel="web")
    # Bo's secret card is pending (committed, not applied): Bo has acted.
    assert tick(session, deadline - 25 * HOUR).reminded == []
    report = tick(session, deadline - 24 * HOUR + SECOND)
    assert report.reminded == [(game.id, seat_of(session, game, ana).name)]
    assert tick(session, deadline - 23 * HOUR).reminded == []  # once
    assert tick(session, deadline - 2 * HOUR + SECOND).reminded == [(game.id, seat_of(session, game, ana).name)]
    assert tick(session, deadline - HOUR).reminded == []
    reminders = mails(session, topic="reminder")
    assert [m.to_address for m in reminders] == ["ana@example.com"] * 2
    assert "deadline is" in reminders[0].body and "UTC" in reminders[0].body


def test_a_24_hour_turn_gets_only_the_two_hour_reminder(session, ana):
    game = policy_game(session, ana, hours={"power": 24})
    deadline = game.deadline_at
    assert tick(session, deadline - 24 * HOUR + SECOND).reminded == []
    assert tick(session, deadline - 2 * HOUR + SECOND).reminded != []


def test_reminders_are_in_the_readers_time_zone(session, ana):
    from pbem.services import accounts
    accounts.update_profile(session, ana, display_name="Ana", time_zone="Asia/Tokyo", notify_turn=True,
                            notify_results=True, notify_invites=True)
    game = policy_game(session, ana)
    tick(session, game.deadline_at - 2 * HOUR + SECOND)
    body = mails(session, topic="reminder")[-1].body
    local = game.deadline_at.astimezone(ZoneInfo("Asia/Tokyo"))
    assert f"{local:%H:%M} JST" in body


@pytest.mark.parametrize("bot", ["heuristic", "minimal"])
def test_a_missed_decision_gets_the_games_default_marked_in_the_log(session, ana, bot):
    game = policy_game(session, ana, default=bot)
    cards = game_state(session, game).power_left[game_state(session, game).seats.index(
        seat_of(session, game, ana).name)]
    deadline = game.deadline_at
    assert tick(session, deadline - SECOND).defaulted == []
    report = tick(session, deadline + SECOND)
    seat_name = seat_of(session, game, ana).name
    assert report.defaulted == [(game.id, seat_name)]
    mine = [(text, by) for seat, text, by in log(session, game) if seat == seat_name]
    assert mine[0][1] == "default" and mine[0][0].startswith("card ")
    if bot == "minimal":
        assert mine[0][0] == f"card {min(cards)}"  # the least a seat can do
    assert all(by == "bot" for seat, _, by in log(session, game) if seat != seat_name)
    assert seat_of(session, game, ana).missed_in_row == 1 and seat_of(session, game, ana).missed_total == 1
    mail = mails(session, "ana@example.com", "missed")[-1]
    assert f"The {bot} bot played for you: {mine[0][0]}" in mail.body
    # The history says so, publicly, without the secret card.
    event = events(session, game, "default")[-1]
    assert "(missed: default" in event.text and not re.search(r"card \d", event.text)
    # The game moved on and the next decision has a deadline of its own.
    game = fresh(session, game)
    assert game.decision_seq and game.decision_seq > 0 and game.deadline_at > deadline


def test_missed_in_row_resets_when_the_seat_gives_its_own_order(session, ana):
    game = policy_game(session, ana)
    tick(session, game.deadline_at + SECOND)
    assert seat_of(session, game, ana).missed_in_row == 1
    play_own(session, game, ana)
    seat = seat_of(session, game, ana)
    assert seat.missed_in_row == 0 and seat.missed_total == 1


def test_unconfirmed_is_not_missed_a_pending_order_counts_as_acted(session, ana, bo):
    game = two_humans(session, ana, bo)
    play_own(session, game, bo)  # pending: waits for Ana's card
    tick(session, fresh(session, game).deadline_at + SECOND)
    assert seat_of(session, game, bo).missed_in_row == 0 and seat_of(session, game, ana).missed_in_row == 1
    bo_seat = seat_of(session, game, bo).name
    assert [by for seat, _, by in log(session, game) if seat == bo_seat][:1] == ["player"]


def test_on_missed_wait_plays_nothing_tells_seat_and_host_and_rearms(session, ana, bo):
    game = two_humans(session, ana, bo, on_missed="wait")
    play_own(session, game, ana)
    deadline = fresh(session, game).deadline_at
    report = tick(session, deadline + SECOND)
    bo_seat = seat_of(session, game, bo).name
    assert report.missed == [(game.id, bo_seat)] and report.defaulted == []
    assert session.scalars(select(PendingOrder).where(PendingOrder.channel == "default")).all() == []
    assert fresh(session, game).deadline_at == deadline + 48 * HOUR  # one more window
    assert {m.to_address for m in mails(session, topic="missed")} == {"ana@example.com", "bo@example.com"}
    assert tick(session, deadline + 2 * SECOND).missed == []  # once per window


def test_after_n_misses_the_seat_is_offered_and_a_bot_plays_it_until_taken_over(session, ana, bo):
    game = two_humans(session, ana, bo, replace_after=2)
    bo_seat = seat_of(session, game, bo).name
    for missed in (1, 2):
        until_owes(session, game, bo, [ana])
        report = tick(session, fresh(session, game).deadline_at + SECOND)
        assert (game.id, bo_seat) in report.defaulted
        assert seat_of(session, game, bo).missed_in_row == missed
    assert report.offered == [(game.id, bo_seat)]
    told = [event.type for event in events(session, game) if event.seat == bo_seat]
    assert told[-2:] == ["default", "offered"]  # the history says why before what followed
    seat = seat_of(session, game, bo)
    assert seat.replacement_offered_at is not None and seat.stand_in == "heuristic"
    offer = mails(session, "ana@example.com", "replacement")[-1]  # Ana hosts
    assert bo_seat in offer.subject and "takeover" in offer.body.lower()
    assert game.id in [g.id for g in deadlines.takeover_games(session)]
    # Meanwhile the stand-in plays Bo's decisions at once: Bo is never waited for.
    before = len(log(session, game))
    for _ in range(6):
        if owes(session, game, ana):
            play_own(session, game, ana)
    assert any(seat == bo_seat and by == "stand-in" for seat, _, by in log(session, game)[before:])
    assert not seat_of(session, game, bo).waiting
    # Cy takes it over: the seat, its view and its hand are now Cy's, and Bo's are gone.
    cy = make_user(session, "cy@example.com", "Cy")
    with pytest.raises(Conflict):
        deadlines.take_over(session, game.id, ana, bo_seat, fresh(session, game).decision_at)
    deadlines.take_over(session, game.id, cy, bo_seat, fresh(session, game).decision_at)
    game = fresh(session, game)
    seat = next(s for s in game.seats if s.name == bo_seat)
    assert seat.user_id == cy.id and seat.stand_in is None and seat.replacement_offered_at is None
    assert play.game_view(session, game, cy).seat.name == bo_seat
    assert play.seat_of(game, bo) is None
    assert {p["seat"]: p["name"] for p in game.setup["players"]}[bo_seat] == "Cy"
    assert "Cy took over" in events(session, game, "takeover")[-1].text
    assert game.id not in [g.id for g in deadlines.takeover_games(session)]
    with pytest.raises(Conflict):  # no longer offered
        deadlines.take_over(session, game.id, make_user(session, "di@example.com"), bo_seat, game.decision_at)


def test_a_returning_player_takes_the_offered_seat_back_with_an_order(session, ana, bo):
    game = two_humans(session, ana, bo, replace_after=1)
    until_owes(session, game, bo, [ana])
    tick(session, fresh(session, game).deadline_at + SECOND)
    seat = seat_of(session, game, bo)
    assert seat.stand_in == "heuristic" and seat.replacement_offered_at is not None
    until_owes(session, game, ana, [])  # the stand-in played Bo's turns; the game waits for Ana
    # Bo queues turns of his own: he is back; the stand-in stops and the offer is withdrawn.
    from pbem.services import turn_queue
    turn_queue.queue_turns(session, game.id, bo, "place 1\nplace 2")
    seat = seat_of(session, game, bo)
    assert seat.stand_in is None and seat.replacement_offered_at is None and seat.missed_in_row == 0
    assert game.id not in [g.id for g in deadlines.takeover_games(session)]


def test_the_host_can_hand_an_offered_seat_to_a_bot(session, ana, bo):
    game = two_humans(session, ana, bo, replace_after=1)
    until_owes(session, game, bo, [ana])
    tick(session, fresh(session, game).deadline_at + SECOND)
    bo_seat = seat_of(session, game, bo).name
    with pytest.raises(Forbidden):
        deadlines.hand_to_bot(session, game.id, bo, bo_seat, "minimal", game.decision_at)
    deadlines.hand_to_bot(session, game.id, ana, bo_seat, "minimal", fresh(session, game).decision_at)
    seat = next(s for s in fresh(session, game).seats if s.name == bo_seat)
    assert seat.bot == "minimal" and seat.user_id is None and seat.replacement_offered_at is None


def test_outage_back_off_pushes_due_deadlines_and_tells_hosts_instead_of_firing(session, ana, bo):
    game = two_humans(session, ana, bo)
    other = policy_game(session, bo)  # Bo hosts this one
    due = max(fresh(session, game).deadline_at, fresh(session, other).deadline_at)
    now = due + 3 * HOUR
    report = tick(session, now, gap=5 * HOUR)
    assert report.outage and sorted(report.pushed) == sorted([game.id, other.id])
    assert report.defaulted == [] and report.missed == []
    assert timedelta(0) <= fresh(session, game).deadline_at - (now + deadlines.OUTAGE_GRACE) < SECOND
    assert {m.to_address for m in mails(session, topic="outage")} == {"ana@example.com", "bo@example.com"}
    assert "down" in events(session, game, "outage")[-1].text
    assert all(by != "default" for _, _, by in log(session, game))
    # The next ticks run normally: nothing fires before the new deadline, then it does.
    assert tick(session, now + 30 * SECOND).defaulted == []
    assert tick(session, now + deadlines.OUTAGE_GRACE + 2 * SECOND).defaulted


def test_a_short_gap_is_no_outage(session, ana):
    game = policy_game(session, ana)
    report = tick(session, game.deadline_at + SECOND, gap=59 * 60 * SECOND)
    assert not report.outage and report.defaulted


def test_ticking_twice_changes_nothing_the_second_time(session, ana):
    game = policy_game(session, ana)
    now = game.deadline_at + SECOND
    first, second = tick(session, now), tick(session, now)
    assert first.defaulted and not second.defaulted
    assert [by for *_, by in log(session, game)].count("default") == 1


def test_overlapping_ticks_apply_a_default_once(app, session, ana):
    game = policy_game(session, ana)
    now = game.deadline_at + SECOND
    tick(session, now - 10 * SECOND)  # primes the tick state: no outage
    reports = overlapping_ticks(session, now)
    assert sum(len(r.defaulted) for r in reports) == 1
    assert [by for *_, by in log(session, game)].count("default") == 1


def test_a_game_locked_elsewhere_is_skipped_on_postgresql(app, session, ana):
    if session.get_bind().dialect.name != "postgresql":
        pytest.skip("SQLite has one write lock: a second writer waits instead of skipping")
    game = policy_game(session, ana)
    now = game.deadline_at + SECOND
    with Session(session.get_bind()) as holder:
        lock_game(holder, game.id)  # an advance in progress elsewhere
        report = tick(session, now)
        assert report.skipped == [game.id] and report.defaulted == []
        holder.rollback()
    assert tick(session, now).defaulted


def test_open_and_cancelled_games_have_no_deadline(session, ana, bo):
    waiting = policy_game(session, ana, invites=("bo@example.com",))
    assert fresh(session, waiting).status == Game.OPEN and fresh(session, waiting).deadline_at is None
    lobby.cancel_game(session, waiting.id, ana)
    assert tick(session, waiting.created_at + 1000 * HOUR).defaulted == []
