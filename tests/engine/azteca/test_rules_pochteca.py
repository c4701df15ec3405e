"""Azteca's phase 5, pochteca missions (12.0, 18.0), one rule case a test (DATC style; readings
in docs/rules-azteca.md).  The stand-in map (azteca_support): the Aztecs are the first player on
turn 1, then Toltecs (capital Colhuacan), Chichimecs, Tepanecs; Chalco, Iztapalapa and
Xochimilco are valley territories, Tula an outer valley."""
from __future__ import annotations

import pytest

from engine.core import IllegalOrderError
from tests.engine.azteca.azteca_support import at_pochtecas, dice, edition_with, events, order, sheets


def _missions_asked(state, missions: dict[str, str]) -> None:
    """Each seat asked for missions, in turn, answers as given (nothing if not named)."""
    while state.waiting() and state.owed[state.waiting()[0]] == "mission":
        seat = state.seats[state.waiting()[0]]
        order(state, seat, missions.get(seat, "mission none"))


def _mission_events(state):
    return [(e["seat"], e["pochteca"], e["mission"], e["success"]) for e in events(state, "mission")]


def test_destinations_are_secret_until_every_sheet_is_written():
    """12.0: "players secretly write down pochteca IDs (A, B, or C) ... as well as their
    destination ... All players reveal their instructions simultaneously"."""
    state = at_pochtecas({"aztecs": 1})
    order(state, "aztecs", "send A chalco, 1B2")
    assert state.view("aztecs")["me"]["answer"] == "send A chalco, 1B2"
    assert state.view("toltecs")["me"]["answer"] is None
    assert not events(state, "pochtecas-revealed", "toltecs")
    sheets(state, {})
    assert events(state, "pochtecas-revealed", "toltecs")[-1]["envoys"] == {
        "aztecs": {"A": "chalco"}, "toltecs": {}, "chichimecs": {}, "tepanecs": {}}


def test_numbers_name_destinations_as_on_the_paper_sheet():
    """12.0: "it suffices to make the letter correspond with the number of its destination and
    to write, for example, A11 or B7"."""
    state = at_pochtecas({"aztecs": 2})
    assert state.parse("send A6 BEXP 1B4")[0] == state.parse("send A chalco, B exp, 1B4")[0]


def test_two_pochtecas_of_one_player_cannot_go_to_one_territory():
    """12.0: "A player cannot send several Pochtecas to the same territory (except in
    Expeditions)"."""
    state = at_pochtecas({"aztecs": 2})
    with pytest.raises(IllegalOrderError, match="same territory"):
        order(state, "aztecs", "send A chalco, B chalco, 1B1")


def test_several_pochtecas_may_go_on_expedition():
    """12.0: "(except in Expeditions)"."""
    state = at_pochtecas({"aztecs": 3})
    order(state, "aztecs", "send A exp, B exp, C exp, 1B1")
    assert state.people[0].answer is not None


def test_no_pochteca_where_an_enemy_army_stands():
    """12.0: "A pochteca cannot be sent in a territory where there is an enemy army"."""
    state = at_pochtecas({"aztecs": 1, "toltecs": 1})
    state.people[1].generals["A"] = "chalco"
    with pytest.raises(IllegalOrderError, match="enemy army"):
        order(state, "aztecs", "send A chalco, 1B1")
    order(state, "toltecs", "send A chalco, 1B1")  # its own army's territory


def test_no_pochteca_in_another_players_capital():
    """12.0: a pochteca cannot be sent "in the capital of another player"."""
    state = at_pochtecas({"aztecs": 1})
    with pytest.raises(IllegalOrderError, match="capital"):
        order(state, "aztecs", "send A colhuacan, 1B1")


def test_a_pochteca_not_written_stays_in_the_capital():
    """12.0 says which pochtecas go, not that all must (13.0 says it of boats only): pbem
    reading, one left off the sheet waits in the capital for a later turn."""
    state = at_pochtecas({"aztecs": 2})
    sheets(state, {"aztecs": "A chalco"})
    assert state.people[0].pochtecas == 1 and state.view(None)["seats"][0]["envoys"] == {"A": "chalco"}


def test_a_mistaken_territory_is_not_reconsidered():
    """12.0: "One doesn't reconsider a player's mistake in locating a territory": the Aztecs meant
    their city Iztapalapa but wrote Chalco; the pochteca may only do what it can in Chalco."""
    state = at_pochtecas({"aztecs": 1})
    state.owner["iztapalapa"] = 0
    sheets(state, {"aztecs": "A chalco"})
    assert state.legal(0)["pochtecas"]["A"] == {"territory": "chalco",
                                                "missions": ["alliance", "espionage", "none"]}
    with pytest.raises(IllegalOrderError, match="not assimilation"):
        order(state, "aztecs", "mission A assimilation")


def test_expeditions_are_resolved_first_in_turn_order_and_pay_at_once():
    """12.0: "The Expedition missions are resolved first ... The first player shuffles the cards
    and draws one card for each pochteca that he sent in Expedition, and so on for the other
    players ... Gains are received immediately"."""
    state = at_pochtecas({"toltecs": 1, "aztecs": 2}, tributes={"aztecs": 0, "toltecs": 0},
                         edition=edition_with(expedition_cards=[{"key": "gain-4", "tributes": 4, "count": 9}]))
    sheets(state, {"aztecs": "A chalco, B exp", "toltecs": "A exp"})
    drawn = [(e["seat"], e["pochteca"]) for e in events(state, "expedition")]
    assert drawn == [("aztecs", "B"), ("toltecs", "A")]
    assert state.owed == {0: "mission"} and state.people[0].tributes == 4  # an alliance now affordable
    assert "alliance" in state.legal(0)["pochtecas"]["A"]["missions"]


def test_a_massacred_expedition_brings_nothing():
    """12.0: "A massacred pochteca is worth no Tribute"."""
    state = at_pochtecas({"aztecs": 1}, edition=edition_with(
        expedition_cards=[{"key": "massacre", "tributes": 0, "count": 3}]))
    before = state.people[0].tributes
    sheets(state, {"aztecs": "A exp"})
    assert events(state, "expedition")[-1]["card"] == "massacre" and state.people[0].tributes == before


def test_the_expedition_deck_is_reshuffled_when_exhausted():
    """12.0: "If the deck is exhausted before all the players have been able to draw their cards,
    the cards are reshuffled and players continue drawing until each player is served"."""
    state = at_pochtecas({"aztecs": 3}, tributes={"aztecs": 0},
                         edition=edition_with(expedition_cards=[{"key": "gain-2", "tributes": 2, "count": 1}]))
    sheets(state, {"aztecs": "A exp, B exp, C exp"})
    assert [e["card"] for e in events(state, "expedition")] == ["gain-2"] * 3 and state.people[0].tributes == 6


def test_missions_are_chosen_in_turn_order_when_they_resolve():
    """12.0: "Pochteca missions from the first player are first resolved, then those from the
    second player, and so on"; "The mission to be realized is left to the player's choice"."""
    state = at_pochtecas({"aztecs": 1, "toltecs": 1})
    sheets(state, {"toltecs": "A xochimilco", "aztecs": "A chalco"})
    assert state.owed == {0: "mission"}
    order(state, "aztecs", "mission A alliance")
    assert state.owed == {1: "mission"}


def test_an_earlier_alliance_changes_what_a_later_pochteca_may_do():
    """12.0: "The pochtecas from several players can be on the same territory; it is then possible
    that a Pochteca can no longer perform his mission": the Aztecs (first) ally with Chalco, so the
    Toltecs' pochteca there may no longer ally but may raise a rebellion."""
    state = at_pochtecas({"aztecs": 1, "toltecs": 1})
    sheets(state, {"aztecs": "A chalco", "toltecs": "A chalco"})
    order(state, "aztecs", "mission A alliance")
    assert state.owner["chalco"] == 0
    assert state.legal(1)["pochtecas"]["A"]["missions"] == ["rebellion", "none"]


def test_an_alliance_costs_three_tributes_and_places_a_city():
    """12.0: "he must pay 3 Tributes. The alliance succeeds automatically and the player places a
    City of his color"."""
    state = at_pochtecas({"aztecs": 1}, tributes={"aztecs": 5})
    sheets(state, {"aztecs": "A chalco"})
    order(state, "aztecs", "mission A alliance")
    assert state.owner["chalco"] == 0 and state.people[0].tributes == 2


def test_no_alliance_with_an_outer_valley():
    """12.0: "Pochtecas cannot make alliance with the exterior valleys"."""
    state = at_pochtecas({"aztecs": 1})
    sheets(state, {"aztecs": "A tula"})
    assert state.legal(0)["pochtecas"]["A"]["missions"] == ["espionage", "none"]
    with pytest.raises(IllegalOrderError, match="not alliance"):
        order(state, "aztecs", "mission A alliance")


def test_no_alliance_with_a_territory_already_owned():
    """12.0: "A pochteca placed on a neutral territory can conquer this territory"."""
    state = at_pochtecas({"aztecs": 1})
    state.owner["chalco"] = 2
    sheets(state, {"aztecs": "A chalco"})
    assert "alliance" not in state.legal(0)["pochtecas"]["A"]["missions"]


def test_missions_are_paid_from_the_tributes_held():
    """12.0: the alliance "must pay 3 Tributes": two alliances need 6."""
    state = at_pochtecas({"aztecs": 2}, tributes={"aztecs": 5})
    sheets(state, {"aztecs": "A chalco, B xochimilco"})
    with pytest.raises(IllegalOrderError, match="cost 6"):
        order(state, "aztecs", "mission A alliance, B alliance")


def test_a_rebellion_that_rolls_a_lance_makes_the_city_neutral():
    """12.0: "A pochteca sent to a City that is not assimilated nor occupied by an enemy army can
    attempt to provoke a Rebellion by paying 1 Tribute. Roll 1 red die: if you obtain a lance, the
    territory rises up and the enemy player loses his City ... becomes neutral"."""
    state = at_pochtecas({"aztecs": 1}, tributes={"aztecs": 4}, edition=edition_with(dice=dice(red="lance")))
    state.owner["chalco"] = 1
    sheets(state, {"aztecs": "A chalco"})
    order(state, "aztecs", "mission A rebellion")
    assert "chalco" not in state.owner and state.people[0].tributes == 3
    assert _mission_events(state) == [("aztecs", "A", "rebellion", True)]


def test_a_rebellion_without_a_lance_is_paid_for_nothing():
    """12.0: only "if you obtain a lance" does the territory rise up; the Tribute is paid."""
    state = at_pochtecas({"aztecs": 1}, tributes={"aztecs": 4}, edition=edition_with(dice=dice(red="blank")))
    state.owner["chalco"] = 1
    sheets(state, {"aztecs": "A chalco"})
    order(state, "aztecs", "mission A rebellion")
    assert state.owner["chalco"] == 1 and state.people[0].tributes == 3


def test_no_rebellion_in_an_assimilated_city():
    """12.0: "You cannot initiate a Rebellion in an assimilated territory or in the exterior valleys"."""
    state = at_pochtecas({"aztecs": 2})
    state.owner.update({"chalco": 1, "tula": 1})
    state.assimilated.add("chalco")
    sheets(state, {"aztecs": "A chalco, B tula"})
    assert "aztecs" not in [e["seat"] for e in events(state, "mission") if e["mission"] != "none"]
    assert state.missions_possible(0, "chalco") == state.missions_possible(0, "tula") == ["none"]


def test_assimilation_costs_three_in_an_own_city():
    """12.0: "Pay 3 Tributes to fortify your City and replace your City marker with an assimilated
    City marker"."""
    state = at_pochtecas({"aztecs": 1}, tributes={"aztecs": 4})
    state.owner["chalco"] = 0
    sheets(state, {"aztecs": "A chalco"})
    order(state, "aztecs", "mission A assimilation")
    assert "chalco" in state.assimilated and state.people[0].tributes == 1


def test_at_most_five_assimilated_cities():
    """12.0: "You cannot have more than 5 assimilated Cities"."""
    state = at_pochtecas({"aztecs": 1}, tributes={"aztecs": 9})
    owned = ["tizapan", "chapultepec", "coyoacan", "xochimilco", "iztapalapa", "chalco"]
    state.owner.update({key: 0 for key in owned})
    state.assimilated.update(owned[:5])
    assert state.missions_possible(0, "chalco") == ["none"]
    sheets(state, {"aztecs": "A chalco"})
    assert state.phase == "lake" and events(state, "mission")[-1]["mission"] == "none"


def test_no_assimilation_in_an_outer_valley():
    """12.0: "This mission cannot be executed in the exterior valleys"."""
    state = at_pochtecas({"aztecs": 1})
    state.owner.update({"tula": 0, "chalco": 0})
    assert state.missions_possible(0, "chalco") == ["assimilation", "none"]
    assert state.missions_possible(0, "tula") == ["none"]


def test_a_spy_stays_until_the_flower_war_also_in_an_outer_valley():
    """12.0: "This mission is only resolved during phase 7 ... This mission is also possible in
    the exterior valleys"; pochtecas "are removed from the board once their mission is completed".
    The spy stands through the Flower War and leaves the board when it ends."""
    state = at_pochtecas({"aztecs": 1})
    sheets(state, {"aztecs": "A tula"})
    order(state, "aztecs", "mission A espionage")
    assert state.phase == "lake" and state.view(None)["seats"][0]["spies"] == {"A": "tula"}
    while state.phase == "lake":
        order(state, state.seats[state.waiting()[0]], "attack none")
    assert state.phase == "war" and state.spies == {0: {"A": "tula"}}
    while state.phase == "war":
        s = state.waiting()[0]
        order(state, state.seats[s], "plan none" if state.owed[s] == "plan" else "pass")
    assert state.phase == "judgement" and state.spies == {} and events(state, "spies-recalled")


def test_pochtecas_leave_the_board_after_their_mission():
    """12.0: "They are active only one turn and are removed from the board once their mission is
    completed": they can be bought again."""
    state = at_pochtecas({"aztecs": 3}, tributes={"aztecs": 9})
    sheets(state, {"aztecs": "A chalco, B xochimilco, C exp"})
    order(state, "aztecs", "mission A alliance")
    assert state.people[0].pochtecas == 0 and state.envoys == {}
    assert state.pochteca_stock(0) == 0


def test_a_player_whose_pochtecas_can_do_nothing_is_not_asked():
    """pbem: a pochteca's possible missions are public facts; when none is possible (no Tributes,
    nothing to do) but doing nothing, the seat is not asked and the pochtecas leave: the Aztecs'
    pochteca in their own capital, which is no neutral territory to spy on."""
    state = at_pochtecas({"aztecs": 1, "toltecs": 1}, tributes={"aztecs": 0})
    sheets(state, {"aztecs": "A tenochtitlan", "toltecs": "A xochimilco"})
    assert state.owed == {1: "mission"} and events(state, "mission")[0]["mission"] == "none"
    assert state.envoys[0] == {} and state.people[0].pochtecas == 0


@pytest.mark.parametrize("mission, die, face, owned", [
    ("alliance 2", "red", "lance", True), ("alliance 2", "red", "blank", False),
    ("alliance 4", "yellow", "lance", True), ("alliance 4", "yellow", "blank", False)])
def test_ive_already_given_alliances_roll_a_die(mission, die, face, owned):
    """18.0 "I'VE ALREADY GIVEN...": "if the player pays 2 Tributes, he rolls a red die: if he get
    a lance, the alliance is concluded. - if the player pays 4 Tributes, it rolls a yellow die"."""
    state = at_pochtecas({"aztecs": 1}, tributes={"aztecs": 5}, options={"alliances": "already-given"},
                         edition=edition_with(dice=dice(**{die: face})))
    sheets(state, {"aztecs": "A chalco"})
    order(state, "aztecs", f"mission A {mission}")
    assert (state.owner.get("chalco") == 0) is owned and state.people[0].tributes == 5 - int(mission[-1])
    assert events(state, "mission")[-1]["die"] == die


def test_ive_already_given_has_no_automatic_alliance():
    """18.0: "Now Alliances and Assimilations are no longer automatic"."""
    state = at_pochtecas({"aztecs": 1}, options={"alliances": "already-given"})
    sheets(state, {"aztecs": "A chalco"})
    with pytest.raises(IllegalOrderError, match="not alliance"):
        order(state, "aztecs", "mission A alliance")


def test_ive_already_given_assimilation_costs_one_and_a_red_lance():
    """18.0: "To attempt an Assimilation, the player pays 1 Tribute and rolls a Red die: if he gets
    a lance, the assimilation is succeeded"."""
    state = at_pochtecas({"aztecs": 1}, tributes={"aztecs": 4}, options={"alliances": "already-given"},
                         edition=edition_with(dice=dice(red="blank")))
    state.owner["chalco"] = 0
    sheets(state, {"aztecs": "A chalco"})
    order(state, "aztecs", "mission A assimilation")
    assert "chalco" not in state.assimilated and state.people[0].tributes == 3


def test_espionage_only_on_a_neutral_territory():
    """12.0: "A pochteca in Espionage prevents a neutral territory from benefiting from his
    mobilization roll": pbem reading, a spy only where the territory is neutral when it resolves."""
    state = at_pochtecas({"aztecs": 1})
    state.owner["chalco"] = 2
    sheets(state, {"aztecs": "A chalco"})
    assert "espionage" not in state.legal(0)["pochtecas"]["A"]["missions"]
