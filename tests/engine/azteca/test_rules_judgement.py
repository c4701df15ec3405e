"""Azteca's phase 8, the Judgement of the Gods (15.0-15.3, 16.0, 17.0), and the game's end,
one rule case a test (DATC style; readings in docs/rules-azteca.md).  An offer of 11 to
Tezcatlipoca always calms him (the Anger cards are 9-11) and an offer of 0 never does (the
best white die is at most 6), so the dice never decide these cases unless a test says so."""
from __future__ import annotations

import pytest

from engine.core import IllegalOrderError
from tests.engine.azteca.azteca_support import events, judge, new_game, next_judgement, order, to_phase

CALM = {"tepanecs": 11}


def _judgement(players: int = 4, sacrifice: int = 30, options=None):
    state = to_phase(new_game(players, options=options), "judgement")
    for person in state.people:
        person.sacrifice = sacrifice
    return state


def test_offers_to_quetzalcoatl_are_secret_and_simultaneous():
    """15.1: "players secretly put Sacrifice points in the Quetzalcoatl urn ... This urn will be
    opened ... only at the end of the game" (pbem reading: asked at once, since nothing is seen)."""
    state = _judgement()
    assert all(d.kind == "urn" and d.simultaneous for d in state.decisions())
    twin = state.clone()
    order(state, "aztecs", "quetzalcoatl 7")
    order(twin, "aztecs", "quetzalcoatl 2")
    for seat in state.seats[1:]:
        order(state, seat, "quetzalcoatl 1")
        order(twin, seat, "quetzalcoatl 1")
    assert state.view("toltecs") == twin.view("toltecs")
    assert state.view(None) == twin.view(None)
    assert state.view("aztecs")["me"]["urn"] == 7 and state.people[0].sacrifice == 23


def test_no_offer_above_the_points_held():
    """15.0: players "distribute their Sacrifices" (those they hold)."""
    state = _judgement(sacrifice=3)
    with pytest.raises(IllegalOrderError, match="hold 3 Sacrifice points"):
        order(state, "aztecs", "quetzalcoatl 4")


def test_points_not_offered_are_kept():
    """15.0 does not say that points left unoffered are lost (pbem reading: they are kept; 14.15
    takes half of a plundered player's points, so points are held between turns)."""
    state = _judgement(sacrifice=10)
    judge(state, urn={"aztecs": 3}, tezcatlipoca={"aztecs": 2})
    assert state.people[0].sacrifice == 5


def test_the_verification_urn_is_opened_every_second_turn():
    """15.1: "players must put the same number of Sacrifice points in the verification urn ...
    This urn will be opened every two game turns"."""
    state = _judgement()
    judge(state, urn={"aztecs": 20, "toltecs": 20}, tezcatlipoca=CALM)
    assert state.quetzalcoatl == 0 and state.verification == 40 and not events(state, "verification")
    to_phase(state, "purchase")
    to_phase(state, "judgement")
    judge(state, tezcatlipoca=CALM)
    assert state.round == 3 and state.quetzalcoatl == 2
    assert events(state, "verification")[-1]["opened"] == 40


def test_quetzalcoatl_climbs_a_step_per_twenty_points_and_the_rest_waits():
    """15.1: "he goes one step up every 20 Sacrifice points. Leftover sacrifice points are left in
    the urn for the next counting"."""
    state = _judgement()
    state.round = 2
    judge(state, urn={"aztecs": 25, "toltecs": 20}, tezcatlipoca=CALM)
    assert state.quetzalcoatl == 2 and state.verification == 5


def test_three_players_need_fifteen_points_a_step():
    """16.0: "Quetzalcoatl needs only 15 Sacrifice points to go up 1 step"."""
    state = _judgement(3)
    state.round = 2
    judge(state, urn={"toltecs": 30}, tezcatlipoca={"chichimecs": 11})
    assert state.quetzalcoatl == 2 and state.verification == 0


@pytest.mark.parametrize("level, per", [("experienced", 22), ("expert", 25)])
def test_difficulty_levels_change_the_points_a_step(level, per):
    """17.0: "25 points for Expert level, 22 points for Experienced level"."""
    state = _judgement(options={"difficulty": level})
    state.round = 2
    judge(state, urn={"aztecs": 30, "toltecs": per - 1 - 30 + per}, tezcatlipoca=CALM)
    assert state.quetzalcoatl == 1 and state.verification == per - 1


def test_below_the_penultimate_step_an_odd_turn_opens_no_urn():
    """15.1: the urn "will be opened every two game turns" (pbem reading: after the even turns)."""
    state = _judgement()
    state.quetzalcoatl, state.round = 3, 3
    judge(state, urn={"aztecs": 5}, tezcatlipoca=CALM)
    assert not events(state, "verification") and state.verification == 5


def test_on_the_penultimate_step_the_urn_is_checked_every_turn():
    """15.1: "When he is on the penultimate step, the verification urn will be checked every game turn"."""
    state = _judgement()
    state.quetzalcoatl, state.round = 4, 3
    judge(state, urn={"aztecs": 5}, tezcatlipoca=CALM)
    opened = events(state, "verification")[-1]
    assert (opened["opened"], opened["steps"], opened["left"]) == (5, 0, 5)
    assert not state.is_over()


def test_tezcatlipoca_offers_are_revealed_together_with_the_best_of_three_dice():
    """15.2: "they reveal simultaneously the number of Sacrifice points that they offer ... then
    the hold of the Tlatoani card rolls the white die three times keeping the highest result"."""
    state = _judgement()
    for seat in state.seats:
        order(state, seat, "quetzalcoatl 0")
    assert all(d.kind == "tezcatlipoca" and d.simultaneous for d in state.decisions())
    twin = state.clone()
    order(state, "aztecs", "tezcatlipoca 4")
    order(twin, "aztecs", "tezcatlipoca 1")
    assert state.view("toltecs") == twin.view("toltecs")
    for seat in state.seats[1:]:
        order(state, seat, "tezcatlipoca 1")
    judged = events(state, "tezcatlipoca")[-1]
    assert judged["offers"] == {"aztecs": 4, "toltecs": 1, "chichimecs": 1, "tepanecs": 1}
    assert len(judged["dice"]) == 3 and judged["total"] == 7 + max(judged["dice"])
    assert judged["calm"] == (judged["total"] >= judged["card"])
    assert state.tezcatlipoca == (0 if judged["calm"] else 1)


def test_too_little_makes_tezcatlipoca_step_down():
    """15.2: "If the total is inferior, Tezcatlipoca, furious, goes one step down"."""
    state = _judgement()
    judge(state)
    assert state.tezcatlipoca == 1 and not events(state, "tezcatlipoca")[-1]["calm"]


def test_enough_keeps_tezcatlipoca_still():
    """15.2: "If the total is greater or equal, then Tezcatlipoca does not move"."""
    state = _judgement()
    judge(state, tezcatlipoca={"aztecs": 5, "toltecs": 6})
    assert state.tezcatlipoca == 0 and events(state, "tezcatlipoca")[-1]["calm"]


def test_the_anger_cards_are_drawn_without_replacement():
    """15.2 N.B.: "the 3 cards 'Tezcatlipoca Anger' must all have been played before being
    reshuffled. Thus, at the second and especially the third turn, you can anticipate"."""
    state = _judgement(sacrifice=100)
    cards = []
    for turn in range(6):
        assert state.view(None)["gods"]["anger_played"] == (cards[3 * ((turn - 1) // 3):] if turn else [])
        next_judgement(state, tezcatlipoca=CALM)
        cards.append(events(state, "tezcatlipoca")[-1]["card"])
    assert sorted(cards[:3]) == [9, 10, 11] and sorted(cards[3:]) == [9, 10, 11]
    assert len(events(state, "anger-reshuffled")) == 1


def test_tezcatlipoca_in_the_underworlds_destroys_the_world_and_everyone_loses():
    """15.3: "When Tezcatlipoca has descended the 4 steps, it goes to the underworlds ... all the
    players lose the game and the Quetzalcoatl urn does not need to be counted for there is no
    grading among the losers"."""
    state = _judgement()
    state.tezcatlipoca = 3
    judge(state, urn={"aztecs": 10})
    assert state.is_over()
    result = state.result()
    assert result.winner is None and result.tie_break == "tezcatlipoca"
    assert set(result.places.values()) == {1} and set(result.scores.values()) == {0}


def test_quetzalcoatl_at_the_temple_opens_the_urn_and_the_most_sacrifices_win():
    """15.3: "players must bring Quetzalcoatl to the last step of his temple before Tezcatlipoca
    attains the underworlds. The contents of Quetzalcoatl's urn is then revealed and the player
    who offered the most Sacrifice points to Quetzalcoatl wins the game"."""
    state = _judgement()
    state.quetzalcoatl, state.verification = 4, 15
    state.people[2].urn = 40
    judge(state, urn={"toltecs": 5, "chichimecs": 1}, tezcatlipoca=CALM)
    assert state.is_over() and state.quetzalcoatl == 5
    result = state.result()
    assert result.winner == "chichimecs" and result.scores["chichimecs"] == 41 and result.scores["toltecs"] == 5
    assert result.ranking[0] == "chichimecs"


def test_when_both_gods_arrive_in_the_same_turn_tezcatlipoca_takes_it():
    """15.3: "If Quetzalcoatl and Tezcatlipoca both attain their objective in the same turn,
    Tezcatlipoca takes it"."""
    state = _judgement()
    state.quetzalcoatl, state.tezcatlipoca, state.verification = 4, 3, 19
    judge(state, urn={"aztecs": 1})
    assert state.quetzalcoatl == 5 and state.tezcatlipoca == 4
    assert state.result().winner is None and state.result().tie_break == "tezcatlipoca"


def test_a_tie_goes_to_the_most_assimilated_territories():
    """1.0: "In the event of a tie, victory goes to the player that has assimilated the most
    territories" (pbem reading: assimilated Cities, 12.0)."""
    state = _judgement()
    state.quetzalcoatl, state.verification = 4, 20
    state.owner.update({"chalco": 1, "xochimilco": 1, "tlacopan": 2})
    state.assimilated = {"chalco", "xochimilco", "tlacopan"}
    judge(state, urn={"toltecs": 5, "chichimecs": 5}, tezcatlipoca=CALM)
    result = state.result()
    assert result.winner == "toltecs" and result.ranking[:2] == ("toltecs", "chichimecs")
    assert result.breakdown["toltecs"]["assimilated"] == 2


def test_then_the_richest_player_wins():
    """1.0: "and finally, the richest player (adding the tribute to the cost of the warriors and
    boats)" (pbem reading: Jaguar knights count at their cost, 2)."""
    state = _judgement()
    state.quetzalcoatl, state.verification = 4, 20
    state.people[3].tributes = state.people[1].tributes + 1
    judge(state, urn={"toltecs": 5, "tepanecs": 5}, tezcatlipoca=CALM)
    result = state.result()
    assert result.winner == "tepanecs"
    assert result.breakdown["tepanecs"]["wealth"] == state.people[3].tributes + 10 + 3 * 2 + 1 * 2


def test_players_no_tie_break_separates_share_the_place():
    """1.0's tie-breaks exhausted: the places are shared (docs/engine.md, Result.places)."""
    state = _judgement()
    state.quetzalcoatl, state.verification = 4, 20
    judge(state, urn={"toltecs": 5, "tepanecs": 5}, tezcatlipoca=CALM)
    result = state.result()
    assert result.winner is None and result.places["toltecs"] == result.places["tepanecs"] == 1


def test_each_game_turn_is_one_scored_milestone():
    """7.0: "A turn is composed of 8 phases"; each ends with the Judgement, whose results are news."""
    state = _judgement()
    judge(state, tezcatlipoca=CALM)
    assert [(m.round, m.phase) for m in state.milestones() if m.scored] == [(1, "judgement")]
    assert state.scores_by_round()[0]["tepanecs"]["tezcatlipoca"] == 11
