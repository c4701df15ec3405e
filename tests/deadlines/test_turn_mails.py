"""Who is told "your turn": a seat that owes a new decision, once per decision, even when it
never stopped owing one (a final turn's second action); never again while it is still settling
the same conflicts.  What a turn mail holds: what its reader needs to decide, from their view."""
from __future__ import annotations

import random

from deadline_helpers import decisions, fresh, log, mails, make_game, owes, play_own, policy_game, seat_of, two_humans
from engine import get_game
from pbem.games import presentation
from pbem.outbox.messages import queued, send_mail
from pbem.services import lobby, moves_mail, play
from pbem.services.notify import queue_turn_mail
from pbem.services.state import game_state, player_names
from pbem.testing import first_legal_order

SEED_TWO_ACTIONS = 7  # a game of Cóatl in which the first seat completes a third cóatl: the second's final turn has two actions


def turn_mails(session, user):
    return mails(session, to=user.primary_address, topic="turn")


def test_settling_several_conflicts_one_by_one_is_one_turn_mail(session, ana):
    game = policy_game(session, ana, bots=("random", "random", "random"))
    places = random.Random(3)
    for _ in range(400):
        owed = decisions(session, game, ana)
        assert owed, "the game waits for Ana alone, yet she owes nothing"
        decision = owed[0]
        won = decision["options"].get("won") or [] if decision["kind"] == "conflict" else []
        if len(won) >= 2:
            break
        order = (f"place {places.choice(decision['options']['place'])}" if decision["kind"] == "turn"
                 else first_legal_order(decision))
        play.submit_for_user(session, game.id, ana, order, channel="api")
    else:
        raise AssertionError("Ana never won two conflicts at once")
    told = len(turn_mails(session, ana))
    for territory in won[:-1]:  # one order a submission: the same conflict turn goes on
        play.submit_for_user(session, game.id, ana, f"coexist {territory}", channel="api")
        assert decisions(session, game, ana)[0]["kind"] == "conflict"
        assert len(turn_mails(session, ana)) == told
    play.submit_for_user(session, game.id, ana, f"coexist {won[-1]}", channel="api")
    if decisions(session, game, ana):  # her next decision, after the bots: told once more
        assert len(turn_mails(session, ana)) == told + 1


def test_a_turn_mail_queued_already_claims_no_news(session, ana, bo):
    # The news of a turn mail is counted as told when the mail is built: a mail that is not
    # built (its key is taken) must leave it for the next mail or the digest.
    ana.notify_turn = False  # while Bo moves, no turn mail of Ana's claims his news
    game = two_humans(session, ana, bo)
    for _ in range(40):  # until Ana owes a decision and has news of Bo's moves
        if owes(session, game, bo):
            play_own(session, game, bo)
        elif owes(session, game, ana) and any(seat == seat_of(session, game, bo).name for seat, _, _ in log(session, game)):
            break
        else:
            play_own(session, game, ana)
    ana.notify_turn = True
    session.commit()
    seat = seat_of(session, game, ana)
    state = game_state(session, fresh(session, game))
    key = f"turn:{game.id}:{len(state.order_log())}:{seat.name}"
    assert not queued(session, key)
    send_mail(session, ana.primary_address, "Your turn", "Already told.", topic="turn", key=key)
    session.commit()
    reported, count = seat.events_reported, len(turn_mails(session, ana))
    queue_turn_mail(session, fresh(session, game), state, seat_of(session, game, ana))
    session.commit()
    assert (seat_of(session, game, ana).events_reported, len(turn_mails(session, ana))) == (reported, count)
    assert moves_mail.since_last_turn(session, fresh(session, game), state, seat_of(session, game, ana))


# ---- what a turn mail holds, and a final turn of two actions (Cóatl) --------------------------------

def coatl_for_two(session, ana, bo, seed):
    """Ana and Bo in a game of Cóatl, started."""
    game = make_game(session, ana, game="coatl", players=2, bots=(), invites=["bo@example.com"], seed=seed)
    lobby.join_game(session, game.id, bo)
    return fresh(session, game)


def play_heuristic(session, game, people, stop):
    """Ana and Bo play the heuristic bot's orders until `stop(state, decision)` holds for the
    decision owed; returns it and its person."""
    rules = get_game("coatl")
    for step in range(600):
        state = game_state(session, fresh(session, game))
        assert not state.is_over(), "the game ended first"
        owed = state.decisions(options=False)
        if stop(state, owed[0]):
            return state, owed[0], people[owed[0].seat]
        for decision in owed:  # the setup's secret choices all at once, else the one turn
            order = rules.make_bot("heuristic", step).order(state, state.seats.index(decision.seat))
            play.submit_for_user(session, game.id, people[decision.seat], state.order_text(order), channel="api")
    raise AssertionError("the game never got there")


def test_a_final_turn_of_two_actions_is_asked_action_by_action(session, ana, bo):
    """The second action of a final turn is a decision of its own (DecisionKind.per_order):
    the first turn mail says two actions are due and both may go in one reply; a player who
    sends one gets a second turn mail for the other."""
    game = coatl_for_two(session, ana, bo, seed=SEED_TWO_ACTIONS)
    people = {seat.name: seat.user for seat in game.seats}
    state, decision, person = play_heuristic(
        session, game, people, lambda state, d: state.view(d.seat)["actions_left"] == 2)
    [first] = turn_mails(session, person)[-1:]
    assert "it is your turn to take an action." in first.body
    assert "This final turn has 2 actions: write them all in one reply" in first.body
    order = get_game("coatl").make_bot("heuristic", 1).order(state, state.seats.index(decision.seat))
    play.submit_for_user(session, game.id, person, state.order_text(order), channel="api")
    assert owes(session, game, person) == "turn"
    second = turn_mails(session, person)[-1]
    assert second.id != first.id and queued(session, f"turn:{game.id}:{len(state.order_log()) + 1}:{decision.seat}")
    assert "it is your turn to take an action." in second.body and "This final turn has" not in second.body


def test_a_turn_mail_shows_the_readers_own_board_hand_and_choices(session, ana, bo):
    """Cóatl: one reply can answer a turn mail: it holds BOARD and HAND as the reader would get
    them and what they may do now, from the reader's own view."""
    game = coatl_for_two(session, ana, bo, seed=7)
    people = {seat.name: seat.user for seat in game.seats}
    state, decision, person = play_heuristic(session, game, people, lambda state, d: d.kind == "turn"
                                             and len(state.order_log()) >= 6)
    shown = presentation("coatl")
    view = state.view(decision.seat)
    body = turn_mails(session, person)[-1].body
    assert shown.board_text(state, view, player_names(fresh(session, game))) in body
    assert shown.hand_text(view) in body
    assert "Your action now, one of:\n  take: " in body
    other = next(seat for seat in state.seats if seat != decision.seat)
    assert shown.hand_text(state.view(other)) not in body  # never the other seat's cards


def test_an_aztlan_turn_mail_is_short_and_holds_the_hand_and_choices(session, ana):
    game = policy_game(session, ana, bots=("random", "random", "random"))
    [mail] = turn_mails(session, ana)[-1:]
    assert "it is your turn to choose your power card." in mail.body
    assert "Your prosperity cards:" in mail.body and "Your choices (power card): cards " in mail.body
    assert "The board:" not in mail.body  # a power card needs no territory: the mail stays short
    assert len(mail.body) < 1500
    for _ in range(40):
        if owes(session, game, ana) == "turn":
            break
        play_own(session, game, ana)
    body = turn_mails(session, ana)[-1].body
    assert "it is your turn to place a tribe pawn." in body and "The board:" in body
    assert "Your choices (development turn): pawns left" in body and "place 1, 2" not in body
    assert "move to" not in body  # each origin's neighbours: the board in the mail shows them
