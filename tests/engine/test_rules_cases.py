"""One test per rule of Aztlán (English rulebook), in the order of the rulebook.

Each test quotes the rule it checks.  Where the rulebook is silent and pbem decided
(docs/rules.md), the docstring says "pbem decision" and the test checks that decision.
Positions are reached by playing: choose cards, place pawns turn by turn, settle
conflicts (helpers in test_rules_support.py).  The usual board is a row of
territories 1..8; territories 1-4 are where the tribes meet, 5-8 are their homes.
"""
from __future__ import annotations

from collections import Counter

import pytest

from engine.aztlan import GAME
from engine.aztlan.cards import FACTIONS
from engine.aztlan.orders import ChooseCard, LetTieStand, React, Resolve, Score, Turn
from engine.core import IllegalOrderError, NotYourDecisionError, ParseError
from test_rules_support import (DECK, FOUR, THREE, TWO, asked, board, choose, conservation, develop, do,
                                domains, events, finish_scoring, frozen, game, give, hand, line,
                                options_of, pawns, position, quiet_age, scored)

ROW = line("city", "desert", "jungle", "fields", "mountains", "city", "desert", "jungle")
HOMES = {"ocelot": 5, "serpent": 6, "quetzal": 7, "coyote": 8,
         "coyote-quetzal": 5, "ocelot-serpent": 6}
# Cards for five quiet ages (the wild card 4 stays unused, so nobody is asked to score).
AGE_CARDS = (9, 8, 7, 6, 5)


def contest(*, cards, at, players=THREE, hands=None, options=None, top=()):
    """Play the choosing and development phases of age 1 on ROW: each seat puts a pawn on each
    territory listed in `at[seat]` (repeat a territory for more pawns), the rest at home."""
    g = game(ROW, players, options=options, top=top)
    for seat, cards_ in (hands or {}).items():
        give(g, seat, *cards_)
    choose(g, **cards)
    n = g.to_place[0]
    develop(g, **{seat: [*at.get(seat, ()), *[HOMES[seat]] * (n - len(at.get(seat, ())))]
                  for seat in players})
    return g


def quiet_ages(g, ages, first=1):
    """Quiet ages (no conflict): every seat plays the card of AGE_CARDS for that age."""
    for age in range(first, first + ages):
        quiet_age(g, HOMES, **{seat: AGE_CARDS[age - 1] for seat in g.seats})


def until_turn(g, seat):
    """Development turns of the other seats (a pawn at home each) until it is `seat`'s turn."""
    while g.seats[g.waiting()[0]] != seat:
        other = g.seats[g.waiting()[0]]
        g.apply(other, Turn(HOMES[other]))


def people_view(g, people):
    (row,) = [p for p in g.view(None)["peoples"] if p["people"] == people]
    return row


# ==== SETUP ===========================================================================

@pytest.mark.parametrize("players", [THREE, FOUR], ids=["3p", "4p"])
def test_setup_thirty_pawns_per_tribe(players):
    """120 Tribe pawns in 4 different colors, 30 for each tribe. ... Every player takes the tribe
    pawns of his chosen color, to create his reserve of pawns."""
    g = game(ROW, players)
    assert conservation(g) == [30] * len(players)
    assert g.view(None)["pawns"] == {}
    for row in g.view(None)["peoples"]:
        assert row["reserve"] + row["to_place"] == 30 and row["removed"] == 0


def test_setup_six_power_cards_numbered_4_to_9():
    """24 Power cards (4 sets of 6 each, each set numbered from 4 to 9). ... All the power cards
    are linked to a type of territory, except the card with the number "4" on it."""
    g = game(ROW, FOUR)
    for seat in FOUR:
        assert g.view(seat)["me"]["power_left"] == [4, 5, 6, 7, 8, 9]
    assert g.card_type[4] == "wild"
    assert sorted(g.card_type[n] for n in range(5, 10)) == ["city", "desert", "fields", "jungle", "mountains"]
    assert g.card_type[9] == "city" and g.card_type[7] == "mountains"


def test_setup_prosperity_deck_of_thirty_cards_shuffled():
    """30 Prosperity cards (3x Blessing of Mixcoatl; 3x Blessing of Tepeyollotl; 3x Blessing of
    Xipe Totec; 9x Offering to the Gods; 3x Sacred Games; 3x Rafts and Canoes; 3x Great Tlatoani;
    3x Eagle and Jaguar Warriors) ... Finally, the players shuffle the prosperity cards and place
    the deck, facedown, close to one side of the game board."""
    decks = [GAME.new_game({"players": list(THREE), "seed": seed, "board": ROW}).deck for seed in (1, 2)]
    for deck_ in decks:
        assert Counter(deck_) == {"mixcoatl": 3, "tepeyollotl": 3, "xipe-totec": 3, "offering": 9,
                                  "sacred-games": 3, "rafts": 3, "tlatoani": 3, "eagle-jaguar": 3}
    assert decks[0] != decks[1]  # the seed shuffles
    assert GAME.new_game({"players": list(THREE), "seed": 1, "board": ROW}).deck == decks[0]
    view = GAME.new_game({"players": list(THREE), "seed": 1, "board": ROW}).view(None)
    assert view["deck_size"] == 30 and "deck" not in view  # facedown


def test_setup_explicit_deck_is_drawn_from_the_top():
    """(pbem: a record may give the shuffled deck, top card first.)  The coexisting winner draws
    the top card."""
    g = contest(cards=dict(ocelot=9, serpent=5, quetzal=6), at=dict(ocelot=[1], serpent=[1]),
                top=("rafts", "tlatoani"))
    do(g, "ocelot", "coexist 1")
    assert hand(g, "ocelot") == ["rafts"]


def test_setup_stack_order_top_plays_first():
    """Choose the stacking order randomly: the player with his counter on the top plays first,
    the player with the counter immediately below plays second, and so on."""
    g = game(ROW, ("quetzal", "ocelot", "serpent"))
    assert g.view(None)["track"] == ["quetzal", "ocelot", "serpent"]
    choose(g, ocelot=9, serpent=8, quetzal=7)
    seen = []
    for _ in range(6):
        (s,) = g.waiting()
        seen.append(g.seats[s])
        g.apply(g.seats[s], Turn(HOMES[g.seats[s]]))
    assert seen == ["quetzal", "ocelot", "serpent"] * 2


def test_setup_random_stacking_order():
    """Choose the stacking order randomly.  (pbem: GAME.seating draws it from a seed.)"""
    orders = {tuple(GAME.seating(seed, 4)) for seed in range(20)}
    assert all(sorted(order) == sorted(FOUR) for order in orders)
    assert len(orders) > 1
    assert GAME.seating(7, 3) == GAME.seating(7, 3) and len(set(GAME.seating(7, 3))) == 3


# ==== CHOOSING: pawns per age =========================================================

@pytest.mark.parametrize("players, table", [
    (TWO, (10, 9, 8, 7, 6)), (THREE, (8, 7, 6, 5, 4)), (FOUR, (7, 6, 5, 4, 3))], ids=["2p", "3p", "4p"])
def test_pawns_per_age(players, table):
    """Check the table below to see how many tribe pawns each player can use in each age.
    Age I-V: 3 player game 8, 7, 6, 5, 4; 4 player game 7, 6, 5, 4, 3.
    (Aztec Gods: The number of pawns of a faction entering the game in each age is: 1st age: 10;
    2nd age: 9; 3rd age: 8; 4th age: 7; 5th age: 6.)"""
    g = game(ROW, players)
    for age, count in enumerate(table, 1):
        assert g.age == age and g.phase == "choosing"
        assert g.to_place == [count] * len(g.peoples)
        quiet_ages(g, 1, first=age)
    assert g.is_over()
    assert conservation(g) == [60 if len(players) == 2 else 30] * len(g.peoples)


# ==== DEVELOPMENT: turn order =========================================================

def test_turn_order_by_decreasing_score():
    """The player with the most victory points takes his turn first and then the other players
    take their turn, one at a time, in decreasing order of victory point score."""
    g = game(ROW)
    g.score[:] = [3, 10, 7]  # ocelot, serpent, quetzal
    choose(g, ocelot=9, serpent=8, quetzal=7)
    assert g.view(None)["turn_order"] == ["serpent", "quetzal", "ocelot"]
    assert asked(g) == [("serpent", "turn", ())]


def test_turn_order_ties_broken_by_the_counter_on_top():
    """When two or more players have the same score (as it happens in the first age, when all
    players have a score of 0), start with the player whose score counter is on the top of the
    others, and proceed with the ones below it."""
    g = game(ROW, ("quetzal", "ocelot", "serpent"))
    g.score[:] = [5, 2, 5]  # quetzal, ocelot, serpent: quetzal's counter is above serpent's
    choose(g, ocelot=9, serpent=8, quetzal=7)
    assert g.view(None)["turn_order"] == ["quetzal", "serpent", "ocelot"]


def test_counter_landing_on_an_occupied_score_goes_on_top():
    """Advance the player's counter on the scoring track to indicate his new score. If the
    position reached on the scoring track is already occupied by another player's counter, place
    the advancing counter on top of the other counter.
    (Ocelot, on top at 0, scores 2 first; Quetzal then lands on 2 and goes on top of Ocelot, so
    Quetzal plays before Ocelot in the next age.)"""
    g = game(line("city", "desert", "city", "desert", "city", "city", "desert"))
    choose(g, ocelot=9, serpent=9, quetzal=9)
    develop(g, ocelot=[1] * 8, serpent=[5, 6] * 4, quetzal=[3] * 8)
    assert [scored(g, seat)["points"] for seat in THREE] == [2, 6, 2]
    assert g.view(None)["track"] == ["serpent", "quetzal", "ocelot"]
    choose(g, ocelot=8, serpent=8, quetzal=8)
    assert g.view(None)["turn_order"] == ["serpent", "quetzal", "ocelot"]


def test_counter_that_scores_nothing_stays_in_its_stack():
    """(pbem decision: a counter that gains nothing does not move, so it keeps its place in the
    stack.)  Everybody scores 0: the initial stack order still decides."""
    g = game(ROW, ("quetzal", "ocelot", "serpent"))
    quiet_age(g, {"ocelot": 2, "serpent": 2, "quetzal": 2}, ocelot=9, serpent=9, quetzal=9)
    assert g.score == [0, 0, 0]
    assert g.view(None)["turn_order"] == ["quetzal", "ocelot", "serpent"]


# ==== DEVELOPMENT: a turn =============================================================

def test_turn_places_one_pawn_then_the_next_player_plays():
    """In turn order, each player places, one at a time, one of his tribe pawns."""
    g = game(ROW)
    choose(g, ocelot=9, serpent=8, quetzal=7)
    do(g, "ocelot", "place 1")
    assert asked(g) == [("serpent", "turn", ())]
    assert g.to_place == [7, 8, 8]
    assert pawns(g, 1) == {"ocelot": 1}


def test_pawn_may_be_placed_anywhere():
    """Each tribe pawn can be placed anywhere the player desires, on any territory, empty or
    occupied by other pawns, adjacent to territories where he previously placed pawns or not."""
    g = game(ROW)
    choose(g, ocelot=9, serpent=8, quetzal=7)
    do(g, "ocelot", "place 1")
    do(g, "serpent", "place 1")  # occupied by another tribe
    do(g, "quetzal", "place 8")
    do(g, "ocelot", "place 8")  # far from its other pawn, beside Quetzal
    assert pawns(g, 1) == {"ocelot": 1, "serpent": 1}
    assert pawns(g, 8) == {"ocelot": 1, "quetzal": 1}


LAKE_ROW = board("1 city, 2 desert, 3 jungle, 4 fields, 5 mountains, 6 city, 7 desert",
                 "1-2 2-3 3-4 4-5 5-6 6-7", ("1 3",))


def test_lake_is_not_a_territory():
    """Note: A lake (a blue zone without a territory icon) is not a territory and no tribe pawn
    can be placed there.  (There is no order naming a lake: territory 99 does not exist.)"""
    g = game(LAKE_ROW)
    choose(g, ocelot=9, serpent=8, quetzal=7)
    with pytest.raises(IllegalOrderError, match="^there is no territory 99$"):
        g.apply("ocelot", Turn(99))
    assert g.view(None)["pawns"] == {}


def test_lake_named_in_an_order_is_a_parse_error():
    """Note: A lake ... is not a territory and no tribe pawn can be placed there.
    (Naming the lake gives a parse error saying no territory has that name.)"""
    g = game(LAKE_ROW)
    with pytest.raises(ParseError, match="^line 1: 'place Lake 1': no territory 'lake 1'$"):
        g.parse("place Lake 1")


def test_move_one_pawn_to_an_adjacent_territory():
    """In addition, the current player, after he has placed a tribe pawn, may (if desired) move
    one of his tribe pawns already on the board from one territory to an adjacent territory."""
    g = game(LAKE_ROW)
    choose(g, ocelot=9, serpent=8, quetzal=7)
    develop(g, ocelot=[4], serpent=[6], quetzal=[7])
    do(g, "ocelot", "place 1 move 4 to 5")
    assert pawns(g, 1) == {"ocelot": 1} and pawns(g, 5) == {"ocelot": 1} and pawns(g, 4) == {}


def test_move_is_optional():
    """... may (if desired) move one of his tribe pawns ..."""
    g = game(LAKE_ROW)
    choose(g, ocelot=9, serpent=8, quetzal=7)
    do(g, "ocelot", "place 2")
    assert pawns(g, 2) == {"ocelot": 1}
    assert asked(g)[0][0] == "serpent"


def test_move_may_take_the_pawn_just_placed():
    """(pbem decision: the moved pawn may be the one just placed; it is on the board.)"""
    g = game(LAKE_ROW)
    choose(g, ocelot=9, serpent=8, quetzal=7)
    do(g, "ocelot", "place 2 move 2 to 3")
    assert pawns(g, 2) == {} and pawns(g, 3) == {"ocelot": 1}


def test_move_a_pawn_placed_in_an_earlier_age():
    """Tribe pawns placed in this age or in previous ages may be moved during the development
    phase."""
    g = game(LAKE_ROW)
    quiet_age(g, {"ocelot": 2, "serpent": 5, "quetzal": 7}, ocelot=9, serpent=9, quetzal=9)
    assert g.score == [0, 0, 0]
    choose(g, ocelot=8, serpent=8, quetzal=8)
    do(g, "ocelot", "place 2 move 2 to 1")
    assert pawns(g, 1) == {"ocelot": 1} and pawns(g, 2) == {"ocelot": 8}


def test_move_across_a_lake_is_refused():
    """Note that if there is a lake between two territories, they are not considered adjacent.
    (A pawn moves only to an adjacent territory.)"""
    g = game(LAKE_ROW)
    choose(g, ocelot=9, serpent=8, quetzal=7)
    with pytest.raises(IllegalOrderError,
                       match=r"^3 \(T3x\) is not adjacent to 1 \(T1x\) \(a lake breaks adjacency\)$"):
        do(g, "ocelot", "place 1 move 1 to 3")
    with pytest.raises(IllegalOrderError, match=r"^5 \(T5x\) is not adjacent to 1 \(T1x\)"):
        do(g, "ocelot", "place 1 move 1 to 5")
    assert g.view(None)["pawns"] == {} and asked(g) == [("ocelot", "turn", ())]


def test_move_needs_one_of_your_pawns():
    """... move one of his tribe pawns already on the board ..."""
    g = game(LAKE_ROW)
    choose(g, ocelot=9, serpent=8, quetzal=7)
    develop(g, ocelot=[4], serpent=[5], quetzal=[7])
    with pytest.raises(IllegalOrderError, match=r"^you have no pawn in 5 \(T5x\) to move$"):
        do(g, "ocelot", "place 1 move 5 to 6")


def test_a_turns_options_name_each_pawns_destinations():
    """... move one of his tribe pawns already on the board from one territory to an adjacent
    territory.  Note that if there is a lake between two territories, they are not considered
    adjacent.  (The turn's options list the territories holding the seat's pawns and, for
    every territory, since the pawn placed this turn may move too, the territories a pawn
    moved from it may enter; the form and the map offer only those.)"""
    g = game(LAKE_ROW)
    choose(g, ocelot=9, serpent=8, quetzal=7)
    develop(g, ocelot=[1], serpent=[6], quetzal=[7])
    develop(g, ocelot=[4], serpent=[6], quetzal=[7])
    options = options_of(g, "ocelot")
    assert options["move_from"] == [1, 4]
    assert options["move_to"] == {"1": [2], "2": [1, 3], "3": [2, 4], "4": [3, 5], "5": [4, 6],
                                  "6": [5, 7], "7": [6]}
    do(g, "ocelot", "place 2 move 1 to 2")
    assert pawns(g, 2) == {"ocelot": 2}


def test_only_one_move_per_turn():
    """Each player's turn is composed of two steps: 1) Placing one pawn 2) (optional) Moving one
    pawn.  (A second move clause is a parse error.)"""
    g = game(LAKE_ROW)
    with pytest.raises(ParseError, match="^line 1: 'place 1 move 1 to 2 move 2 to 3': "):
        g.parse("place 1 move 1 to 2 move 2 to 3")


def test_power_cards_revealed_only_when_all_pawns_are_placed():
    """When all players have finished placing all of their tribe pawns, the phase is over and each
    player reveals the power card he chose for that age."""
    g = game(ROW)
    choose(g, ocelot=9, serpent=8, quetzal=7)
    for _ in range(23):
        (s,) = g.waiting()
        g.apply(g.seats[s], Turn(HOMES[g.seats[s]]))
        assert [seat["power_card"] for seat in g.view("ocelot")["seats"]] == [None, None, None]
        assert g.view("ocelot")["me"]["power_card"] == 9
        assert g.view(None)["seats"][1]["has_chosen"] is True
    do(g, "quetzal", "place 7")  # the last pawn of the age
    assert events(g, "reveal", "ocelot")[0]["cards"] == {"ocelot": 9, "serpent": 8, "quetzal": 7}
    assert g.view(None)["seats"][1]["power_played"] == [8]


def test_power_cards_played_stay_face_up():
    """The power cards used by the players in the previous ages remain on the table, face up,
    always visible to the other players during the game."""
    g = game(ROW)
    quiet_ages(g, 2)
    assert g.view("ocelot")["seats"][2]["power_played"] == [9, 8]
    assert g.view(None)["seats"][2]["power_unrevealed"] == [4, 5, 6, 7]


# ==== CONFLICT ========================================================================

def test_conflict_where_pawns_of_two_tribes_meet():
    """There is a conflict in each territory where his tribe pawns are present with the tribe
    pawns of one or more opponents."""
    g = contest(cards=dict(ocelot=9, serpent=5, quetzal=6),
                at=dict(ocelot=[1, 2, 2], serpent=[1], quetzal=[3]))
    assert [c["territory"] for c in g.view(None)["conflicts"]] == [1]


def test_loser_ignores_the_territory():
    """If the active player is not the player with the greater power, he simply ignores the
    territory and checks the next one (if any).  (Ocelot plays first but loses: Serpent is asked.)"""
    g = contest(cards=dict(ocelot=5, serpent=9, quetzal=6), at=dict(ocelot=[1], serpent=[1]))
    assert asked(g) == [("serpent", "conflict", (1,))]
    with pytest.raises(NotYourDecisionError, match="^you have no conflict to settle now; the game waits for serpent$"):
        do(g, "ocelot", "battle 1")


def test_battle_removes_all_opponents():
    """Battle: he removes all his opponents' tribe pawns from the territory."""
    g = contest(cards=dict(ocelot=9, serpent=5, quetzal=6),
                at=dict(ocelot=[1, 1], serpent=[1, 1], quetzal=[1]))
    assert g.view(None)["conflicts"][0]["powers"] == {"ocelot": 18, "serpent": 10, "quetzal": 6}
    do(g, "ocelot", "battle 1")
    assert pawns(g, 1) == {"ocelot": 2}
    assert [p["removed"] for p in g.view(None)["peoples"]] == [0, 2, 1]
    assert hand(g, "ocelot") == [] and len(g.deck) == 30


def test_coexistence_keeps_everyone_and_draws_exactly_one_card():
    """Coexistence: he allows all the opponents' tribe pawns to survive and he receives a
    prosperity card ... he draws only one prosperity card, even if there are two or three
    opponents."""
    g = contest(cards=dict(ocelot=9, serpent=5, quetzal=6),
                at=dict(ocelot=[1, 1], serpent=[1, 1], quetzal=[1]), top=("offering",))
    do(g, "ocelot", "coexist 1")
    assert pawns(g, 1) == {"ocelot": 2, "serpent": 2, "quetzal": 1}
    assert hand(g, "ocelot") == ["offering"] and len(g.deck) == 29
    assert hand(g, "serpent") == hand(g, "quetzal") == []


def test_a_conflict_is_settled_once_for_all_opponents():
    """It's not possible to coexist with one player in a territory and remove the tribe pawns of
    another player also in that territory."""
    g = contest(cards=dict(ocelot=9, serpent=5, quetzal=6),
                at=dict(ocelot=[1, 2], serpent=[1, 2], quetzal=[1]))
    do(g, "ocelot", "battle 1")
    with pytest.raises(IllegalOrderError, match=r"^the conflict in 1 \(T1x\) is already settled$"):
        do(g, "ocelot", "coexist 1")
    with pytest.raises(IllegalOrderError, match=r"^there is no conflict in 3 \(T3x\)$"):
        do(g, "ocelot", "battle 3")


def test_removed_pawns_leave_the_game():
    """Battle: he removes all his opponents' tribe pawns from the territory.  (Removed pawns do
    not go back to the reserve: the next age's pawns come from the reserve.)"""
    g = contest(cards=dict(ocelot=9, serpent=5, quetzal=6), at=dict(ocelot=[1, 1], serpent=[1, 1]))
    do(g, "ocelot", "battle 1")
    assert g.age == 2
    assert people_view(g, "serpent") == {"people": "serpent", "reserve": 30 - 8 - 7, "to_place": 7,
                                         "removed": 2}
    assert conservation(g) == [30, 30, 30]


def test_surviving_pawns_take_the_power_of_the_new_card():
    """Note that both the tribe pawns placed in the current age and those that have survived from
    the previous age now have the power indicated on the new power card.
    (Ocelot's two pawns from age 1 with card 4 make 8, less than Serpent's 9.)"""
    g = game(ROW)
    choose(g, ocelot=9, serpent=8, quetzal=7)
    develop(g, ocelot=[1, 1] + [5] * 6, serpent=[6] * 8, quetzal=[7] * 8)
    choose(g, ocelot=4, serpent=9, quetzal=8)
    develop(g, ocelot=[5] * 7, serpent=[1] + [6] * 6, quetzal=[7] * 7)
    (conflict,) = g.view(None)["conflicts"]
    assert conflict["powers"] == {"ocelot": 2 * 4, "serpent": 9}
    assert asked(g) == [("serpent", "conflict", (1,))]


def test_conflicts_are_settled_in_score_order_even_by_a_seat_asked_to_answer_a_battle():
    """After the player with the highest score has resolved all of his conflicts, the second
    highest score player resolves his conflicts and so on, in decreasing score order.
    (Serpent, asked to answer Ocelot's battle in 1, cannot meanwhile settle its own conflict in 3.)"""
    g = contest(cards=dict(ocelot=9, serpent=8, quetzal=5), at=dict(ocelot=[1], serpent=[1, 3], quetzal=[3]),
                hands=dict(serpent=["offering"], quetzal=["offering"]))
    do(g, "ocelot", "battle 1")
    assert asked(g) == [("serpent", "reaction", (1,))]
    log = g.order_log()
    with pytest.raises(IllegalOrderError):
        do(g, "serpent", "battle 3")
    assert g.order_log() == log
    assert asked(g) == [("serpent", "reaction", (1,))]
    assert pawns(g, 3) == {"serpent": 1, "quetzal": 1}


def test_answer_when_no_battle_was_declared_is_refused():
    """Sacred Games: You can play this card during a conflict phase, after a winning opponent
    declares that he wants to eliminate your tribe pawns by doing battle.
    (With no battle declared, 'sacred' or 'accept' is an illegal order.)"""
    g = contest(cards=dict(ocelot=9, serpent=5, quetzal=6), at=dict(ocelot=[1], serpent=[1]),
                hands=dict(ocelot=["sacred-games"]))
    with pytest.raises(IllegalOrderError):
        do(g, "ocelot", "sacred 1")


def test_tie_without_cards_is_settled_automatically():
    """If there is a tie for the highest power points among the players, they automatically
    coexist, but nobody is rewarded with prosperity cards."""
    g = contest(cards=dict(ocelot=8, serpent=8, quetzal=6), at=dict(ocelot=[1], serpent=[1]))
    assert g.age == 2  # nobody had anything to decide
    assert pawns(g, 1) == {"ocelot": 1, "serpent": 1} and len(g.deck) == 30


def test_weaker_tribe_beside_tied_leaders_is_removed():
    """If a weaker player is present in a territory, with two or more opponents who tie among
    themselves for the highest power, his tribe pawns are automatically removed, while the tied
    players peacefully coexist (without drawing a prosperity card)."""
    g = contest(cards=dict(ocelot=8, serpent=8, quetzal=6), at=dict(ocelot=[1], serpent=[1], quetzal=[1]))
    assert pawns(g, 1) == {"ocelot": 1, "serpent": 1}
    assert people_view(g, "quetzal")["removed"] == 1
    assert hand(g, "ocelot") == hand(g, "serpent") == []


# ==== SCORING =========================================================================

def test_domain_counts_coexistence_even_in_minority():
    """A domain is a series of adjacent territories (one or more) in which the player has at
    least one tribe pawn, alone or in a coexistence - even in minority."""
    g = contest(cards=dict(ocelot=9, serpent=8, quetzal=7), at=dict(ocelot=[1, 2], serpent=[1, 1]))
    do(g, "serpent", "coexist 1")
    finish_scoring(g)
    # Ocelot: 1 (city, in minority beside Serpent) + 2 (desert) + 5 (home, mountains, alone).
    assert domains(g, "ocelot") == [(1, 0, 0), (2, 1, 3)]


def test_domain_without_a_matching_territory_scores_nothing():
    """If a domain does not contain at least one territory matching the power card chosen for the
    age, the player does not score any points for that domain."""
    g = game(ROW)
    choose(g, ocelot=9, serpent=8, quetzal=7)
    position(g, {2: {"ocelot": 1}, 3: {"ocelot": 1}, 4: {"ocelot": 1}, 5: {"ocelot": 1},
                 6: {"serpent": 1}, 7: {"quetzal": 1}})
    assert domains(g, "ocelot") == [(4, 0, 0)]
    assert scored(g, "ocelot")["points"] == 0 and g.score[0] == 0


def test_lake_between_territories_splits_domains():
    """Note that if there is a lake between two territories, they are not considered adjacent
    (except when using a Rafts and Canoes card)."""
    g = game(LAKE_ROW)
    choose(g, ocelot=9, serpent=8, quetzal=7)
    position(g, {1: {"ocelot": 1}, 3: {"ocelot": 1}, 5: {"serpent": 1}, 7: {"quetzal": 1}})
    assert domains(g, "ocelot") == [(1, 0, 0), (1, 1, 2)]


def test_wild_card_type_applies_to_all_domains():
    """If the player has more than one domain, his choice applies to all of his domains.
    (Deserts for the first domain and cities for the second would make 12 + 6; one type for
    all: desert gives 12 + 0.)"""
    g = game(line("desert", "desert", "desert", "fields", "city", "city", "jungle"))
    choose(g, ocelot=4, serpent=8, quetzal=7)
    position(g, {1: {"ocelot": 1}, 2: {"ocelot": 1}, 3: {"ocelot": 1}, 4: {"serpent": 1},
                 5: {"ocelot": 1}, 6: {"ocelot": 1}, 7: {"quetzal": 1}})
    do(g, "ocelot", "score")
    assert scored(g, "ocelot")["type"] == "desert"
    assert domains(g, "ocelot") == [(2, 0, 0), (3, 3, 12)]
    assert scored(g, "ocelot")["points"] == 12


def test_wild_card_best_type_ties_go_to_the_first_type():
    """... the player may choose the most favorable territory for his score.
    (pbem decision: with no type named, ties between types go to the first of desert, fields,
    jungle, mountains, city: here a desert and a city each score 2.)"""
    g = game(line("desert", "jungle", "city", "mountains"))
    choose(g, ocelot=4, serpent=8, quetzal=7)
    position(g, {1: {"ocelot": 1}, 2: {"serpent": 1}, 3: {"ocelot": 1}, 4: {"quetzal": 1}})
    do(g, "ocelot", "score")
    assert scored(g, "ocelot")["type"] == "desert" and scored(g, "ocelot")["points"] == 2


def test_the_wild_card_offers_every_territory_type():
    """This power card is a sort of wild card. There isn't a territory on this power card, so
    during the scoring phase, the player may choose the most favorable territory for his score.
    (The scoring turn's options list the types the wild card may take; none for another card.)"""
    g = contest(cards=dict(ocelot=4, serpent=9, quetzal=8), at={}, hands=dict(serpent=["offering"]))
    assert options_of(g, "ocelot")["wild_types"] == ["desert", "fields", "jungle", "mountains", "city"]
    assert options_of(g, "serpent")["wild"] is False and options_of(g, "serpent")["wild_types"] == []


def test_only_the_wild_card_takes_a_type():
    """This power card is a sort of wild card. There isn't a territory on this power card.
    (Naming a type with another card is refused.)"""
    g = contest(cards=dict(ocelot=9, serpent=8, quetzal=7), at={}, hands=dict(ocelot=["offering"]))
    assert asked(g) == [("ocelot", "scoring", ())]
    with pytest.raises(IllegalOrderError, match="^your power card 9 is not the wild card$"):
        do(g, "ocelot", "score wild desert")


def test_scoring_goes_in_score_order_and_counters_advance():
    """Starting with the player with the highest score and then in decreasing score order
    (breaking ties by the position of the counters, as usual), each player calculates his score.
    Advance the player's counter on the scoring track to indicate his new score.
    (pbem decision: scoring turns are collected at once and carried out in that order.)"""
    g = contest(cards=dict(ocelot=4, serpent=4, quetzal=9), at={})
    assert asked(g) == [("ocelot", "scoring", ()), ("serpent", "scoring", ())]
    do(g, "serpent", "score wild city")
    do(g, "ocelot", "score wild mountains")
    # Ocelot (top) advances first to 2, then Serpent lands on top of it; Quetzal scores 0.
    assert g.score == [2, 2, 0]
    assert g.view(None)["track"] == ["serpent", "ocelot", "quetzal"]


# ==== END OF THE GAME =================================================================

@pytest.mark.parametrize("offerings, bonus", [(0, 0), (1, 1), (2, 4), (3, 9), (4, 16), (5, 25)])
def test_end_of_game_bonus(offerings, bonus):
    """Then, each player adds the bonus value of the power card he did not use during the game to
    his score, plus 1 additional point for every unused prosperity card he has in his hand.
    Offerings to the Gods: At the end of the game, you score 1 victory point if you have only 1 of
    these cards, 4 points if you have 2, 9 points if you have 3, 16 points if you have 4 and 25
    points if you have 5. This score is in addition to the value of 1 point for each prosperity
    card you have in hand at the end of the game."""
    g = game(ROW)
    give(g, "ocelot", *["offering"] * offerings, "rafts")
    quiet_ages(g, 5)
    assert g.is_over()
    unused = g.setup.edition.card(4).points
    extra = g.result()["bonuses"]["ocelot"]
    assert extra["unused_power_cards"] == [4] and extra["unused_power"] == unused
    assert extra["prosperity"] == offerings + 1
    assert extra["offerings"] == bonus
    during = sum(scored(g, "ocelot", age)["points"] for age in range(1, 6))
    assert g.result()["scores"]["ocelot"] == during + unused + offerings + 1 + bonus


def final_tie(options=None):
    """Three counters tied at the end: each scores 2 in age 1 (card 9 on its home city), then
    only the unused card's point.  Age 1 stacks them Quetzal / Serpent / Ocelot (top first); the
    end bonuses are added in that turn order, so the final stack is Ocelot / Serpent / Quetzal."""
    g = game(line("city", "desert", "city", "desert", "city"), options=options)
    homes = {"ocelot": 1, "serpent": 3, "quetzal": 5}
    for card in AGE_CARDS:
        quiet_age(g, homes, ocelot=card, serpent=card, quetzal=card)
    assert len(set(g.result()["scores"].values())) == 1
    return g.result()


def test_final_tie_goes_to_the_counter_below():
    """In case of a tie, the winner is the player with the score counter below the other counters
    with the same score."""
    result = final_tie()
    assert result["winner"] == "quetzal"
    assert result["ranking"] == ["quetzal", "serpent", "ocelot"]


def test_final_tie_goes_to_the_counter_on_top_with_option_top():
    """(Italian rulebook, option final_tiebreak=top: "In caso di pareggio, il vincitore è colui
    che ha il segnalino piramide sopra tutti gli altri.")"""
    result = final_tie({"final_tiebreak": "top"})
    assert result["winner"] == "ocelot"
    assert result["ranking"] == ["ocelot", "serpent", "quetzal"]


def test_most_points_wins():
    """The player who has scored the most points is the winner.  (Serpent's two cities score
    2 + 4 in age 1, the others 2 each; later ages score nothing.)"""
    g = game(line("city", "desert", "city", "city", "desert", "city"))
    choose(g, ocelot=9, serpent=9, quetzal=9)
    develop(g, ocelot=[1] * 8, serpent=[3, 4] * 4, quetzal=[6] * 8)
    for card in AGE_CARDS[1:]:
        quiet_age(g, {"ocelot": 1, "serpent": 3, "quetzal": 6}, ocelot=card, serpent=card, quetzal=card)
    assert g.result()["winner"] == "serpent" and g.result()["ranking"][0] == "serpent"


# ==== PROSPERITY CARDS: Blessings =====================================================

JUNGLES = line("jungle", "jungle", "desert", "jungle", "city", "mountains", "fields")


def blessing_game(text):
    g = game(JUNGLES)
    give(g, "ocelot", "mixcoatl")
    choose(g, ocelot=9, serpent=8, quetzal=7)
    position(g, {1: {"ocelot": 1}, 2: {"ocelot": 1}, 3: {"serpent": 1}, 4: {"ocelot": 1, "quetzal": 2}})
    if g.phase == "conflict":
        do(g, "quetzal", "coexist 4")
    do(g, "ocelot", text)
    finish_scoring(g)
    return g


def test_blessing_two_points_per_territory_of_its_type():
    """Blessing of the Gods: You can play this card during any scoring phase of the game, earning
    2 additional points for each territory of that type you control in that age. ... Mixcoatl,
    god of the hunt, will reward you if you control jungles.
    (pbem decision: "control" = at least one pawn, even in minority; it counts whether or not the
    domain scores.  Ocelot is in jungles 1, 2 and 4 - in 4 beside a stronger Quetzal.)"""
    g = blessing_game("score blessing mixcoatl")
    assert scored(g, "ocelot")["blessings"] == [{"card": "mixcoatl", "type": "jungle", "points": 6}]
    assert scored(g, "ocelot")["points"] == 6  # no city: the domains score nothing
    assert hand(g, "ocelot") == [] and "mixcoatl" in g.view(None)["discard"]


def test_blessing_is_optional_and_kept():
    """You can play this card during any scoring phase of the game ..."""
    g = blessing_game("score")
    assert scored(g, "ocelot")["points"] == 0
    assert hand(g, "ocelot") == ["mixcoatl"]


def test_blessing_in_a_later_scoring_phase():
    """You can play this card during any scoring phase of the game.  (Tepeyollotl rewards
    mountains/volcanoes; Ocelot's home 5 is a mountain.)"""
    g = game(ROW)
    give(g, "ocelot", "tepeyollotl")
    quiet_ages(g, 1)
    assert hand(g, "ocelot") == ["tepeyollotl"]
    choose(g, ocelot=8, serpent=8, quetzal=8)
    develop(g, **{seat: [HOMES[seat]] * 7 for seat in THREE})
    do(g, "ocelot", "score blessing tepeyollotl")
    assert scored(g, "ocelot", age=2)["blessings"][0]["points"] == 2


def test_blessing_must_be_held():
    """When you play this prosperity card ... (a card you do not hold cannot be played)."""
    g = game(JUNGLES)
    give(g, "ocelot", "mixcoatl")
    choose(g, ocelot=9, serpent=8, quetzal=7)
    position(g, {1: {"ocelot": 1}, 3: {"serpent": 1}, 7: {"quetzal": 1}})
    with pytest.raises(IllegalOrderError, match=r"^you hold 0 xipe-totec card\(s\), not 1$"):
        do(g, "ocelot", "score blessing xipe-totec")
    with pytest.raises(IllegalOrderError, match=r"^you hold 1 mixcoatl card\(s\), not 2$"):
        do(g, "ocelot", "score blessing mixcoatl blessing mixcoatl")


# ==== PROSPERITY CARDS: Sacred Games ==================================================

def sacred_game(serpent=(), quetzal=(), top=()):
    """Ocelot (9) beats Serpent (5) and Quetzal (6) in territory 1 and declares battle."""
    g = contest(cards=dict(ocelot=9, serpent=5, quetzal=6),
                at=dict(ocelot=[1], serpent=[1], quetzal=[1]),
                hands=dict(serpent=list(serpent), quetzal=list(quetzal)), top=top)
    do(g, "ocelot", "battle 1")
    return g


def test_sacred_games_winner_must_coexist_and_draws_a_card():
    """Sacred Games: You can play this card during a conflict phase, after a winning opponent
    declares that he wants to eliminate your tribe pawns by doing battle. The winner of the
    conflict must agree to coexist with you - he receives a prosperity card and your pawns remain
    in the territory.  If any other player is defeated in the same territory, his pawns are
    removed normally."""
    g = sacred_game(serpent=["sacred-games"], top=("tlatoani",))
    assert asked(g) == [("serpent", "reaction", (1,))]
    do(g, "serpent", "sacred 1")
    assert pawns(g, 1) == {"ocelot": 1, "serpent": 1}  # Quetzal removed normally
    assert people_view(g, "quetzal")["removed"] == 1
    assert hand(g, "ocelot") == ["tlatoani"]
    assert hand(g, "serpent") == [] and g.view(None)["discard"] == ["sacred-games"]


def test_sacred_games_not_played_the_battle_goes_on():
    """... after a winning opponent declares that he wants to eliminate your tribe pawns by doing
    battle.  (Accepting lets the battle remove the pawns; nobody draws.)"""
    g = sacred_game(serpent=["sacred-games"])
    do(g, "serpent", "accept 1")
    assert pawns(g, 1) == {"ocelot": 1}
    assert hand(g, "serpent") == ["sacred-games"] and hand(g, "ocelot") == []


def test_sacred_games_by_two_defeated_players_winner_draws_one_card():
    """(pbem decision, the rulebook is silent: when two defeated players both play Sacred Games,
    both stay and the winner draws one card for the territory.)"""
    g = sacred_game(serpent=["sacred-games"], quetzal=["sacred-games"])
    assert asked(g) == [("serpent", "reaction", (1,)), ("quetzal", "reaction", (1,))]
    do(g, "quetzal", "sacred 1")
    do(g, "serpent", "sacred 1")
    assert pawns(g, 1) == {"ocelot": 1, "serpent": 1, "quetzal": 1}
    assert len(hand(g, "ocelot")) == 1


def test_sacred_games_cannot_stop_the_removal_beside_tied_leaders():
    """If you are defeated by multiple opponents who are tied for the highest power, you cannot
    use this card."""
    g = contest(cards=dict(ocelot=8, serpent=8, quetzal=6), at=dict(ocelot=[1], serpent=[1], quetzal=[1]),
                hands=dict(quetzal=["sacred-games"]))
    assert all(kind != "reaction" for _, kind, _ in asked(g))
    assert pawns(g, 1) == {"ocelot": 1, "serpent": 1}
    assert hand(g, "quetzal") == ["sacred-games"]


def test_sacred_games_must_be_held():
    """(Only a player holding Sacred Games can play it; every defeated player holding any card is
    asked, see the secrecy tests.)"""
    g = sacred_game(serpent=["offering"])
    assert asked(g) == [("serpent", "reaction", (1,))]
    with pytest.raises(IllegalOrderError, match="^you hold no Sacred Games card$"):
        do(g, "serpent", "sacred 1")
    with pytest.raises(IllegalOrderError, match=r"^the battle to answer is in 1 \(T1x\)$"):
        do(g, "serpent", "accept 2")
    do(g, "serpent", "accept 1")
    assert pawns(g, 1) == {"ocelot": 1}


def test_sacred_games_against_a_battle_after_a_great_tlatoani():
    """(pbem decision: a battle declared after a Great Tlatoani broke a tie has one winner, so the
    defeated may answer it with Sacred Games.)"""
    g = contest(cards=dict(ocelot=8, serpent=8, quetzal=6), at=dict(ocelot=[1], serpent=[1]),
                hands=dict(ocelot=["tlatoani"], serpent=["sacred-games"]))
    do(g, "ocelot", "tlatoani 1 battle")
    assert asked(g) == [("serpent", "reaction", (1,))]
    do(g, "serpent", "sacred 1")
    assert pawns(g, 1) == {"ocelot": 1, "serpent": 1} and len(hand(g, "ocelot")) == 1


# ==== PROSPERITY CARDS: Rafts and Canoes ==============================================

# Lake 1 touches 1 and 3, lake 2 touches 3 and 5; 1-2-3-4-5-6-7 in a row.
LAKES = board("1 city, 2 desert, 3 city, 4 jungle, 5 fields, 6 mountains, 7 desert",
              "1-2 2-3 3-4 4-5 5-6 6-7", ("1 3", "3 5"))


def rafts_game(*cards):
    g = game(LAKES)
    give(g, "ocelot", *cards)
    choose(g, ocelot=9, serpent=8, quetzal=7)
    position(g, {1: {"ocelot": 1}, 2: {"serpent": 1}, 3: {"ocelot": 1}, 4: {"quetzal": 1},
                 5: {"ocelot": 1}})
    assert asked(g) == [("ocelot", "scoring", ())]
    return g


def test_rafts_join_two_territories_on_one_lake():
    """Rafts and Canoes: You can play this card during a scoring phase. You may consider two
    separate territories bordering the same lake as adjacent.
    (Cities 1 and 3 score 2 + 2 apart, 2 + 2x2 = 6 joined.)"""
    g = rafts_game("rafts")
    assert options_of(g, "ocelot")["rafts_pairs"] == [[1, 3], [3, 5]]
    do(g, "ocelot", "score rafts 1 and 3")
    assert domains(g, "ocelot") == [(1, 0, 0), (2, 2, 6)]
    assert hand(g, "ocelot") == []


def test_rafts_not_played_domains_stay_apart():
    """... (except when using a Rafts and Canoes card)."""
    g = rafts_game("rafts")
    do(g, "ocelot", "score")
    assert domains(g, "ocelot") == [(1, 0, 0), (1, 1, 2), (1, 1, 2)]
    assert hand(g, "ocelot") == ["rafts"]


def test_two_rafts_join_three_territories():
    """(pbem decision: several Rafts and Canoes cards may be played in one scoring turn, one pair
    each.)"""
    g = rafts_game("rafts", "rafts")
    do(g, "ocelot", "score rafts 1 and 3 rafts 3 and 5")
    assert domains(g, "ocelot") == [(3, 2, 7)]


def test_rafts_only_on_the_same_lake():
    """You may consider two separate territories bordering the same lake as adjacent.
    (1 and 5 border different lakes; 2 is not Ocelot's.)"""
    g = rafts_game("rafts")
    with pytest.raises(IllegalOrderError, match=r"^Rafts and Canoes: 1 \(T1x\) and 5 \(T5x\) must be two "
                                                 r"of your territories on the same lake's shore, not already "
                                                 r"adjacent$"):
        do(g, "ocelot", "score rafts 1 and 5")
    with pytest.raises(IllegalOrderError, match="^Rafts and Canoes: "):
        do(g, "ocelot", "score rafts 1 and 2")
    with pytest.raises(IllegalOrderError, match=r"^you hold 1 rafts card\(s\), not 2$"):
        do(g, "ocelot", "score rafts 1 and 3 rafts 3 and 5")


# ==== PROSPERITY CARDS: Great Tlatoani ================================================

def tlatoani_game(ocelot=(), serpent=(), options=None, top=()):
    """Ocelot 8 and Serpent 8 tie in territory 1, Quetzal 6 is weaker there."""
    return contest(cards=dict(ocelot=8, serpent=8, quetzal=6), at=dict(ocelot=[1], serpent=[1], quetzal=[1]),
                   hands=dict(ocelot=list(ocelot), serpent=list(serpent)), options=options, top=top)


def test_tlatoani_breaks_a_tie_then_battle():
    """Great Tlatoani: You can play this card during a conflict phase, if you are tied for the
    most power to break the tie and win control. As the conflict winner, you can now decide to
    eliminate your opponent(s) in battle or coexist."""
    g = tlatoani_game(ocelot=["tlatoani"])
    assert asked(g) == [("ocelot", "conflict", (1,))]
    assert options_of(g, "ocelot") == {"won": [], "tied": [1], "tlatoani": 1}
    do(g, "ocelot", "tlatoani 1 battle")
    assert pawns(g, 1) == {"ocelot": 1}
    assert hand(g, "ocelot") == [] and g.view(None)["discard"] == ["tlatoani"]


def test_tlatoani_breaks_a_tie_then_coexist_draws_a_card():
    """As the conflict winner, you can now decide to eliminate your opponent(s) in battle or
    coexist.  (Coexisting draws one prosperity card.)"""
    g = tlatoani_game(ocelot=["tlatoani"], top=("offering",))
    do(g, "ocelot", "tlatoani 1 coexist")
    assert pawns(g, 1) == {"ocelot": 1, "serpent": 1, "quetzal": 1}
    assert hand(g, "ocelot") == ["offering"]


def test_tlatoani_each_tied_leader_may_break_the_tie():
    """You can play this card during a conflict phase, if you are tied for the most power.
    (pbem option tie_window=each-leader, the default: Ocelot lets the tie stand in its conflict
    turn, then Serpent may still play its Great Tlatoani in its own.)"""
    g = tlatoani_game(ocelot=["offering"], serpent=["tlatoani"])
    assert asked(g) == [("ocelot", "conflict", (1,))]
    do(g, "ocelot", "tie 1")
    assert asked(g) == [("serpent", "conflict", (1,))]
    do(g, "serpent", "tlatoani 1 battle")
    assert asked(g) == [("ocelot", "reaction", (1,))]  # Ocelot holds a card: it may answer
    do(g, "ocelot", "accept 1")
    assert pawns(g, 1) == {"serpent": 1}


def test_tlatoani_first_leader_only_with_option():
    """(pbem option tie_window=first-leader: only the first tied leader in conflict order may
    break the tie; when it lets the tie stand, the tie is settled at once.)"""
    g = tlatoani_game(ocelot=["offering"], serpent=["tlatoani"], options={"tie_window": "first-leader"})
    do(g, "ocelot", "tie 1")
    assert g.phase == "scoring"  # Serpent was never asked about territory 1
    assert pawns(g, 1) == {"ocelot": 1, "serpent": 1}
    assert hand(g, "serpent") == ["tlatoani"]


def test_tie_stands_when_every_leader_lets_it():
    """If there is a tie for the highest power points among the players, they automatically
    coexist, but nobody is rewarded with prosperity cards.  If a weaker player is present ... his
    tribe pawns are automatically removed.  (Both leaders hold cards and let the tie stand.)"""
    g = tlatoani_game(ocelot=["offering"], serpent=["offering"])
    do(g, "ocelot", "tie 1")
    assert pawns(g, 1) == {"ocelot": 1, "serpent": 1, "quetzal": 1}  # not settled yet
    do(g, "serpent", "tie 1")
    assert pawns(g, 1) == {"ocelot": 1, "serpent": 1}
    assert hand(g, "ocelot") == hand(g, "serpent") == ["offering"]


def test_tlatoani_must_be_held_and_only_on_a_tie():
    """... if you are tied for the most power to break the tie and win control."""
    g = tlatoani_game(ocelot=["offering"])
    with pytest.raises(IllegalOrderError, match="^you hold no Great Tlatoani card$"):
        do(g, "ocelot", "tlatoani 1 battle")
    with pytest.raises(IllegalOrderError, match=r"^1 \(T1x\) is a tie: say 'tlatoani 1 battle\|coexist' or 'tie 1'$"):
        do(g, "ocelot", "battle 1")
    w = contest(cards=dict(ocelot=9, serpent=8, quetzal=6), at=dict(ocelot=[1], serpent=[1]),
                hands=dict(ocelot=["tlatoani"]))
    with pytest.raises(IllegalOrderError, match=r"^you won 1 \(T1x\) outright: say 'battle 1' or 'coexist 1'$"):
        do(w, "ocelot", "tlatoani 1 battle")


def test_card_drawn_in_the_conflict_phase_usable_in_the_same_phase():
    """Note that it is possible to use a card in the same phase it is drawn.
    (Ocelot coexists in 1, draws a Great Tlatoani and plays it on its tie in 2.)"""
    g = contest(cards=dict(ocelot=9, serpent=5, quetzal=9), at=dict(ocelot=[1, 2], serpent=[1], quetzal=[2]),
                top=("tlatoani",))
    assert options_of(g, "ocelot") == {"won": [1], "tied": [2], "tlatoani": 0}
    do(g, "ocelot", "coexist 1")
    assert options_of(g, "ocelot") == {"won": [], "tied": [2], "tlatoani": 1}
    do(g, "ocelot", "tlatoani 2 battle")
    assert pawns(g, 2) == {"ocelot": 1}


def test_sacred_games_drawn_in_the_conflict_phase_usable_in_the_same_phase():
    """Note that it is possible to use a card in the same phase it is drawn.
    (Ocelot coexists in 1 and draws Sacred Games; later Serpent declares battle on Ocelot in 3.)"""
    g = contest(cards=dict(ocelot=9, serpent=8, quetzal=5), at=dict(ocelot=[1, 3], serpent=[3, 3], quetzal=[1]),
                top=("sacred-games",))
    do(g, "ocelot", "coexist 1")
    do(g, "serpent", "battle 3")
    assert asked(g) == [("ocelot", "reaction", (3,))]
    do(g, "ocelot", "sacred 3")
    assert pawns(g, 3) == {"ocelot": 1, "serpent": 2}


# ==== PROSPERITY CARDS: Eagle and Jaguar Warriors =====================================

def test_eagle_places_one_more_pawn_from_the_reserve():
    """Eagle and Jaguar Warriors: You can play this card during a development phase. You can place
    one additional tribe pawn in any territory at the same time you place one tribe pawn from your
    reserve."""
    g = game(ROW)
    give(g, "ocelot", "eagle-jaguar")
    choose(g, ocelot=9, serpent=8, quetzal=7)
    assert options_of(g, "ocelot")["eagle"] is True
    do(g, "ocelot", "place 1 eagle 8")  # 8: any territory, far from 1
    assert pawns(g, 1) == {"ocelot": 1} and pawns(g, 8) == {"ocelot": 1}
    assert people_view(g, "ocelot") == {"people": "ocelot", "reserve": 21, "to_place": 7, "removed": 0}
    assert hand(g, "ocelot") == [] and g.view(None)["discard"] == ["eagle-jaguar"]
    assert conservation(g) == [30, 30, 30]


def test_eagle_pawn_may_be_moved_in_the_same_turn():
    """(pbem: the turn's move may take the Eagle and Jaguar pawn, which is on the board.)"""
    g = game(ROW)
    give(g, "ocelot", "eagle-jaguar")
    choose(g, ocelot=9, serpent=8, quetzal=7)
    do(g, "ocelot", "place 1 eagle 3 move 3 to 4")
    assert pawns(g, 3) == {} and pawns(g, 4) == {"ocelot": 1}


def test_eagle_must_be_held():
    """(Only a player holding Eagle and Jaguar Warriors can play it.)"""
    g = game(ROW)
    choose(g, ocelot=9, serpent=8, quetzal=7)
    with pytest.raises(IllegalOrderError, match="^you hold no Eagle and Jaguar Warriors card$"):
        do(g, "ocelot", "place 1 eagle 2")


def five_ages_with_eagle(*, removed: bool, eagle_age: int):
    """Ocelot may lose a pawn in age 1 (Serpent 9 beats its 5 in territory 1), and receives an Eagle
    and Jaguar Warriors in age `eagle_age`; the other ages are quiet."""
    g = game(ROW)
    if eagle_age == 1:
        give(g, "ocelot", "eagle-jaguar")
    choose(g, ocelot=5, serpent=9, quetzal=6)
    first = ["place 5 eagle 5"] if eagle_age == 1 else []
    develop(g, ocelot=first + ([1] if removed else []) + [5] * (8 - len(first) - removed),
            serpent=([1] if removed else []) + [6] * (8 - removed), quetzal=[7] * 8)
    if removed:
        do(g, "serpent", "battle 1")
    if g.phase == "scoring":
        finish_scoring(g)
    for ocelot, serpent, quetzal in ((9, 8, 9), (8, 7, 8), (7, 6, 7)):
        quiet_age(g, HOMES, ocelot=ocelot, serpent=serpent, quetzal=quetzal)
    assert g.age == 5
    if eagle_age == 5:
        give(g, "ocelot", "eagle-jaguar")
    return g


def test_eagle_pawn_from_pawns_removed_in_a_previous_age():
    """If you don't have enough pawns in your reserve, take one from the pieces removed from the
    game in a previous age.  (Age 5 of a 3-player game: the reserve is empty.)"""
    g = five_ages_with_eagle(removed=True, eagle_age=5)
    choose(g, ocelot=6, serpent=5, quetzal=5)
    assert people_view(g, "ocelot") == {"people": "ocelot", "reserve": 0, "to_place": 4, "removed": 1}
    until_turn(g, "ocelot")
    do(g, "ocelot", "place 5 eagle 5")
    assert people_view(g, "ocelot") == {"people": "ocelot", "reserve": 0, "to_place": 3, "removed": 0}
    assert pawns(g, 5)["ocelot"] == 8 - 1 + 7 + 6 + 5 + 1 + 1
    assert conservation(g) == [30, 30, 30]


def test_eagle_without_reserve_nor_removed_pawns_cannot_be_played():
    """If you don't have enough pawns in your reserve, take one from the pieces removed from the
    game in a previous age.  (With neither, there is no extra pawn to place.)"""
    g = five_ages_with_eagle(removed=False, eagle_age=5)
    choose(g, ocelot=6, serpent=5, quetzal=5)
    until_turn(g, "ocelot")
    assert options_of(g, "ocelot")["eagle"] is False
    with pytest.raises(IllegalOrderError, match="^Eagle and Jaguar Warriors: no pawn left in your reserve "
                                                "nor among pawns removed in earlier ages$"):
        do(g, "ocelot", "place 5 eagle 5")


@pytest.mark.parametrize("removed, pawns_in_age_5", [(False, 3), (True, 4)])
def test_eagle_pawn_leaves_the_reserve_short_later(removed, pawns_in_age_5):
    """(pbem decision, the rulebook is silent: a 3-player reserve holds exactly the 30 pawns of
    the five ages; after an early Eagle and Jaguar pawn, an age's shortfall is made up from pawns
    removed in earlier ages, else the tribe places fewer pawns and its turns are skipped.)"""
    g = five_ages_with_eagle(removed=removed, eagle_age=1)
    choose(g, ocelot=6, serpent=5, quetzal=5)
    assert g.to_place == [pawns_in_age_5, 4, 4]
    before = len(g.order_log())
    while g.phase == "development":
        (s,) = g.waiting()
        g.apply(g.seats[s], Turn(HOMES[g.seats[s]]))
    turns = Counter(line_.split(":")[0] for line_ in g.order_log()[before:])
    assert turns == {"ocelot": pawns_in_age_5, "serpent": 4, "quetzal": 4}
    assert conservation(g) == [30, 30, 30]


def test_eagle_placed_this_age_option():
    """(Italian rulebook, option eagle_placement=placed-this-age: the extra pawn goes in a
    territory where you placed at least one pawn from your reserve this age - including the pawn
    of the same turn.)"""
    g = game(ROW, options={"eagle_placement": "placed-this-age"})
    give(g, "ocelot", "eagle-jaguar", "eagle-jaguar")
    choose(g, ocelot=9, serpent=8, quetzal=7)
    develop(g, ocelot=[2], serpent=[6], quetzal=[7])
    with pytest.raises(IllegalOrderError, match=r"^Eagle and Jaguar Warriors: 8 \(T8x\) is not a territory "
                                                r"where you placed a pawn this age \(option eagle_placement\)$"):
        do(g, "ocelot", "place 1 eagle 8")
    do(g, "ocelot", "place 1 eagle 1")  # the territory of this turn's pawn
    develop(g, serpent=[6], quetzal=[7])
    do(g, "ocelot", "place 3 eagle 2")  # a territory placed in earlier this age
    assert pawns(g, 1) == {"ocelot": 2} and pawns(g, 2) == {"ocelot": 2}


# ==== AZTEC GODS: the 2-player variant ================================================

def test_two_players_control_two_factions():
    """Combine the pawns of the Coyote and Quetzal people (green and blue) to form one faction,
    and the pawns of the Ocelot and Snake people (yellow and red) in another faction. ... he takes
    control of one of the two factions ... Each player then takes 10 pawns of his current
    faction."""
    g = game(ROW, TWO)
    assert g.peoples == FACTIONS
    assert [seat["people"] for seat in g.view(None)["seats"]] == ["coyote-quetzal", "ocelot-serpent"]
    assert g.to_place == [10, 10] and conservation(g) == [60, 60]
    other = GAME.new_game({"players": [{"seat": "ocelot", "faction": "ocelot-serpent"},
                                       {"seat": "serpent", "faction": "coyote-quetzal"}],
                           "seed": 1, "board": ROW})
    assert [seat["people"] for seat in other.view(None)["seats"]] == ["ocelot-serpent", "coyote-quetzal"]


def test_two_players_pawns_of_a_faction_are_one_people():
    """Pawns of a different color that belong to the same faction are considered to be the same
    people for all rule purposes; for example, if they are in the same territory, they are added
    together when resolving conflicts.  The power card chosen by a player applies to the pawns of
    the faction he currently controls.
    (Age 2: Serpent now controls Coyote+Quetzal; the pawn Ocelot placed for that faction in age 1
    and Serpent's new one make 2 x 5 = 10 against 9.)"""
    g = game(ROW, TWO)
    choose(g, ocelot=8, serpent=8)
    develop(g, ocelot=[1] + [5] * 9, serpent=[6] * 10)
    choose(g, ocelot=9, serpent=5)
    develop(g, serpent=[1] + [5] * 8, ocelot=[1] + [6] * 8)
    (conflict,) = g.view(None)["conflicts"]
    assert conflict["powers"] == {"coyote-quetzal": 10, "ocelot-serpent": 9}
    assert conflict["winner"] == "serpent"
    do(g, "serpent", "battle 1")
    assert pawns(g, 1) == {"coyote-quetzal": 2}


def test_two_players_swap_control_after_every_age():
    """At the end of the first age, after scoring, players will swap the control of factions ...
    Play continues with the players swapping the control of factions at the end of every age,
    until the end of the fifth age (so each player will be in control of the faction he begins
    play with for three ages, and of the other faction for two ages)."""
    g = game(ROW, TWO)
    seen = []
    for age in range(1, 6):
        seen.append(g.view(None)["seats"][0]["people"])
        quiet_ages(g, 1, first=age)
    assert seen == ["coyote-quetzal", "ocelot-serpent"] * 2 + ["coyote-quetzal"]
    assert g.is_over()


def test_two_players_cards_and_scores_belong_to_the_player():
    """Only the control of the pawns is exchanged: prosperity cards and power cards belong to the
    player, not to the faction. ... The victory point score belongs to each player, not to a
    faction, and each player will accumulate his own victory point score.
    (Coyote+Quetzal's home 5 is a mountain: card 7 scores it, for whoever controls the faction.)"""
    g = game(ROW, TWO)
    give(g, "ocelot", "offering")
    quiet_age(g, HOMES, ocelot=7, serpent=8)
    assert g.score == [2, 0]  # ocelot scored with Coyote+Quetzal
    quiet_age(g, HOMES, ocelot=8, serpent=7)
    assert g.score == [2, 2]  # serpent scored with Coyote+Quetzal
    assert hand(g, "ocelot") == ["offering"] and hand(g, "serpent") == []
    assert g.view("ocelot")["me"]["power_left"] == [4, 5, 6, 9]
    assert g.view("serpent")["me"]["power_left"] == [4, 5, 6, 9]
    assert conservation(g) == [60, 60]


# ==== Where every text is silent: deck exhaustion, Offerings beyond five ===============

def empty_deck_game(options=None, discard=True):
    g = contest(cards=dict(ocelot=9, serpent=5, quetzal=6), at=dict(ocelot=[1], serpent=[1]), options=options)
    if discard:
        g.discard, g.deck = list(g.deck), []
    else:
        g.hands[2], g.deck = list(g.deck), []
    return g


def test_deck_exhausted_reshuffles_the_discards():
    """(pbem option deck_exhausted=reshuffle, the default; the rulebook is silent: an empty deck
    is refilled from the played prosperity cards, shuffled.)"""
    g = empty_deck_game()
    do(g, "ocelot", "coexist 1")
    assert len(hand(g, "ocelot")) == 1 and len(g.deck) == 29 and g.discard == []
    assert events(g, "reshuffle")[0]["cards"] == 30


def test_deck_exhausted_no_card_option():
    """(pbem option deck_exhausted=no-card: an empty deck gives nothing.)"""
    g = empty_deck_game({"deck_exhausted": "no-card"})
    do(g, "ocelot", "coexist 1")
    assert hand(g, "ocelot") == [] and len(g.discard) == 30
    assert events(g, "deck-empty")[0]["seat"] == "ocelot"


def test_deck_and_discards_empty_nothing_is_drawn():
    """(pbem decision: with no card left anywhere, a coexistence draws nothing.)"""
    g = empty_deck_game(discard=False)
    do(g, "ocelot", "coexist 1")
    assert hand(g, "ocelot") == [] and events(g, "deck-empty")


@pytest.mark.parametrize("rule, offerings, bonus", [
    ("square", 6, 36), ("square", 7, 49), ("square", 9, 81), ("cap", 6, 25), ("cap", 9, 25), ("cap", 5, 25)])
def test_offerings_beyond_five(rule, offerings, bonus):
    """(The table stops at 5 Offerings -> 25. pbem option offerings_beyond_five: square (n x n,
    the default) or cap (25).  Each card still scores 1 as a prosperity card in hand.)"""
    g = game(ROW, options={"offerings_beyond_five": rule})
    give(g, "ocelot", *["offering"] * offerings)
    quiet_ages(g, 5)
    extra = g.result()["bonuses"]["ocelot"]
    assert extra["offerings"] == bonus and extra["prosperity"] == offerings
    assert extra["points"] == g.setup.edition.card(4).points + offerings + bonus


# ==== Secrecy of decisions ============================================================

def trace(g, script, holder):
    """Apply `script` ([(seat, text)]) and record, after each order, the decisions owed (without
    their private options) and the views of every seat but `holder`, and of a spectator."""
    def now():
        return asked(g), [frozen(g.view(seat)) for seat in (*g.seats, None) if seat != holder]
    out = [now()]
    for seat, text in script:
        do(g, seat, text)
        out.append(now())
    return out


@pytest.mark.parametrize("other", ["offering", "tlatoani", "rafts"])
def test_sacred_games_holder_is_asked_like_any_card_holder(other):
    """Sacred Games: You can play this card during a conflict phase, after a winning opponent
    declares that he wants to eliminate your tribe pawns by doing battle.
    (pbem: every defeated seat holding any card is asked, so a holder of Sacred Games who accepts
    is asked exactly what a holder of another card is asked, at the same moments.)"""
    script = [("serpent", "accept 1"), ("serpent", "score")]
    with_sacred = trace(sacred_game(serpent=["sacred-games"]), script, "serpent")
    without = trace(sacred_game(serpent=[other]), script, "serpent")
    assert with_sacred == without
    assert with_sacred[0][0] == [("serpent", "reaction", (1,))]
    assert with_sacred[1][0] == [("serpent", "scoring", ())]


def test_tlatoani_holder_is_asked_like_any_card_holder():
    """Great Tlatoani: You can play this card during a conflict phase, if you are tied for the most
    power.  (pbem: a tied leader holding any card is asked whether it breaks the tie.)"""
    script = [("ocelot", "tie 1"), ("ocelot", "score")]
    with_tlatoani = trace(tlatoani_game(ocelot=["tlatoani"]), script, "ocelot")
    assert with_tlatoani == trace(tlatoani_game(ocelot=["offering"]), script, "ocelot")
    assert with_tlatoani[0][0] == [("ocelot", "conflict", (1,))]


def test_seat_without_cards_is_not_asked_to_react():
    """(A defeated player holding no card cannot play Sacred Games, and hand sizes are public:
    the battle goes on without asking him.)"""
    g = sacred_game()
    assert pawns(g, 1) == {"ocelot": 1}
    assert all(kind != "reaction" for _, kind, _ in asked(g))


# ==== Submissions =====================================================================

def two_conflicts(serpent=()):
    """Ocelot (9) wins territory 1 against Serpent (5) and territory 2 against Quetzal (6)."""
    return contest(cards=dict(ocelot=9, serpent=5, quetzal=6),
                   at=dict(ocelot=[1, 2], serpent=[1], quetzal=[2]), hands=dict(serpent=list(serpent)))


def test_whole_conflict_turn_as_one_submission():
    """Note: The current player can resolve his conflicts in the order he prefers.
    (pbem: a seat's whole conflict turn may be sent as one submission of several lines.)"""
    g = two_conflicts()
    assert g.submit("ocelot", g.parse("coexist 2\nbattle 1")) == []
    assert pawns(g, 1) == {"ocelot": 1} and pawns(g, 2) == {"ocelot": 1, "quetzal": 1}
    assert g.order_log()[-2:] == ["ocelot: coexist 2", "ocelot: battle 1"]


def test_submission_waits_for_the_answer_to_a_battle():
    """(pbem: a submission stops at a declared battle while the defeated answer; the rest is
    returned, to be carried out when the seat is asked again.)"""
    g = two_conflicts(serpent=["sacred-games"])
    left = g.submit("ocelot", g.parse("battle 1\nbattle 2"))
    assert left == [Resolve(2, "battle")]
    assert asked(g) == [("serpent", "reaction", (1,))]
    assert g.submit("serpent", g.parse("sacred 1")) == []
    assert g.submit("ocelot", left) == []
    assert pawns(g, 1) == {"ocelot": 1, "serpent": 1} and pawns(g, 2) == {"ocelot": 1}


def test_whole_conflict_turn_with_a_tie_as_one_submission():
    """Note: The current player can resolve his conflicts in the order he prefers.
    (pbem: the conflict turn lists the territories won and tied; answering all of them in one
    submission is accepted.  Ocelot holds no card, so its tie in 2 stands anyway.)"""
    g = contest(cards=dict(ocelot=9, serpent=5, quetzal=9), at=dict(ocelot=[1, 2], serpent=[1], quetzal=[2]))
    assert asked(g) == [("ocelot", "conflict", (1, 2))]
    g.submit("ocelot", g.parse("battle 1\ntie 2"))
    assert pawns(g, 1) == {"ocelot": 1} and pawns(g, 2) == {"ocelot": 1, "quetzal": 1}


@pytest.mark.parametrize("text, message", [
    ("battle 1\ncoexist 1", r"^the conflict in 1 \(T1x\) is already settled$"),
    ("coexist 1\nbattle 3", r"^there is no conflict in 3 \(T3x\)$"),
    ("battle 2\ntlatoani 1 battle", r"^you won 1 \(T1x\) outright: say 'battle 1' or 'coexist 1'$"),
    ("battle 2\ntie 1", r"^you won 1 \(T1x\) outright"),
])
def test_submission_with_a_bad_line_changes_nothing(text, message):
    """(pbem: a submission of several lines is checked as a whole before anything is carried
    out: if one line is wrong, nothing changes.)"""
    g = two_conflicts()
    log, views = g.order_log(), [frozen(g.view(seat)) for seat in (*THREE, None)]
    deck_before = list(g.deck)
    with pytest.raises(IllegalOrderError, match=message):
        g.submit("ocelot", g.parse(text))
    assert g.order_log() == log
    assert [frozen(g.view(seat)) for seat in (*THREE, None)] == views
    assert g.deck == deck_before


def test_submission_that_does_not_parse_changes_nothing():
    """(pbem: a parse error names the line and what was expected; nothing is applied.)"""
    g = two_conflicts()
    log = g.order_log()
    with pytest.raises(ParseError, match=r"^line 2: 'batle 2': expected an order \(card, place, battle, "
                                         r"coexist, tlatoani, tie, sacred, accept, score\), found 'batle'$"):
        g.submit("ocelot", g.parse("battle 1\nbatle 2"))
    assert g.order_log() == log


# ==== Precise errors for illegal orders ===============================================

def test_error_wrong_phase():
    """(An order of another kind than the decision owed says what the game asks for.)"""
    g = game(ROW)
    with pytest.raises(IllegalOrderError, match="^the game asks you for your power card for this age: 'card N'$"):
        g.apply("ocelot", Turn(1))
    choose(g, ocelot=9, serpent=8, quetzal=7)
    with pytest.raises(IllegalOrderError, match="^the game asks you for your development turn: 'place <territory>"):
        g.apply("ocelot", ChooseCard(8))
    for order in (Resolve(1, "battle"), LetTieStand(1), React(1, True), Score()):
        with pytest.raises(IllegalOrderError, match="^the game asks you for your development turn"):
            g.apply("ocelot", order)


def test_error_not_your_turn():
    """In turn order, each player places, one at a time, one of his tribe pawns."""
    g = game(ROW)
    choose(g, ocelot=9, serpent=8)
    with pytest.raises(NotYourDecisionError, match="^you have already chosen your power card this age; the "
                                                   "game waits for quetzal$"):
        g.apply("ocelot", ChooseCard(8))
    choose(g, quetzal=7)
    with pytest.raises(NotYourDecisionError, match="^it is not your development turn; the game waits for ocelot$"):
        g.apply("serpent", Turn(1))
    with pytest.raises(NotYourDecisionError, match="^no seat 'coyote' in this game$"):
        g.apply("coyote", Turn(1))
    with pytest.raises(NotYourDecisionError):
        g.apply("quetzal", React(1, True))


def test_error_unknown_territory():
    """(A territory that is not on the board.)"""
    g = game(ROW)
    choose(g, ocelot=9, serpent=8, quetzal=7)
    with pytest.raises(ParseError, match="^line 1: 'place 99': no territory number 99$"):
        g.parse("place 99")
    with pytest.raises(IllegalOrderError, match="^there is no territory 99$"):
        g.apply("ocelot", Turn(1, move=(1, 99)))


def test_error_power_card_not_held():
    """After the scoring phase, a new age begins, with each player ... choosing a new power card
    from his hand."""
    g = game(ROW)
    with pytest.raises(IllegalOrderError, match="^you have no power card 10; in your hand: 4, 5, 6, 7, 8, 9$"):
        g.apply("ocelot", ChooseCard(10))
    quiet_ages(g, 1)
    with pytest.raises(IllegalOrderError, match="^you have no power card 9; in your hand: 4, 5, 6, 7, 8$"):
        g.apply("ocelot", ChooseCard(9))


def test_error_after_the_game_is_over():
    """The game ends at the end of the 5th age."""
    g = game(ROW)
    quiet_ages(g, 5)
    assert g.is_over() and g.waiting() == []
    with pytest.raises(NotYourDecisionError, match="^the game is over$"):
        g.apply("ocelot", ChooseCard(4))


def test_deck_helper_keeps_the_edition():
    """(Sanity check of the helpers: the explicit decks are the edition's 30 cards.)"""
    assert sorted(DECK) == sorted(game(ROW).setup.deck)
