"""Azteca's phase 6, lake domination (13.0-13.2), one rule case a test (DATC style; readings in
docs/rules-azteca.md).  The boats' zones are written on the phase-5 sheet; dice are set by the
edition (every face a lance, or none) so that battles are certain.  Turn order on turn 1: Aztecs,
Toltecs, Chichimecs, Tepanecs."""
from __future__ import annotations

import pytest

from engine.core import IllegalOrderError
from tests.engine.azteca.azteca_support import (at_pochtecas, dice, edition_with, events, order, sheets,
                                                to_phase)


def _fleets(fleets: dict[str, int], written: dict[str, str], lances: bool = False, **game):
    """Turn 1's sheets with these boats (in the capitals until placed) and these zones."""
    face = "lance" if lances else "blank"
    state = at_pochtecas(edition=edition_with(dice=dice(red=face, yellow=face)), **game)
    for seat, count in fleets.items():
        s = state.seats.index(seat)
        state.people[s].boats = {state.capital(s): count} if count else {}
    sheets(state, written)
    return state


def _boats(state):
    return {seat["seat"]: seat["boats"] for seat in state.view(None)["seats"] if seat["boats"]}


def test_boat_zones_stay_secret_until_phase_six_places_them():
    """13.0: "players write down secretly the location of their boats ... Players reveal
    simultaneously their locations and place their boats on the game board" (in phase 6; pbem
    reads them from the phase-5 sheet, 13.0: "it is recommended to write the position of the boats
    while determining pochteca missions"): twins whose Aztecs wrote other zones look the same to
    the others until the boats are placed."""
    twins = []
    for zone in (2, 4):
        state = at_pochtecas({"toltecs": 1})
        sheets(state, {"aztecs": f"1B{zone}", "toltecs": "A chalco, 1B3"})
        twins.append(state)
    assert [t.view("aztecs")["me"]["boat_plan"] for t in twins] == [{"2": 1}, {"4": 1}]
    assert twins[0].phase == "pochtecas" and twins[0].owed == {1: "mission"}
    for reader in ("toltecs", "chichimecs", None):
        assert twins[0].view(reader) == twins[1].view(reader)
    order(twins[0], "toltecs", "mission none")
    assert events(twins[0], "boats-placed", "chichimecs")[-1]["boats"]["aztecs"] == {"lake-2": 1}
    assert twins[0].view("aztecs")["me"]["boat_plan"] == {}


def test_every_boat_must_be_placed():
    """13.0: "On each turn players must determine the position of all their boats"."""
    state = at_pochtecas()
    state.people[0].boats = {"tenochtitlan": 2}
    with pytest.raises(IllegalOrderError, match="all your 2 boats"):
        order(state, "aztecs", "send 1B2")
    with pytest.raises(IllegalOrderError, match="lake zones are"):
        order(state, "aztecs", "send 2B7")
    order(state, "aztecs", "send 1B2, 1B4")


def test_without_enemy_boats_in_a_zone_nobody_is_asked_to_attack():
    """13.0: "The first player announces whether he wants to attack another player located in a
    lake zone containing enemy boats": with every fleet alone in its zone there is nothing to ask."""
    state = _fleets({}, {"aztecs": "1B1", "toltecs": "1B2", "chichimecs": "1B3", "tepanecs": "1B4"})
    assert state.phase == "war" and not events(state, "lake-attack")


def test_attacks_are_announced_in_turn_order():
    """13.0: "Each player, in turn order, announces and resolves his attacks"."""
    state = _fleets({}, {"aztecs": "1B2", "toltecs": "1B2", "chichimecs": "1B3", "tepanecs": "1B4"})
    assert state.owed == {0: "attack"} and state.legal(0)["targets"] == [[2, "toltecs"]]  # beside any card plays
    order(state, "aztecs", "attack none")
    assert state.owed == {1: "attack"} and state.legal(1)["targets"] == [[2, "aztecs"]]
    with pytest.raises(IllegalOrderError, match="aztecs in zone 2"):
        order(state, "toltecs", "attack 3 chichimecs")


def test_third_parties_choose_a_side_in_secret_before_the_battle():
    """13.0: "If other players are located in the same lake zone, they can either join the
    attacker, join the defender, or choose neutrality. A player who joins an alliance must announce
    it before the beginning of the battle": the answers are revealed together."""
    state = _fleets({}, {seat: "1B2" for seat in ("aztecs", "toltecs", "chichimecs", "tepanecs")})
    order(state, "aztecs", "attack 2 toltecs")
    assert state.owed == {2: "join", 3: "join"}
    twins = [state.clone(), state.clone()]
    order(twins[0], "chichimecs", "join attacker")
    order(twins[1], "chichimecs", "join defender")
    for reader in ("aztecs", "toltecs", "tepanecs", None):
        assert twins[0].view(reader) == twins[1].view(reader)
    order(twins[0], "tepanecs", "join neutral")
    assert events(twins[0], "lake-sides")[-1]["sides"] == {
        "aztecs": "attacker", "toltecs": "defender", "chichimecs": "attacker", "tepanecs": "neutral"}


def test_allies_share_the_losses_and_never_take_the_first():
    """13.1: "When fighting with an ally, losses are distributed successively to one and the
    other, the ally never undergoing the first loss"; "each lance obtained on a die means the loss
    of a boat" (every face a lance here)."""
    state = _fleets({"aztecs": 2, "chichimecs": 2}, {"aztecs": "2B2", "toltecs": "1B2", "chichimecs": "2B2",
                                                     "tepanecs": "1B4"}, lances=True)
    order(state, "aztecs", "attack 2 toltecs")
    order(state, "chichimecs", "join defender")
    assert _boats(state) == {"aztecs": {"lake-2": 1}, "chichimecs": {"lake-2": 2}, "tepanecs": {"lake-4": 1}}
    assert state.owed == {0: "fight"}
    order(state, "aztecs", "continue")
    assert _boats(state) == {"chichimecs": {"lake-2": 1}, "tepanecs": {"lake-4": 1}}
    assert events(state, "lake-battle-over")[-1]["lost"] == {"aztecs": 2, "toltecs": 1, "chichimecs": 1}


def test_the_attacker_may_stop_after_any_round():
    """13.1: "the attacker can in each round decide to stop the battle ... There are no retreats in
    lake battle": the boats stay in the zone."""
    state = _fleets({"aztecs": 3, "toltecs": 3}, {"aztecs": "3B2", "toltecs": "3B2", "chichimecs": "1B3",
                                                  "tepanecs": "1B4"}, lances=True)
    order(state, "aztecs", "attack 2 toltecs")
    order(state, "aztecs", "stop")
    assert _boats(state)["aztecs"] == {"lake-2": 2} and _boats(state)["toltecs"] == {"lake-2": 2}
    assert state.owed == {1: "attack"}  # the defender, on his turn, may become the attacker


def test_a_second_attack_only_on_a_player_who_has_not_fought():
    """13.0: "On his turn a player can attack all of the boats of a player located in a lake zone,
    then attack those of a third player that did not participate to any combat"."""
    state = _fleets({"aztecs": 2, "toltecs": 2}, {"aztecs": "1B2, 1B3", "toltecs": "1B2, 1B3", "chichimecs": "1B3",
                                                  "tepanecs": "1B4"})
    order(state, "aztecs", "attack 2 toltecs")
    order(state, "aztecs", "stop")
    assert state.owed == {0: "attack"} and state.legal(0)["targets"] == [[3, "chichimecs"]]


def test_control_needs_more_boats_than_each_opponent_and_a_tie_controls_nothing():
    """13.2: "A player controls a lake zone if he has more boats in this zone than each of his
    opponents. If there is a tie, the zone is not controlled"."""
    state = _fleets({"aztecs": 2}, {"aztecs": "2B2", "toltecs": "1B2", "chichimecs": "1B3", "tepanecs": "1B3"})
    while state.phase == "lake":
        order(state, state.seats[state.waiting()[0]], "attack none")
    assert state.lake_control == {"lake-1": None, "lake-2": 0, "lake-3": None, "lake-4": None}
    assert events(state, "lake-control")[-1]["control"]["lake-2"] == "aztecs"


def test_a_controlled_zone_pays_one_tribute_at_the_next_tribute():
    """13.2: "Controlling a zone is worth 1 Tribute" (the reference sheet's tribute phase)."""
    state = _fleets({}, {"aztecs": "1B1", "toltecs": "1B2", "chichimecs": "1B3", "tepanecs": "1B4"})
    to_phase(state, "purchase")
    assert all(event["tributes"] == 4 + 1 for event in events(state, "tribute") if event["round"] == 2)
