"""Azteca's phase 3, purchase and recruitment (10.0-10.2), one rule case a test (DATC style;
readings in docs/rules-azteca.md)."""
from __future__ import annotations

import pytest

from engine.core import IllegalOrderError, NotYourDecisionError
from tests.engine.azteca.azteca_support import events, new_game, order, to_phase


def _purchases(players: int = 4, tributes: int = 20):
    """Every seat has lost 4 warriors (the Reserve's 2 and one each from A and B, say)."""
    state = to_phase(new_game(players), "purchase")
    for person in state.people:
        person.tributes = tributes
        person.chart = {"A": [2, 1], "B": [2, 1], "C": [2, 1], "R": [0, 0]}
    return state


def test_purchases_go_in_turn_from_the_first_player():
    """10.0: "Starting with the first player, each player announces and pays for his purchases"."""
    state = _purchases()
    seen = []
    while state.phase == "purchase":
        s = state.waiting()[0]
        seen.append(state.seats[s])
        assert len(state.waiting()) == 1 and not state.decisions()[0].simultaneous
        order(state, state.seats[s], "buy nothing")
    assert seen == list(state.seats)


def test_costs_from_the_reference_sheet():
    """10.1 (reference sheet): "warrior 1, Jaguar knight 2, pochteca 1, general 4, one boat 2,
    dike (Aztecs only) 3"."""
    state = _purchases()
    order(state, "aztecs", "buy R 2w, pochteca 1, boat 1, dike tlacopan")
    assert state.people[0].tributes == 20 - (2 + 1 + 2 + 3)
    assert state.purchase_cost(state.parse("buy R 1j, general A")[0]) == 2 + 4


def test_tributes_need_not_all_be_spent():
    """10.0: "You need not spend all your Tributes and can save for the following phases"."""
    state = _purchases()
    order(state, "aztecs", "buy boat 1")
    assert state.people[0].tributes == 18


def test_nothing_beyond_the_tributes_held():
    """10.0: each player "announces and pays for his purchases"."""
    state = _purchases(tributes=3)
    with pytest.raises(IllegalOrderError, match="costs 4 Tributes; you have 3"):
        order(state, "aztecs", "buy boat 2")
    assert state.people[0].tributes == 3


def test_only_counters_that_remain_can_be_bought():
    """10.1: "Each player can purchase as much as he desires so long as Tributes and counters
    remain" (10 warriors and 3 Jaguar knights in all, 5.0)."""
    state = _purchases(tributes=50)
    with pytest.raises(IllegalOrderError, match="only 0 jaguars"):
        order(state, "aztecs", "buy R 1j")
    with pytest.raises(IllegalOrderError, match="only 4 warriors"):
        order(state, "aztecs", "buy R 4w, C 1w")
    order(state, "aztecs", "buy R 4w")
    assert state.people[0].on_chart(0) == 10


def test_new_counters_respect_four_a_box():
    """10.2: "Remember that you can never pile up more than 4 counters per box"."""
    state = _purchases()
    with pytest.raises(IllegalOrderError, match="at most 4"):
        order(state, "aztecs", "buy A 2w")


def test_placement_is_secret_the_purchase_is_announced():
    """10.2: "Warriors and Jaguar knights are placed secretly on the Army Organization Chart";
    10.0: each player "announces ... his purchases"."""
    state = _purchases()
    twin = state.clone()
    order(state, "aztecs", "buy A 1w")
    order(twin, "aztecs", "buy R 1w")
    assert state.view("toltecs") == twin.view("toltecs")
    bought = events(state, "bought", "toltecs")[-1]
    assert bought["warriors"] == 1 and bought["spent"] == 1
    assert state.view("aztecs")["me"]["chart"]["A"] == [3, 1]


def test_a_general_only_when_one_was_killed():
    """10.1: "New General ... only if one of your generals has been killed"."""
    state = _purchases()
    with pytest.raises(IllegalOrderError, match="general B is alive"):
        order(state, "aztecs", "buy general B, B 1w")


def test_a_new_general_starts_from_the_capital_with_troops():
    """10.2: "Any new General starts from the capital"; 14.5: "A player cannot keep a General
    counter if the army does not contain any troops" (pbem reading: a new general's box gets
    troops in the same purchase)."""
    state = _purchases()
    state.people[0].generals["B"] = None
    state.people[0].chart["B"] = [0, 0]
    with pytest.raises(IllegalOrderError, match="needs troops"):
        order(state, "aztecs", "buy general B")
    order(state, "aztecs", "buy general B, B 1w")
    assert state.people[0].generals["B"] == state.capital(0)
    assert state.people[0].tributes == 20 - 5


def test_no_troops_for_an_army_without_a_general():
    """14.1: an army is represented by its General; a destroyed army's general is killed."""
    state = _purchases()
    state.people[0].generals["C"] = None
    state.people[0].chart["C"] = [0, 0]
    with pytest.raises(IllegalOrderError, match="army C has no general"):
        order(state, "aztecs", "buy C 1w")


def test_pochtecas_and_boats_wait_in_the_capital():
    """10.2: "Pochtecas and boats are placed on the capital, awaiting for their mission"."""
    state = _purchases()
    order(state, "aztecs", "buy pochteca 2, boat 1")
    capital = state.capital(0)
    assert state.people[0].pochtecas == 2 and state.people[0].boats == {capital: 2}


def test_only_the_aztecs_buy_dikes():
    """10.1: "only the Aztecs player can buy them" (dikes)."""
    state = _purchases()
    order(state, "aztecs", "buy nothing")
    with pytest.raises(IllegalOrderError, match="only the Aztec player"):
        order(state, "toltecs", "buy dike tlacopan")


def test_a_new_dike_takes_a_free_junction():
    """10.2: "A new dike is placed immediately on any one junction still available"."""
    state = _purchases()
    assert state.dikes == ["tizapan"]
    with pytest.raises(IllegalOrderError, match="not tizapan"):
        order(state, "aztecs", "buy dike tizapan")
    order(state, "aztecs", "buy dike iztapalapa")
    assert state.dikes == ["tizapan", "iztapalapa"]


def test_no_purchase_out_of_turn():
    """10.0: purchases are made in turn."""
    state = _purchases()
    with pytest.raises(NotYourDecisionError):
        order(state, "toltecs", "buy nothing")
