"""The options "The Big Deal" and "Pirogue Express Service" (18.0), one rule case a test (DATC
style; readings in docs/rules-azteca.md, "Deals").  Positions are set directly.  On turn 1 the
purchases go in turn order Aztecs, Toltecs, Chichimecs, Tepanecs; on turn 2 phase 1 asks every
seat for its discards at once."""
from __future__ import annotations

import pytest

from engine.azteca.deal_orders import DealAnswer, DealOffer, Lend, Terms
from engine.azteca.game import setup_from_record
from engine.azteca.state import AztecaState
from engine.core import IllegalOrderError, ParseError
from tests.engine.azteca.azteca_support import events, new_game, order, to_phase

BIG_DEAL = ("18.0 \"THE BIG DEAL\": \"Cards can be sold or exchanged between players. You can play a card to help "
            "another player. Players can give or lend Tributes to each other. A player is never forced to keep his "
            "word.\"")
PIROGUE = "18.0 \"PIROGUE EXPRESS SERVICE\": \"A player can allow another player to use his boats for movements.\""
BOTH = {"big_deal": "on", "pirogue_express": "on"}


def purchases(options: dict | None = None) -> AztecaState:
    """Turn 1's purchases: the Aztecs owe theirs, every seat holds 8 Tributes."""
    state = to_phase(new_game(options=BOTH if options is None else options), "purchase")
    assert state.owed == {0: "purchase"}
    return state


def hold(state: AztecaState, seat: str, *cards: str) -> int:
    s = state.seats.index(seat)
    state.people[s].hand = list(cards)
    return s


def toltecs_turn(state: AztecaState) -> AztecaState:
    """The Aztecs buy nothing: the Toltecs owe their purchases."""
    order(state, "aztecs", "buy nothing")
    assert state.owed == {1: "purchase"}
    return state


# ---- the grammar ---------------------------------------------------------------------------

@pytest.mark.parametrize("text, parsed", [
    ("offer toltecs 3 tributes, card tlaloc for boats 2 4",
     DealOffer("toltecs", Terms(3, ("tlaloc",)), Terms(boats=(2, 4)))),
    ("offer toltecs card raid", DealOffer("toltecs", Terms(cards=("raid",)))),
    ("offer toltecs nothing for 2 tributes", DealOffer("toltecs", Terms(), Terms(2))),
    ("accept aztecs 1", DealAnswer("accept", "aztecs", 1)),
    ("decline aztecs 2", DealAnswer("decline", "aztecs", 2)),
    ("withdraw toltecs 1", DealAnswer("withdraw", "toltecs", 1)),
    ("lend toltecs boats all", Lend("toltecs", (0,))),
])
def test_deal_orders_read_and_write_one_canonical_text(text, parsed):
    """The orders of docs/rules-azteca.md, "Deals": the text reads as the order and the order
    writes the same text."""
    state = new_game()
    assert state.parse(text) == [parsed] and state.order_text(parsed) == text


@pytest.mark.parametrize("text", ["offer toltecs", "offer toltecs nothing", "offer toltecs 3 cows",
                                  "accept aztecs", "lend toltecs boats 0", "lend toltecs boats 2 2"])
def test_a_malformed_deal_order_is_a_parse_error(text):
    """A deal order outside the grammar says what the grammar expected."""
    with pytest.raises(ParseError) as caught:
        new_game().parse(text)
    assert caught.value.expected


# ---- offers ---------------------------------------------------------------------------------

def test_an_offer_rides_on_the_decision_owed_without_answering_it():
    """18.0 The Big Deal: "Cards can be sold or exchanged between players." pbem: an offer is
    given beside the decision its seat owes, and the seat still owes it."""
    state = purchases()
    order(state, "aztecs", "offer toltecs 2 tributes for nothing")
    assert state.owed == {0: "purchase"}
    assert state.view("toltecs")["me"]["offers"] == [
        {"from": "aztecs", "to": "toltecs", "number": 1, "give": "2 tributes", "take": "nothing"}]


def test_an_offer_is_seen_by_its_two_parties_only():
    """18.0 The Big Deal. pbem reading: an offer is private to its two parties; a third seat and
    a spectator see exactly what they would have seen without it."""
    state = purchases()
    hold(state, "aztecs", "tlaloc")
    twin = state.clone()
    order(state, "aztecs", "offer toltecs card tlaloc for 3 tributes")
    for reader in ("chichimecs", "tepanecs", None):
        assert state.view(reader) == twin.view(reader)
    assert events(state, "deal-offered", "toltecs")[0]["give"] == "card tlaloc"


def test_offers_are_numbered_for_each_pair_of_seats():
    """pbem reading: offers are numbered 1, 2, ... per pair of seats, so a number tells nobody how
    many offers other seats made."""
    state = purchases()
    order(state, "aztecs", "offer toltecs 1 tributes; offer chichimecs 1 tributes; offer toltecs 2 tributes")
    numbers = [(o["to"], o["number"]) for o in state.view("aztecs")["me"]["offers"]]
    assert numbers == [("toltecs", 1), ("chichimecs", 1), ("toltecs", 2)]


def test_an_accepted_sale_hands_over_the_card_and_the_tributes():
    """18.0 The Big Deal: "Cards can be sold or exchanged between players." The card and the
    Tributes change hands when the buyer accepts."""
    state = purchases()
    hold(state, "aztecs", "tlaloc")
    hold(state, "toltecs", "raid")
    order(state, "aztecs", "offer toltecs card tlaloc for 3 tributes")
    toltecs_turn(state)
    order(state, "toltecs", "accept aztecs 1")
    assert state.people[0].hand == [] and state.people[1].hand == ["raid", "tlaloc"]
    assert (state.people[0].tributes, state.people[1].tributes) == (11, 5)
    assert state.view("aztecs")["me"]["offers"] == [] and state.owed == {1: "purchase"}


def test_a_deal_is_public_but_the_cards_it_moves_are_not():
    """9.0: Tributes are announced aloud, and hand sizes are public: the deal and its Tributes are
    seen by all, the cards' names by the two parties only (pbem reading)."""
    state = purchases()
    hold(state, "aztecs", "tlaloc")
    order(state, "aztecs", "offer toltecs card tlaloc for 3 tributes")
    toltecs_turn(state)
    order(state, "toltecs", "accept aztecs 1")
    deal = events(state, "deal", "chichimecs")[0]
    assert deal["tributes"] == [0, 3] and deal["cards"] == [1, 0]
    assert "tlaloc" not in str(state.view("chichimecs")) and events(state, "deal-accepted", "toltecs")


def test_tributes_given_or_lent_change_hands_at_once():
    """18.0 The Big Deal: "Players can give or lend Tributes to each other." A loan is a gift whose
    return is a promise."""
    state = purchases()
    order(state, "aztecs", "offer toltecs 5 tributes")
    toltecs_turn(state)
    order(state, "toltecs", "accept aztecs 1")
    assert (state.people[0].tributes, state.people[1].tributes) == (3, 13)


def test_a_promise_to_repay_is_not_enforced():
    """18.0 The Big Deal: "A player is never forced to keep his word." The lender may ask his
    Tributes back by an offer; the borrower may decline it and keep them."""
    state = purchases()
    order(state, "aztecs", "offer toltecs 5 tributes")
    toltecs_turn(state)
    order(state, "toltecs", "accept aztecs 1; buy nothing")
    order(state, "chichimecs", "buy nothing")
    order(state, "tepanecs", "buy nothing")
    state.owed = {0: "look", 1: "look"}  # both asked something in the slave market
    order(state, "aztecs", "offer toltecs nothing for 5 tributes")
    order(state, "toltecs", "decline aztecs 2")
    assert (state.people[0].tributes, state.people[1].tributes) == (3, 13) and state.offers == []


def test_a_withdrawn_offer_cannot_be_accepted():
    """pbem: `withdraw SEAT N` takes back an offer not yet accepted."""
    state = purchases()
    order(state, "aztecs", "offer toltecs 2 tributes; withdraw toltecs 1")
    toltecs_turn(state)
    with pytest.raises(IllegalOrderError, match="no open offer number 1"):
        order(state, "toltecs", "accept aztecs 1")
    assert state.people[1].tributes == 8


def test_only_the_seat_offered_to_may_accept():
    """An offer is accepted by the seat it is made to, never by a third seat or its maker."""
    state = purchases()
    order(state, "aztecs", "offer toltecs 2 tributes")
    state.owed = {0: "purchase", 2: "purchase"}
    with pytest.raises(IllegalOrderError, match="no open offer"):
        order(state, "chichimecs", "accept aztecs 1")
    with pytest.raises(IllegalOrderError):
        order(state, "aztecs", "accept aztecs 1")


# ---- illegal offers -------------------------------------------------------------------------

def test_an_offer_of_more_tributes_than_held_is_refused():
    """One cannot give what one does not hold: the Aztecs have 8 Tributes."""
    state = purchases()
    before = state.view("aztecs")
    with pytest.raises(IllegalOrderError, match="8 Tributes, not 9"):
        order(state, "aztecs", "offer toltecs 9 tributes")
    assert state.view("aztecs") == before


def test_an_offer_of_a_card_not_held_is_refused():
    """One cannot sell a card one does not hold."""
    state = purchases()
    hold(state, "aztecs", "raid")
    with pytest.raises(IllegalOrderError, match="no tlaloc in hand"):
        order(state, "aztecs", "offer toltecs card tlaloc for 1 tributes")


def test_an_acceptance_is_refused_when_the_giver_spent_what_he_offered():
    """The terms change hands at acceptance: the Aztecs offered 8 Tributes, then spent them."""
    state = purchases()
    order(state, "aztecs", "offer toltecs 8 tributes; buy pochteca 3, boat 1")
    with pytest.raises(IllegalOrderError, match="no longer holds"):
        order(state, "toltecs", "accept aztecs 1")
    assert state.people[1].tributes == 8


def test_a_refused_acceptance_does_not_name_the_card_the_giver_no_longer_holds():
    """pbem reading: the cards an accepted deal moves are seen by its two parties only.  The
    Aztecs offer the Toltecs Tlaloc and Raid, then sell Raid to the Chichimecs: the Toltecs'
    acceptance is refused without saying which card is gone (the Chichimecs' deal stays theirs)."""
    state = to_phase(to_phase(new_game(options=BOTH), "purchase"), "cards")
    hold(state, "aztecs", "tlaloc", "raid")
    order(state, "aztecs", "offer toltecs card tlaloc, card raid; offer chichimecs card raid")
    order(state, "chichimecs", "accept aztecs 1")
    with pytest.raises(IllegalOrderError, match="no longer holds") as refused:
        order(state, "toltecs", "accept aztecs 1")
    assert "raid" not in str(refused.value) and "tlaloc" not in str(refused.value)


def test_deals_are_refused_with_the_options_off():
    """18.0 names the Big Deal an optional rule: without it no deal is taken."""
    state = purchases({})
    with pytest.raises(IllegalOrderError, match="option big_deal or pirogue_express"):
        order(state, "aztecs", "offer toltecs 2 tributes")
    assert "deal" not in state.legal(0) and "offers" not in state.view("aztecs")["me"]


def test_tributes_and_cards_need_the_big_deal():
    """With only the Pirogue Express Service, boats may be lent but Tributes do not change hands."""
    state = purchases({"pirogue_express": "on"})
    with pytest.raises(IllegalOrderError, match="option big_deal"):
        order(state, "aztecs", "offer toltecs 2 tributes")
    order(state, "aztecs", "offer toltecs boats 1")
    assert len(state.offers) == 1


def test_boats_need_the_pirogue_express():
    """With only the Big Deal, nobody lends boats."""
    state = purchases({"big_deal": "on"})
    with pytest.raises(IllegalOrderError, match="option pirogue_express"):
        order(state, "aztecs", "lend toltecs boats 1")
    with pytest.raises(IllegalOrderError, match="option pirogue_express"):
        order(state, "aztecs", "offer toltecs 1 tributes for boats 1")


def test_deals_begin_with_the_first_game_turn():
    """pbem reading: the preparation (5.0-6.0) places the starting pieces; deals come with the
    game turns."""
    state = new_game(options=BOTH)
    with pytest.raises(IllegalOrderError, match="first game turn"):
        order(state, "aztecs", "offer toltecs 2 tributes")


def test_an_acceptance_waits_while_the_giver_has_a_secret_answer_given():
    """11.0: "Players hide the marker and the Tributes in their hand and reveal them
    simultaneously": what a seat put in a secret answer (discards, a bid) cannot change hands
    until the answers are revealed; pbem refuses the acceptance meanwhile (who has answered is
    public)."""
    state = to_phase(to_phase(new_game(options=BOTH), "purchase"), "cards")
    hold(state, "aztecs", "tlaloc")
    order(state, "aztecs", "offer toltecs card tlaloc for 1 tributes; discard tlaloc")
    with pytest.raises(IllegalOrderError, match="secret answers are revealed"):
        order(state, "toltecs", "accept aztecs 1")
    assert state.legal(1)["deal"]["accept"] == []


def test_an_acceptance_before_either_secret_answer_is_taken():
    """Both parties still owe their secret answer: the deal is made before either is given."""
    state = to_phase(to_phase(new_game(options=BOTH), "purchase"), "cards")
    hold(state, "aztecs", "tlaloc")
    order(state, "aztecs", "offer toltecs card tlaloc")
    order(state, "toltecs", "accept aztecs 1")
    assert "tlaloc" in state.people[1].hand and state.owed[1] == "cards"


# ---- Pirogue Express Service ----------------------------------------------------------------

def war_board(**options: str) -> AztecaState:
    """The real map in phase 7: Toltec army A alone in Colhuacan (harbour on zone 4), Chichimec
    boats in zone 4, no Toltec boat; nobody controls the lake."""
    players = ["aztecs", "toltecs", "chichimecs", "tepanecs"]
    state = AztecaState(setup_from_record({"game": "azteca", "seed": 7, "players": players, "options": options}))
    state.owed, state.phase, state.markers_revealed = {1: "march"}, "war", True
    for person in state.people:
        person.generals = {letter: None for letter in "ABC"}
        person.boats = {}
    state.people[1].generals["A"] = "colhuacan"
    state.people[1].chart["A"] = [2, 0]
    state.people[2].boats = {"lake-4": 2}
    return state


def test_lent_boats_carry_an_army_across_a_lake_zone():
    """18.0 Pirogue Express Service; 14.3: "An army can move through a lake zone if boats of the
    same color are present." Boats lent count as the army's own: the Toltecs land at Chalco."""
    state = war_board(pirogue_express="on")
    assert "chalco" not in state.legal(1)["moves"]["A"]
    state.owed = {1: "march", 2: "plan"}
    order(state, "chichimecs", "lend toltecs boats 4")
    assert "chalco" in state.legal(1)["moves"]["A"]
    assert state.view(None)["boat_loans"] == [{"lender": "chichimecs", "borrower": "toltecs", "zone": "lake-4"}]


def test_a_controller_who_lends_his_boats_consents_to_the_crossing():
    """14.3: "The player who controls a lake zone can prevent crossing of an army". pbem reading:
    lending his boats in the zone he controls is his consent, whatever his standing `allow`."""
    state = war_board(pirogue_express="on")
    state.lake_control["lake-4"] = 2
    state.plans = {2: state.parse("plan allow none")[0]}
    state.boat_loans = {(2, 1, "lake-4")}
    assert "chalco" in state.legal(1)["moves"]["A"]


def test_boats_lent_in_an_accepted_offer_carry_the_buyer():
    """18.0 both options: leave to use boats may be sold; it is given when the offer is accepted."""
    state = war_board(**BOTH)
    state.owed = {1: "march", 2: "plan"}
    order(state, "chichimecs", "offer toltecs boats 4 for 2 tributes")
    order(state, "toltecs", "accept chichimecs 1")
    assert "chalco" in state.legal(1)["moves"]["A"] and state.people[2].tributes == 6


def test_leave_to_use_boats_ends_with_the_turn():
    """pbem reading: boats are placed anew each turn (13.0), so a loan lasts until the turn ends;
    so do open offers."""
    state = purchases()
    order(state, "aztecs", "lend toltecs boats all; offer toltecs 1 tributes")
    assert len(state.boat_loans) == 4
    to_phase(state, "cards")
    assert state.boat_loans == set() and state.offers == []


def test_lent_boats_open_a_retreat():
    """14.11: "he must have an adjacent territory belonging to him or a continuous chain of boats
    that allow him to retreat to one of his territories"; pbem reading of 18.0 Pirogue Express:
    lent boats make that chain. Toltecs in Chalco, cut off from Colhuacan but by zone 4."""
    state = war_board(pirogue_express="on")
    state.owner["chalco"] = 1
    assert state.retreat_to(1, "chalco") is None
    state.boat_loans = {(2, 1, "lake-4")}
    assert state.retreat_to(1, "chalco") == "colhuacan"


def test_lent_boats_carry_the_reserve_to_a_city():
    """14.6: the Reserve needs "a continuous chain of territories or lake zones belonging to the
    player"; 13.2: control "allows landing, transporting and retreating of your Troops (army and
    reserve)". pbem reading of 18.0 Pirogue Express: lent boats carry the Reserve too."""
    state = war_board(pirogue_express="on")
    state.owner["chalco"] = 1
    assert not state.reserve_reaches(1, "chalco")
    state.boat_loans = {(2, 1, "lake-4")}
    assert state.reserve_reaches(1, "chalco")


def test_a_loan_of_boats_not_in_the_zone_carries_nobody():
    """18.0 Pirogue Express: "use his boats": leave counts only where the lender's boats are."""
    state = war_board(pirogue_express="on")
    state.people[2].boats = {"lake-2": 2}
    state.boat_loans = {(2, 1, "lake-4")}
    assert "chalco" not in state.legal(1)["moves"]["A"]


def test_a_card_given_to_play_later_and_then_sold_is_dropped():
    """8.0's plays wait for their phase; a card sold meanwhile can no longer be played by its
    seller, whose play is dropped (seen by him only), and the buyer holds it."""
    state = to_phase(to_phase(new_game(options=BOTH), "purchase"), "cards")
    hold(state, "aztecs", "tlaloc")
    hold(state, "toltecs")
    tributes = state.people[0].tributes
    order(state, "aztecs", "play tlaloc; offer toltecs card tlaloc")
    order(state, "toltecs", "accept aztecs 1")
    to_phase(state, "purchase")
    assert events(state, "my-play-dropped", "aztecs") and not events(state, "card-played", "aztecs")
    assert state.people[0].tributes == tributes + state.income(0)[0] and "tlaloc" in state.people[1].hand


def test_a_side_of_a_deal_names_at_most_eight_cards():
    """pbem: an offer asks at most 8 cards (twice a full hand, 8.0), so a state stays small."""
    state = purchases()
    with pytest.raises(IllegalOrderError, match="at most 8 cards"):
        order(state, "aztecs", "offer toltecs nothing for " + ", ".join(["card raid"] * 9))
