"""Who is told "your turn": a seat that owes a new decision, once per decision, even when it
never stopped owing one; never again while it is still settling the same conflicts."""
from __future__ import annotations

import random

from deadline_helpers import decisions, mails, policy_game
from pbem.services import play
from pbem.testing import first_legal_order


def turn_mails(session, user):
    return mails(session, to=user.primary_address, kind="turn")


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
