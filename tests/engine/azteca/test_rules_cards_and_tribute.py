"""Azteca's phases 1 (Azteca cards, 8.0) and 2 (tribute and Sacrifice points, 9.0), one rule
case a test (DATC style; readings in docs/rules-azteca.md)."""
from __future__ import annotations

import pytest

from engine.core import IllegalOrderError
from tests.engine.azteca.azteca_support import events, new_game, order, to_phase


def test_each_player_receives_four_cards_on_the_first_turn():
    """8.0: "Each player receives 4 cards on the first turn"."""
    state = to_phase(new_game(), "purchase")
    assert [len(p.hand) for p in state.people] == [4, 4, 4, 4]
    assert len(state.deck) == len(state.edition.deck()) - 16


def test_later_turns_keep_or_discard_then_refill_to_four():
    """8.0: "On the following turns, during phase 1, players decide to keep their cards or to
    discard some of them, and then replenish their hands to 4 cards"."""
    state = to_phase(new_game(3), "purchase")
    to_phase(state, "cards")
    assert state.round == 2 and all(d.kind == "cards" and d.simultaneous for d in state.decisions())
    hand = list(state.people[0].hand)
    order(state, "toltecs", f"discard {hand[0]} {hand[1]}")
    order(state, "chichimecs", "keep")
    order(state, "tepanecs", "keep")
    assert len(state.people[0].hand) == 4
    assert sorted(state.discards) == sorted(hand[:2])
    assert state.people[1].hand and len(state.people[1].hand) == 4


def test_a_card_not_held_cannot_be_discarded():
    """8.0: players discard some of their cards."""
    state = to_phase(new_game(3), "purchase")
    to_phase(state, "cards")
    missing = next(card.key for card in state.edition.cards if card.key not in state.people[0].hand)
    with pytest.raises(IllegalOrderError, match="you hold no"):
        order(state, "toltecs", f"discard {missing}")


def test_a_hand_never_holds_more_than_four():
    """8.0: "A player can never have more than 4 cards in his hand"."""
    state = to_phase(new_game(3), "purchase")
    for _ in range(3):
        to_phase(state, "cards")
        to_phase(state, "purchase")
        assert all(len(p.hand) == 4 for p in state.people)


def test_an_empty_deck_is_the_reshuffled_discards():
    """8.0 gives no rule for an empty deck (pbem reading: the discards are shuffled into a new deck)."""
    state = to_phase(new_game(3), "purchase")
    to_phase(state, "cards")
    state.discards, state.deck = state.deck[:-1], state.deck[-1:]
    for seat in state.seats:
        order(state, seat, f"discard {state.people[state.seats.index(seat)].hand[0]}")
    assert state.reshuffles == 1 and all(len(p.hand) == 4 for p in state.people)
    assert events(state, "cards-reshuffled")


def test_the_others_see_how_many_cards_a_seat_holds_not_which():
    """8.0: cards are played from a secret hand."""
    state = to_phase(new_game(3), "purchase")
    view = state.view("chichimecs")
    assert view["seats"][0]["hand"] == 4
    assert view["me"]["hand"] == sorted(state.people[1].hand)
    assert [e["cards"] for e in events(state, "my-cards", "chichimecs")] == [state.people[1].hand]
    assert events(state, "my-cards", None) == []


def _income_position():
    """Toltecs hold valley cities Chalco (marker 2, assimilated) and Xochimilco (no marker),
    the outer valley Tula and lake zone 2."""
    state = to_phase(new_game(), "purchase")
    state.markers = {"chalco": 2}
    state.owner.update({"chalco": 1, "xochimilco": 1, "tula": 1})
    state.assimilated = {"chalco"}
    state.lake_control["lake-2"] = 1
    return state


def test_tribute_capital_valley_city_outer_city_and_lake_zone():
    """9.0 (reference sheet): "capital 4; a city in the Valley of Mexico 1; a city in an outer
    valley 2; control of a lake zone 1"."""
    assert _income_position().income(1)[0] == 4 + 1 + 1 + 2 + 1


def test_sacrifice_points_marker_assimilated_and_outer_valley():
    """9.0 (reference sheet): "Sacrifice points: territory marker 0-2; assimilated city 1;
    outer-valley city 1"; "These points are cumulative"."""
    assert _income_position().income(1)[1] == (2 + 1) + 0 + 1


def test_a_capital_alone_gives_four_tributes_and_no_sacrifice():
    """9.0: a capital takes no population marker (5.1), so it gives Tributes only."""
    assert new_game().income(2) == (4, 0)


def test_tributes_are_announced_and_sacrifice_points_kept_secret():
    """9.0: "Each player must announce aloud the amount of tribute they receive"; 15.0:
    "Sacrifice points accumulated during the whole game turn are kept secret"."""
    state = _income_position()
    to_phase(state, "judgement")
    state.lake_control["lake-2"] = 1  # phase 6 of turn 1 decided it afresh
    to_phase(state, "purchase")
    tribute = [e for e in events(state, "tribute", "aztecs") if e["seat"] == "toltecs"][-1]
    assert tribute["tributes"] == 9
    assert not [e for e in events(state, "my-sacrifice", "aztecs") if e["round"] == 2 and e.get("seat")]
    assert events(state, "my-sacrifice", "toltecs")[-1]["points"] == 4
    assert state.view("toltecs")["me"]["sacrifice"] == 4
    assert all("sacrifice" not in seat for seat in state.view("aztecs")["seats"])
