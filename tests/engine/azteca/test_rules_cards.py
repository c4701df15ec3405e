"""Playing Azteca cards (8.0, 9.0), one rule case a test (DATC style; readings in
docs/rules-azteca.md, "Playing cards").  Hands are set directly.  Turn order on turn 1: Aztecs,
Toltecs, Chichimecs, Tepanecs; on turn 2 the Toltecs hold the Tlatoani card."""
from __future__ import annotations

import pytest

from engine.azteca.orders import Play
from engine.core import IllegalOrderError
from tests.engine.azteca.azteca_support import (at_pochtecas, events, judge, new_game, order, sheets,
                                                through_setup, to_phase)

RULE = ("8.0: \"Cards can be played during a player's turn or during the turn of another player, but always "
        "during the specified phase. It is forbidden to play twice the same card consecutively, except Raid cards.\"")


def hold(state, seat: str, *cards: str) -> int:
    s = state.seats.index(seat)
    state.people[s].hand = list(cards)
    return s


def second_turn_cards(players: int = 4):
    """Turn 2's phase 1: every seat owes its discards."""
    return to_phase(to_phase(new_game(players), "purchase"), "cards")


def test_a_play_rides_on_the_decision_owed_without_answering_it():
    """8.0: cards are played "during a player's turn or during the turn of another player": a
    play is given beside the decision a seat owes and the seat still owes it."""
    state = second_turn_cards()
    hold(state, "aztecs", "tlaloc")
    order(state, "aztecs", "play tlaloc")
    assert state.owed[0] == "cards" and state.people[0].hand == ["tlaloc"]


def test_tlaloc_gathers_tributes_in_the_tribute_phase():
    """9.0: "Expeditions and the 'Tlaloc' card also allow a player to gather additional
    Tributes"; the card is played at the start of phase 2, its phase."""
    state = second_turn_cards()
    s = hold(state, "aztecs", "tlaloc")
    order(state, "aztecs", "play tlaloc; keep")
    before = state.people[s].tributes
    for seat in state.seats[1:]:
        order(state, seat, "keep")
    assert state.phase == "purchase"
    assert state.people[s].tributes == before + state.income(s)[0] + 3
    assert "tlaloc" not in state.people[s].hand and "tlaloc" in state.discards


def test_a_card_waiting_for_its_phase_is_secret():
    """8.0 gives the card's phase; pbem reading: a card given earlier in the turn waits, unseen
    by the others, until its phase starts."""
    state = second_turn_cards()
    hold(state, "aztecs", "tlaloc")
    twin = state.clone()
    order(state, "aztecs", "play tlaloc")
    assert state.view("aztecs")["me"]["plays"] == ["play tlaloc"]
    for reader in ("toltecs", None):
        assert state.view(reader) == twin.view(reader)


def test_a_played_card_is_public():
    """8.0: a card is played on the table: every seat sees who played which card, and its last card."""
    state = second_turn_cards()
    hold(state, "aztecs", "tlaloc")
    order(state, "aztecs", "play tlaloc")
    to_phase(state, "purchase")
    assert [(e["seat"], e["card"]) for e in events(state, "card-played", "toltecs")] == [("aztecs", "tlaloc")]
    assert state.view(None)["seats"][0]["last_card"] == "tlaloc"


def test_a_card_whose_phase_is_over_is_refused():
    """""" + RULE
    state = to_phase(new_game(), "purchase")
    hold(state, "aztecs", "tlaloc")
    with pytest.raises(IllegalOrderError, match="phase 2, which is over"):
        order(state, "aztecs", "play tlaloc")
    assert state.people[0].plays == [] and state.people[0].hand == ["tlaloc"]


def test_a_raid_is_not_played_by_these_orders():
    """8.0: "always during the specified phase": the Raid belongs to an army's move in the
    Flower War (`move A TERRITORY raid`), not to `play`."""
    state = to_phase(new_game(), "purchase")
    hold(state, "aztecs", "raid")
    with pytest.raises(IllegalOrderError, match="phase 7"):
        order(state, "aztecs", "play raid tizapan")


def test_a_card_not_held_cannot_be_played():
    """8.0: a player plays the cards of his hand."""
    state = second_turn_cards()
    hold(state, "aztecs", "tlenamacac")
    with pytest.raises(IllegalOrderError, match="you hold no tlaloc"):
        order(state, "aztecs", "play tlaloc")


def test_the_same_card_twice_in_a_row_is_refused():
    """""" + RULE
    state = second_turn_cards()
    s = hold(state, "aztecs", "tlenamacac")
    state.people[s].last_card = "tlenamacac"
    with pytest.raises(IllegalOrderError, match="twice the same card consecutively"):
        order(state, "aztecs", "play tlenamacac")


def test_two_copies_given_at_once_are_twice_in_a_row():
    """""" + RULE
    state = second_turn_cards()
    hold(state, "aztecs", "tlaloc", "tlaloc")
    order(state, "aztecs", "play tlaloc")
    with pytest.raises(IllegalOrderError, match="twice the same card consecutively"):
        order(state, "aztecs", "play tlaloc")


def test_another_card_between_allows_the_same_card_again():
    """""" + RULE + """ The last card played counts: Tlaloc between two Tlenamacac is allowed."""
    state = second_turn_cards()
    s = hold(state, "aztecs", "tlenamacac", "tlaloc")
    state.people[s].last_card = "tlenamacac"
    order(state, "aztecs", "play tlaloc")
    order(state, "aztecs", "play tlenamacac")  # phase 8 comes after phase 2's Tlaloc
    assert [p.card for p in state.people[s].plays] == ["tlaloc", "tlenamacac"]


def test_raid_may_be_played_twice_in_a_row():
    """""" + RULE + """ The exception is the edition's data: only Raid is repeatable."""
    state = new_game()
    assert [card.key for card in state.edition.cards if card.repeatable] == ["raid"]
    state.people[0].last_card = "raid"
    assert state.repeated(0, [Play("raid")]) is None
    state.people[0].last_card = "tlaloc"
    assert state.repeated(0, [Play("tlaloc")]) == "tlaloc"


def test_a_play_whose_card_is_discarded_meanwhile_is_dropped():
    """8.0: a discarded card is no longer in the hand; pbem reading: the play waiting for it is
    dropped, and only its seat is told."""
    state = second_turn_cards()
    s = hold(state, "aztecs", "tlaloc", "tlenamacac")
    state.deck = ["raid"] * 20  # the refill draws no other Tlaloc
    order(state, "aztecs", "play tlaloc; discard tlaloc")
    for seat in state.seats[1:]:
        order(state, seat, "keep")
    assert events(state, "my-play-dropped", "aztecs") and not events(state, "card-played", "aztecs")
    assert not events(state, "my-play-dropped", "toltecs") and state.people[s].plays == []


def test_yacatecuhtli_makes_a_mission_free():
    """8.0 and the edition's Yacatecuhtli ("one mission of yours costs no Tributes"), played in
    phase 5 beside the missions it pays for."""
    state = at_pochtecas({"aztecs": 1}, tributes={"aztecs": 0})
    s = hold(state, "aztecs", "yacatecuhtli")
    order(state, "aztecs", "play yacatecuhtli")  # with the sheet: revealed with the sheets
    sheets(state, {"aztecs": "A chalco"})
    assert "alliance" in state.legal(s)["pochtecas"]["A"]["missions"]
    order(state, "aztecs", "mission A alliance")
    assert state.owner["chalco"] == s and state.people[s].tributes == 0


def test_yacatecuhtli_frees_the_dearest_mission():
    """The edition's Yacatecuhtli: one mission costs nothing; pbem reading: the dearest of those
    chosen."""
    state = at_pochtecas({"aztecs": 2}, tributes={"aztecs": 1})
    s = hold(state, "aztecs", "yacatecuhtli")
    state.owner["tizapan"] = 1
    sheets(state, {"aztecs": "A chalco, B tizapan"})
    order(state, "aztecs", "play yacatecuhtli")  # in turn, in its phase: played at once
    order(state, "aztecs", "mission A alliance, B rebellion")
    assert state.owner["chalco"] == s and state.people[s].tributes == 0
    assert [e["tributes"] for e in events(state, "mission")] == [0, 1]


def test_chalchiuhtlicue_sinks_a_boat_of_every_player_in_the_zone():
    """8.0 and the edition's Chalchiuhtlicue ("a storm in one lake zone; every player there loses
    1 boat"), given with the phase-5 sheet and played when phase 6 places the boats."""
    state = at_pochtecas(tributes={})
    for s in range(4):
        state.people[s].boats = {state.capital(s): 2}
    hold(state, "chichimecs", "chalchiuhtlicue")
    order(state, "chichimecs", "play chalchiuhtlicue 2")
    sheets(state, {"aztecs": "2B2", "toltecs": "2B2", "chichimecs": "2B3", "tepanecs": "2B4"})
    assert [p.boats for p in state.people][:3] == [{"lake-2": 1}, {"lake-2": 1}, {"lake-3": 2}]
    assert events(state, "storm", "tepanecs")[0]["lost"] == {"aztecs": 1, "toltecs": 1}


def test_no_storm_on_a_lake_battle_under_way():
    """The edition's Chalchiuhtlicue; pbem reading: a storm cannot fall once a lake battle is
    announced (its sides are fixed)."""
    state = at_pochtecas(tributes={})
    hold(state, "chichimecs", "chalchiuhtlicue")
    sheets(state, {"aztecs": "1B2", "toltecs": "1B2", "chichimecs": "1B2", "tepanecs": "1B4"})
    order(state, "aztecs", "attack 2 toltecs")
    assert state.owed == {2: "join"}
    with pytest.raises(IllegalOrderError, match="cannot be played now"):
        order(state, "chichimecs", "play chalchiuhtlicue 2")


def test_a_storm_needs_a_lake_zone():
    """The edition's Chalchiuhtlicue falls on "one lake zone": the play names it."""
    state = at_pochtecas()
    hold(state, "aztecs", "chalchiuhtlicue")
    with pytest.raises(IllegalOrderError, match="names one of 1, 2, 3, 4"):
        order(state, "aztecs", "play chalchiuhtlicue 9")


def test_tlaloc_names_no_target():
    """9.0's Tlaloc gathers Tributes: it names nothing."""
    state = second_turn_cards()
    hold(state, "aztecs", "tlaloc")
    with pytest.raises(IllegalOrderError, match="names nothing, not 2"):
        order(state, "aztecs", "play tlaloc 2")
    assert state.people[0].plays == []


def test_tlenamacac_adds_to_the_offers_to_tezcatlipoca():
    """8.0 and the edition's Tlenamacac ("add 2 to the Sacrifice points offered to Tezcatlipoca
    this turn"), given with a secret offer and revealed with the offers."""
    state = to_phase(new_game(), "judgement")
    hold(state, "toltecs", "tlenamacac")
    order(state, "toltecs", "play tlenamacac")
    judge(state)
    tezcatlipoca = events(state, "tezcatlipoca")[0]
    assert tezcatlipoca["cards"] == 2 and tezcatlipoca["total"] == 2 + max(tezcatlipoca["dice"])


def test_a_play_given_with_a_secret_answer_waits_for_the_answers():
    """8.0; pbem reading: a card given beside a secret answer is shown when the answers are."""
    state = to_phase(new_game(), "judgement")
    hold(state, "toltecs", "tlenamacac")
    order(state, "toltecs", "play tlenamacac; quetzalcoatl 0")
    assert not events(state, "card-played", "aztecs") and state.people[1].hand == ["tlenamacac"]


def test_plays_come_first_whatever_their_place_in_a_submission():
    """A play never answers: written after the answer it is still given beside it."""
    state = second_turn_cards()
    hold(state, "aztecs", "tlaloc")
    left = state.submit("aztecs", state.parse("keep\nplay tlaloc"))
    assert left == [] and [p.card for p in state.people[0].plays] == ["tlaloc"]


def test_no_play_without_a_decision_owed():
    """A play rides on a decision: a seat that owes none cannot give one (it gives it with its
    next decision)."""
    state = to_phase(new_game(), "purchase")
    hold(state, "toltecs", "tlenamacac")
    with pytest.raises(Exception, match="owe no decision"):
        order(state, "toltecs", "play tlenamacac")


def test_setup_leaves_every_hand_empty_of_plays():
    """8.0: hands are dealt in phase 1 of the first turn, so nothing is played in setup."""
    state = through_setup(new_game())
    assert all(not p.plays and p.last_card is None for p in state.people)
