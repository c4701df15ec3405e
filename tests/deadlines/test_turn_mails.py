"""Who is told "your turn": a seat that owes a new decision, once per decision, even when it
never stopped owing one; never again while it is still settling the same conflicts."""
from __future__ import annotations

import random

from deadline_helpers import decisions, fresh, log, mails, owes, play_own, policy_game, seat_of, two_humans
from pbem.outbox.messages import queued, send_mail
from pbem.services import moves_mail, play
from pbem.services.notify import queue_turn_mail
from pbem.services.state import game_state
from pbem.testing import first_legal_order


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
