"""Development turns queued ahead: accepted when it is not your turn, played in order when
your turns come, cancelled one by one or all, replaced; an illegal one is dropped."""
from __future__ import annotations

import pytest

from pbem.services import play, turn_queue
from pbem.services.errors import OrderRejected
from pbem.services.state import game_state
from deadline_helpers import fresh, log, mails, owes, play_own, policy_game, seat_of


@pytest.fixture
def game(session, ana):
    return policy_game(session, ana, bots=("heuristic", "random"))


def my_turns(session, game, ana):
    seat_name = seat_of(session, game, ana).name
    return [text for seat, text, _ in log(session, game) if seat == seat_name and text.startswith("place")]


def test_turns_are_queued_when_it_is_not_your_turn_and_played_in_order(session, game, ana):
    assert owes(session, game, ana) == "power"
    with pytest.raises(OrderRejected):  # as orders, turns are refused now...
        play.submit_for_user(session, game.id, ana, "place 12", channel="api")
    queued = turn_queue.queue_turns(session, game.id, ana, "place 12\nPlace 3 move 3 to 4\nplace 5")
    assert queued == ["place 12", "place 3 move 3 to 4", "place 5"]  # ...but may be queued
    assert turn_queue.list_queue(session, game.id, ana) == queued
    play_own(session, game, ana)  # the power card: development begins and runs on
    assert my_turns(session, game, ana) == queued
    seat_name = seat_of(session, game, ana).name
    assert all(by == "player" for seat, text, by in log(session, game) if seat == seat_name)
    assert turn_queue.list_queue(session, game.id, ana) == []
    assert owes(session, game, ana) == "turn"  # the queue is used up: asked as usual


def test_turns_left_when_the_development_phase_ends_are_dropped(session, game, ana):
    turn_queue.queue_turns(session, game.id, ana, "\n".join(f"place {n}" for n in range(1, 11)))
    play_own(session, game, ana)
    assert len(my_turns(session, game, ana)) == 8  # 3 players: 8 pawns in age 1
    assert turn_queue.list_queue(session, game.id, ana) == []
    assert game_state(session, fresh(session, game)).phase != "development"


def test_cancel_one_or_all_and_replace(session, game, ana):
    turn_queue.queue_turns(session, game.id, ana, "place 1\nplace 2\nplace 3")
    assert turn_queue.cancel_queued(session, game.id, ana, 2) == ["place 1", "place 3"]
    with pytest.raises(Exception, match="no queued turn 3; you have 2"):
        turn_queue.cancel_queued(session, game.id, ana, 3)
    assert turn_queue.queue_turns(session, game.id, ana, "place 7") == ["place 7"]  # replaces
    assert turn_queue.cancel_queued(session, game.id, ana, None) == []
    play_own(session, game, ana)
    assert my_turns(session, game, ana) == []


def test_only_development_turns_that_fit_the_board_are_queued(session, game, ana):
    for text, message in (("card 3", "not a development turn"), ("place 99", "99"),
                          ("place 1 move 1 to 30", "not adjacent"), ("", "no turns found")):
        with pytest.raises(OrderRejected, match=message):
            turn_queue.queue_turns(session, game.id, ana, text)
    with pytest.raises(OrderRejected, match="at most 20"):
        turn_queue.queue_turns(session, game.id, ana, "\n".join(["place 1"] * 21))
    assert turn_queue.list_queue(session, game.id, ana) == []


def test_an_illegal_queued_turn_is_dropped_and_the_seat_asked(session, game, ana):
    # No Eagle and Jaguar card in age 1: legal on the board, illegal when its turn comes.
    turn_queue.queue_turns(session, game.id, ana, "place 5 eagle 6\nplace 7\nplace 8")
    play_own(session, game, ana)
    seat = seat_of(session, game, ana)
    assert owes(session, game, ana) == "turn" and seat.waiting
    assert "place 5 eagle 6" in seat.last_error and "Eagle" in seat.last_error
    assert my_turns(session, game, ana) == []
    mail = mails(session, "ana@example.com", "queue-error")[-1]
    assert "place 5 eagle 6" in mail.body and "dropped" in mail.body
    # The rest waits for the seat's own order for this turn, then goes on.
    assert turn_queue.list_queue(session, game.id, ana) == ["place 7", "place 8"]
    play.submit_for_user(session, game.id, ana, "place 20", channel="web")
    assert my_turns(session, game, ana)[:3] == ["place 20", "place 7", "place 8"]


def test_queueing_on_your_turn_plays_the_first_at_once(session, game, ana):
    play_own(session, game, ana)
    while owes(session, game, ana) != "turn":
        play_own(session, game, ana)
    before = len(my_turns(session, game, ana))
    turn_queue.queue_turns(session, game.id, ana, "place 11\nplace 12")
    assert my_turns(session, game, ana)[before:before + 1] == ["place 11"]
