"""One test per rule of Azteca's preparation (5.0, 5.1, 6.0), in the style of the DATC: the
rule text as the docstring, the position set up directly (azteca_support.py), the result
checked.  "pbem reading" marks a reading of an unclear rule (docs/rules-azteca.md)."""
from __future__ import annotations

import pytest

from engine.azteca.orders import Army
from engine.core import IllegalOrderError, NotYourDecisionError, SetupError
from tests.engine.azteca.azteca_support import (EVEN_CHART, SEATS3, events, new_game, order, through_setup,
                                                to_phase)


def test_each_player_starts_with_four_tributes_and_generals_in_the_capital():
    """5.0: "Each player receives 4 Tributes, 3 Generals, 10 warriors, 3 Jaguar knights ... and 1
    boat ... The General counters A, B, C are placed immediately on the game board in your capital"."""
    state = new_game()
    for s, seat in enumerate(state.seats):
        person = state.people[s]
        capital = state.capital(s)
        assert person.tributes == 4
        assert person.generals == {"A": capital, "B": capital, "C": capital}
        assert person.boats == {capital: 1}


def test_the_aztec_dike_is_placed_first_on_one_of_three_junctions():
    """5.0: "The Aztec player further receives a dike that is immediately placed on one of the 3
    following junctions"."""
    state = new_game()
    assert state.decisions()[0].kind == "dike" and state.waiting() == [0]
    assert state.legal(0)["shores"] == ["iztapalapa", "tizapan", "tlacopan"]
    with pytest.raises(IllegalOrderError):
        order(state, "aztecs", "dike chalco")
    order(state, "aztecs", "dike tlacopan")
    assert state.dikes == ["tlacopan"]
    assert {d.kind for d in state.decisions()} == {"army"}


def test_three_players_have_no_aztecs_and_no_dike():
    """16.0: "With 3 players, the Aztec player is taken out of game ... The rules for dikes are not used"."""
    state = new_game(3)
    assert state.seats == SEATS3
    assert {d.kind for d in state.decisions()} == {"army"} and len(state.waiting()) == 3
    with pytest.raises(SetupError, match="Aztecs are out"):
        new_game(3, seats=("aztecs", "toltecs", "tepanecs"))


def test_the_army_chart_is_a_secret_simultaneous_decision():
    """5.0: "Distribute your warriors and Jaguar knights in the different boxes"; 14.1: "face down
    ... so that their combat force is unknown"."""
    state = new_game(3)
    decisions = state.decisions()
    assert all(d.simultaneous and d.kind == "army" for d in decisions)
    twin = state.clone()
    order(state, "toltecs", "army A 4w, B 4w, C 2w 1j, R 2j")
    order(twin, "toltecs", EVEN_CHART)
    assert state.people[0].chart["A"] == [0, 0]  # not set until every chart is in
    assert state.view("chichimecs") == twin.view("chichimecs")
    assert state.view("toltecs")["me"]["answer"] == "army A 4w, B 4w, C 2w 1j, R 2j"


def test_a_box_holds_at_most_four_counters():
    """5.0: "observing a maximum deployment of 4 counters per box"."""
    state = new_game(3)
    with pytest.raises(IllegalOrderError, match="at most 4"):
        order(state, "toltecs", "army A 4w 1j, B 3w, C 3w 1j, R 1j")


def test_every_counter_must_be_placed():
    """5.0: each player distributes his 10 warriors and 3 Jaguar knights (pbem reading: all of them)."""
    state = new_game(3)
    with pytest.raises(IllegalOrderError, match="place all 10 warriors and 3 Jaguar"):
        order(state, "toltecs", "army A 3w 1j, B 3w 1j, C 2w 1j, R 1w")


def test_population_markers_start_with_the_first_player_who_sees_his_marker():
    """5.1: "The first player draws a marker, looks at it, and then places it face down"."""
    state = new_game(3)
    for seat in state.seats:
        order(state, seat, EVEN_CHART)
    assert state.waiting() == [0] and state.owed[0] == "place"
    value = state.legal(0)["marker"]
    assert value in (0, 1, 2)
    assert state.view("toltecs")["me"]["marker"] == value
    assert state.view("chichimecs")["me"]["marker"] is None


def test_a_marker_may_not_go_next_to_its_placers_capital():
    """5.1: "He cannot place it on one of the two territories adjacent to his capital either,
    unless he cannot do otherwise"; nor on a capital, an exterior valley or a lake."""
    state = new_game(3)
    for seat in state.seats:
        order(state, seat, EVEN_CHART)
    allowed = state.legal(0)["territories"]  # the Toltecs: capital next to Coyoacan and Iztapalapa
    assert "coyoacan" not in allowed and "iztapalapa" not in allowed and "colhuacan" not in allowed
    with pytest.raises(IllegalOrderError):
        order(state, "toltecs", "place coyoacan")


def test_a_marker_goes_next_to_the_capital_when_nothing_else_is_free():
    """5.1: "... unless he cannot do otherwise"."""
    state = new_game(3)
    for seat in state.seats:
        order(state, seat, EVEN_CHART)
    for key in [t for t in state._valley() if t not in ("coyoacan", "iztapalapa")]:
        state.markers[key] = 1
    assert state.legal(0)["territories"] == ["coyoacan", "iztapalapa"]
    order(state, "toltecs", "place coyoacan")


def test_the_dike_makes_the_aztec_capital_adjacent_to_its_shore():
    """5.1: "For the Aztec player, the dike determines the adjacent territories"."""
    state = new_game()
    order(state, "aztecs", "dike tizapan")
    for seat in state.seats:
        order(state, seat, EVEN_CHART)
    allowed = state.legal(0)["territories"]
    assert "tizapan" not in allowed and "tlatelolco" not in allowed and "tlacopan" in allowed


def test_markers_lie_face_down_until_all_are_placed_then_the_zeros_go():
    """5.1: "Once this is done, turn the markers face up and remove the 0s. There should only
    remain markers 1 and 2 on the map"."""
    state = new_game()
    order(state, "aztecs", "dike tizapan")
    for seat in state.seats:
        order(state, seat, EVEN_CHART)
    value = state.legal(0)["marker"]
    where = state.legal(0)["territories"][0]
    order(state, "aztecs", f"place {where}")
    assert state.view("toltecs")["markers"] == {where: None}
    assert state.view("aztecs")["me"]["my_markers"] == {where: value}
    through_setup(state)
    revealed = events(state, "markers-revealed")[0]["markers"]
    assert len(revealed) == 13 and sorted(revealed.values()) == sorted(state.edition.population)
    assert state.markers == {t: v for t, v in revealed.items() if v}
    assert set(state.view(None)["markers"].values()) <= {1, 2}


def test_each_player_in_turn_places_until_all_are_placed():
    """5.1: "each player in turn places a marker until all are placed"."""
    state = new_game(3)
    for seat in state.seats:
        order(state, seat, EVEN_CHART)
    placers = []
    while state.phase == "setup":
        s = state.waiting()[0]
        placers.append(state.seats[s])
        order(state, state.seats[s], f"place {state.legal(s)['territories'][0]}")
    assert placers == [state.seats[i % 3] for i in range(13)]


def test_the_first_seat_holds_the_tlatoani_card_and_it_passes_to_the_left():
    """6.0: "The player with the highest total receives the Tlatoani card ... On the next turn,
    the player to his left will become first player" (pbem reading: the record's first seat,
    drawn at random by the seating, is the first player; the seat after it is his left)."""
    state = to_phase(new_game(), "judgement")
    assert state.view(None)["tlatoani"] == "aztecs"
    order(state, "aztecs", "quetzalcoatl 0")
    for seat in state.seats[1:]:
        order(state, seat, "quetzalcoatl 0")
    for seat in state.seats:
        order(state, seat, "tezcatlipoca 0")
    assert state.round == 2 and state.view(None)["tlatoani"] == "toltecs"
    assert state.turn_order() == [1, 2, 3, 0]


def test_no_order_is_taken_from_a_seat_not_asked():
    """Asked, never guessed (docs/engine.md): only the Aztecs owe the dike."""
    state = new_game()
    with pytest.raises(NotYourDecisionError):
        state.apply("toltecs", Army((("A", 3, 1),)))
