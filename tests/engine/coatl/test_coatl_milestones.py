"""When Cóatl's rounds are scored, in the style of the DATC: one case per test, the reading as
the docstring, the position set up directly.  A scored milestone is what the service mails a
report after (docs/reports.md); pbem's reading of when that is is in docs/rules-coatl.md
("Reports by mail")."""
from __future__ import annotations

from engine.coatl.orders import Assemble
from engine.coatl.state import FINAL, PLAY
from engine.core import Milestone
from tests.engine.coatl.coatl_support import coatl, play, position

COMPLETE = "new yellow head; add red body to {n}; add black tail to {n}; fulfil 17 on {n}; complete {n}"


def ready(players=2, *, temple=None, done=0):
    """Every seat can complete a yellow-red-black cóatl with prophecy 17 (red then black: 1
    point) this turn, and has `done` one-point cóatls completed before; seat 1 may add its
    secret `temple`."""
    made = {s: [coatl("RYB", complete=True, prophecies=[16], points=1) for _ in range(done)] for s in range(players)}
    temples = {s: [] for s in range(players)}
    if temple is not None:
        temples[1] = [temple]
    return position(players, boards={s: "Yh Rb Kt" for s in range(players)}, hands={s: [17] for s in range(players)},
                    temples=temples, coatls=made, commons=([1], [5]))


def scored(state):
    return [m for m in state.milestones() if m.scored]


def test_a_round_in_which_two_coatls_are_completed_is_scored_once_when_it_ends():
    """pbem reading: a report follows each round of turns in which at least one cóatl was
    completed (its points are the news), once the round is over: two cóatls in one round make
    one scored milestone, and one entry of `scores_by_round()` with both, card by card."""
    state = ready(temple=3)
    play(state, COMPLETE.format(n=1))
    assert scored(state) == [], "the round is not over until every seat has had its turn"
    play(state, COMPLETE.format(n=1) + " with temple 3")
    assert scored(state) == [Milestone(1, PLAY, scored=True)] and state.round == 2
    (entry,) = state.scores_by_round()
    assert entry["macaw"] == {"points": 1, "total": 1, "coatls": [
        {"coatl": 1, "letters": "YRK", "prophecies": {"17": 1}, "temple": None, "points": 1}]}
    # Temple 3 (no green, 9 long): one condition met, 3 points; with prophecy 17's 1 point, 4.
    assert entry["quetzal"] == {"points": 4, "total": 4, "coatls": [
        {"coatl": 1, "letters": "YRK", "prophecies": {"17": 1}, "temple": 3, "points": 4}]}


def test_a_round_in_which_nothing_is_completed_is_not_scored():
    """pbem reading: a round of turns in which no cóatl was completed sends no report (the seat
    to play already gets its turn mail): no milestone, no scoring entry."""
    state = ready()
    play(state, "take head 1")
    play(state, "take head 2")
    assert state.round == 2 and scored(state) == [] and state.scores_by_round() == []
    assert [m.phase for m in state.milestones()] == ["setup"]


def test_the_running_total_counts_every_coatl_completed_before():
    """pbem reading: each scored round gives every seat's points that round and its total so far
    (the announced points of all its completed cóatls); a seat that completed nothing scores 0."""
    state = ready(done=2)
    play(state, "take head 1")
    play(state, COMPLETE.format(n=3))  # quetzal's third cóatl: macaw's final turn begins round 2
    (entry,) = state.scores_by_round()
    assert entry == {"macaw": {"points": 0, "total": 2, "coatls": []},
                     "quetzal": {"points": 1, "total": 3, "coatls": [
                         {"coatl": 3, "letters": "YRK", "prophecies": {"17": 1}, "temple": None, "points": 1}]}}
    assert state.milestones()[-2:] == [Milestone(1, PLAY), Milestone(1, PLAY, scored=True)]
    assert state.phase == FINAL


def test_a_coatl_completed_in_the_last_round_is_told_by_the_final_report():
    """pbem reading: the round in which the game ends is not scored apart: the final scoring
    (the final report) gives its cóatls, with every seat's total and the tie-break facts; the
    totals are the result's scores."""
    state = ready(done=2)
    play(state, COMPLETE.format(n=3))  # macaw's third cóatl: quetzal then has two final actions
    state.apply("quetzal", Assemble(()))
    state.apply("quetzal", Assemble(()))
    assert state.is_over()
    assert scored(state) == [Milestone(1, FINAL, scored=True)]
    (final,) = state.scores_by_round()
    assert final["macaw"]["coatls"] == [{"coatl": 3, "letters": "YRK", "prophecies": {"17": 1}, "temple": None,
                                         "points": 1}]
    assert {seat: entry["total"] for seat, entry in final.items()} == dict(state.result().scores) == \
        {"macaw": 3, "quetzal": 2}
    assert final["macaw"]["points"] == 1 and final["quetzal"]["points"] == 0
    assert (final["macaw"]["cards"], final["macaw"]["best"]) == (3, 1)


def test_a_round_scored_before_the_final_turns_keeps_its_own_report():
    """pbem reading: when the body supply runs out the round is played out; if a cóatl was
    completed in it, that round is scored when it ends, as the final turns begin (the end of
    play, then the round's scoring); the final scoring comes after the final turns."""
    state = ready(3)
    state.bags["body"] = []
    state.supply["body"] = [None] * 5 + [["R", "R"]]
    play(state, COMPLETE.format(n=1))
    play(state, "take body 6")  # the last body segments: the end is triggered
    play(state, "pass")
    assert state.phase == FINAL and state.milestones()[-2:] == [Milestone(1, PLAY), Milestone(1, PLAY, scored=True)]
    while not state.is_over():
        state.apply(state.seats[state.waiting()[0]], Assemble(()))
    assert scored(state) == [Milestone(1, PLAY, scored=True), Milestone(2, FINAL, scored=True)]
    first, final = state.scores_by_round()
    assert first["macaw"]["points"] == 1 and final["macaw"] == {"points": 0, "total": 1, "coatls": [],
                                                                "cards": 1, "best": 1}
