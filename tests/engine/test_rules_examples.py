"""Every worked example of the Aztlán rulebook (English edition), on small purpose-built boards.

Each test quotes the example it reproduces; the boards are lines of territories
(1, 2, 3, ... each bordering the next) so the domains are easy to read.
"""
from __future__ import annotations

import pytest

from test_rules_support import (FOUR, THREE, asked, choose, develop, do, domains, events, finish_scoring,
                                game, hand, line, options_of, pawns, position, scored)

# ---- DETERMINING THE POWER ------------------------------------------------------------


def test_power_example_ocelot_10_beats_serpent_9():
    """Example: The yellow Ocelot player has 2 tribe pawns in the territory and his chosen
    power card for the current age is "5". The red Serpent player's chosen power card for the
    current age is "9," but he has only one pawn.
    The Ocelot player has a total power of 10 (5x2), while the Serpent player only has a total
    power of 9 (9x1), so the Ocelot player is the winner of this conflict."""
    g = game(line("city", "desert", "jungle", "fields"))
    choose(g, ocelot=5, serpent=9, quetzal=6)
    develop(g, ocelot=[1, 1, 2, 2, 2, 2, 2, 2], serpent=[1, 3, 3, 3, 3, 3, 3, 3], quetzal=[4] * 8)

    (conflict,) = g.view(None)["conflicts"]
    assert conflict["territory"] == 1
    assert conflict["powers"] == {"ocelot": 10, "serpent": 9}
    assert conflict["winner"] == "ocelot"
    assert asked(g) == [("ocelot", "conflict", (1,))]
    assert options_of(g, "ocelot")["won"] == [1]


# ---- DEVELOPMENT PHASE ----------------------------------------------------------------

def test_development_example_place_then_move():
    """Example: The green Coyote player places a tribe pawn (A) on a city territory and then he
    moves another tribe pawn (B) from a desert territory to an adjacent terraced fields
    territory."""
    g = game(line("city", "jungle", "desert", "fields", "mountains", "city"), ("coyote", "quetzal", "ocelot"))
    choose(g, coyote=9, quetzal=8, ocelot=7)
    develop(g, coyote=[3], quetzal=[5], ocelot=[6])  # B arrives on the desert in an earlier turn
    do(g, "coyote", "place 1 move 3 to 4")
    assert pawns(g, 1) == {"coyote": 1}  # A, on the city
    assert pawns(g, 3) == {} and pawns(g, 4) == {"coyote": 1}  # B, desert -> terraced fields
    assert g.to_place[0] == 6
    assert asked(g) == [("quetzal", "turn", ())]


# ---- BATTLE OR COEXISTENCE - EXAMPLES -------------------------------------------------

def tie_game(with_ocelot: bool):
    """Coyote and Quetzal with power 8 in territory 1; Ocelot with power 5 there or at home."""
    g = game(line("city", "desert", "jungle", "fields"), ("coyote", "quetzal", "ocelot"))
    choose(g, coyote=8, quetzal=8, ocelot=5)
    develop(g, coyote=[1] + [2] * 7, quetzal=[1] + [3] * 7,
            ocelot=([1] if with_ocelot else [4]) + [4] * 7)
    return g


def test_tie_example_coyote_and_quetzal_coexist_without_a_card():
    """Example: The green Coyote player and the blue Quetzal player both have a power of 8.
    They coexist but neither of them gets a prosperity card.
    ("If there is a tie for the highest power points among the players, they automatically
    coexist, but nobody is rewarded with prosperity cards.")"""
    g = tie_game(with_ocelot=False)
    # Nobody holds a card, so nobody had anything to decide: the age is over already.
    assert g.age == 2 and g.phase == "choosing"
    assert pawns(g, 1) == {"coyote": 1, "quetzal": 1}
    assert hand(g, "coyote") == hand(g, "quetzal") == []
    assert len(g.deck) == 30
    (tie,) = events(g, "tie")
    assert tie["territory"] == 1 and sorted(tie["seats"]) == ["coyote", "quetzal"]
    assert tie["removed"] == {}


def test_tie_example_weaker_ocelot_beside_tied_leaders_is_removed():
    """Example: The green Coyote player and the blue Quetzal player both have a power of 8. The
    yellow Ocelot player is weaker, with a power of 5. The Coyote player and Quetzal player
    coexist, the Ocelot tribe pawn is removed.
    ("If a weaker player is present in a territory, with two or more opponents who tie among
    themselves for the highest power, his tribe pawns are automatically removed, while the tied
    players peacefully coexist (without drawing a prosperity card).")"""
    g = tie_game(with_ocelot=True)
    assert g.age == 2
    assert pawns(g, 1) == {"coyote": 1, "quetzal": 1}
    assert g.view(None)["peoples"][2] == {"people": "ocelot", "reserve": 30 - 8 - 7, "to_place": 7,
                                          "removed": 1}
    assert hand(g, "coyote") == hand(g, "quetzal") == hand(g, "ocelot") == []
    assert len(g.deck) == 30


def multi_opponent_game():
    """Ocelot 10 (5 x 2), Quetzal 8 (8 x 1) and Coyote 4 (4 x 1) in territory 1."""
    g = game(line("city", "desert", "jungle", "fields"), ("ocelot", "quetzal", "coyote"))
    choose(g, ocelot=5, quetzal=8, coyote=4)
    develop(g, ocelot=[1, 1] + [2] * 6, quetzal=[1] + [3] * 7, coyote=[1] + [4] * 7)
    assert g.view(None)["conflicts"][0]["powers"] == {"ocelot": 10, "quetzal": 8, "coyote": 4}
    assert asked(g) == [("ocelot", "conflict", (1,))]
    return g


def test_multi_opponent_example_battle_removes_all_opponents():
    """Example: The yellow Ocelot player, who wins the conflict (10 power points against 8 and 4
    power points) in this territory, has to decide if he wants to remove all the opposing tribe
    pawns (blue Quetzal pawns and green Coyote pawns) or coexists with them all.
    ("It's not possible to coexist with one player in a territory and remove the tribe pawns of
    another player also in that territory.")"""
    g = multi_opponent_game()
    do(g, "ocelot", "battle 1")
    assert pawns(g, 1) == {"ocelot": 2}
    assert [p["removed"] for p in g.view(None)["peoples"]] == [0, 1, 1]
    assert hand(g, "ocelot") == []


def test_multi_opponent_example_coexistence_draws_exactly_one_card():
    """Example: ... If he chooses the second option, he picks up only one prosperity card.
    ("If the winner of the conflict decides to coexist with his opponents, he draws only one
    prosperity card, even if there are two or three opponents.")"""
    g = multi_opponent_game()
    do(g, "ocelot", "coexist 1")
    assert pawns(g, 1) == {"ocelot": 2, "quetzal": 1, "coyote": 1}
    assert len(hand(g, "ocelot")) == 1
    assert hand(g, "quetzal") == hand(g, "coyote") == []
    assert len(g.deck) == 29


def conflict_order_game():
    """Five conflicts A..E = territories 1..5; homes 6..9.  Powers (cards S9 O8 Q6 C6):
    A: Serpent 9 > Coyote 6; B: Ocelot 8 > Quetzal 6; C: Ocelot 16 > Serpent 9;
    D: Quetzal 12 > Coyote 6; E: Quetzal 6 = Coyote 6."""
    # The stack order is the reverse of the score order, so only the scores decide.
    g = game(line("city", "desert", "jungle", "fields", "mountains", "city", "desert", "jungle", "fields"),
             ("coyote", "quetzal", "ocelot", "serpent"))
    g.score[:] = [3, 5, 9, 12]  # coyote, quetzal, ocelot, serpent: Serpent has the highest score
    choose(g, serpent=9, ocelot=8, quetzal=6, coyote=6)
    develop(g, serpent=[1, 3, 6, 6, 6, 6, 6], ocelot=[3, 3, 2, 7, 7, 7, 7],
            quetzal=[2, 4, 4, 5, 8, 8, 8], coyote=[1, 4, 5, 9, 9, 9, 9])
    return g


def test_conflict_order_example():
    """Example: There are five conflicts in this Age (A-B-C-D-E). The red Serpent player has the
    highest score and is involved in conflicts A and C, but only wins conflict A. He decides what
    to do in that territory. Then, the player with the second highest score, the yellow Ocelot,
    takes his turn. He wins in conflicts B and C. The blue Quetzal player wins Conflict D.
    Conflict E has no winner because it is a tie, so the green Coyote player doesn't decide any
    conflict."""
    g = conflict_order_game()
    conflicts = {c["territory"]: c for c in g.view(None)["conflicts"]}
    assert {t: c["winner"] for t, c in conflicts.items()} == {
        1: "serpent", 2: "ocelot", 3: "ocelot", 4: "quetzal", 5: None}
    assert conflicts[5]["tied"] == ["quetzal", "coyote"]

    trail = []
    while g.phase == "conflict":
        (decision,) = g.decisions()
        won = decision.options["won"]
        trail.append((decision.seat, won))
        do(g, decision.seat, f"battle {won[0]}")
    assert trail == [("serpent", [1]), ("ocelot", [2, 3]), ("ocelot", [3]), ("quetzal", [4])]
    # E: the tied leaders hold no card, so the tie stands on its own; nobody draws.
    assert pawns(g, 5) == {"quetzal": 1, "coyote": 1}
    assert events(g, "draw") == []


def test_conflict_order_example_a_player_settles_his_conflicts_in_the_order_he_prefers():
    """Note: The current player can resolve his conflicts in the order he prefers.
    (Ocelot settles C before B.)"""
    g = conflict_order_game()
    do(g, "serpent", "battle 1")
    assert asked(g)[0][0] == "ocelot"
    do(g, "ocelot", "coexist 3")
    assert options_of(g, "ocelot")["won"] == [2]
    do(g, "ocelot", "battle 2")
    assert asked(g)[0][0] == "quetzal"
    assert pawns(g, 3) == {"serpent": 1, "ocelot": 2}
    assert pawns(g, 2) == {"ocelot": 1}


# ---- SCORING EXAMPLES -----------------------------------------------------------------

def test_scoring_example_14_points():
    """Example: The yellow Ocelot player has power card number "9", which has "City" as the bonus
    territory. He controls 4 separate domains.
    "A" domain is composed by 4 territories, but only one matches the territory shown on the
    power card, so this domain scores 4+1x1=5.
    His second domain, "B", is composed of just 3 territories, but two of them match the territory
    shown on the power card, so the domain scores 3+2x2=7.
    "C" domain is composed by only 1 territory, which matches the territory shown on the power
    card, so this domain scores 1+1x1=2.
    "D" domain is composed by only 1 territory, but doesn't match the territory shown on the power
    card, so this domain scores 0.
    The total Ocelot player score is 5+7+2+0=14 victory points."""
    # A = 1-4, B = 6-8, C = 10, D = 12; 5, 9 and 11 keep them apart.
    g = game(line("city", "desert", "fields", "jungle", "mountains", "city", "city", "desert",
                  "jungle", "city", "fields", "desert"))
    choose(g, ocelot=9, serpent=8, quetzal=7)
    position(g, {1: {"ocelot": 1}, 2: {"ocelot": 1}, 3: {"ocelot": 1}, 4: {"ocelot": 1},
                 5: {"serpent": 1}, 6: {"ocelot": 1}, 7: {"ocelot": 1}, 8: {"ocelot": 1},
                 9: {"quetzal": 1}, 10: {"ocelot": 1}, 11: {"quetzal": 1}, 12: {"ocelot": 1}})
    assert g.age == 2  # no conflict, no card, no wild card: the age scored on its own
    assert domains(g, "ocelot") == [(1, 0, 0), (1, 1, 2), (3, 2, 7), (4, 1, 5)]
    assert scored(g, "ocelot")["type"] == "city"
    assert scored(g, "ocelot")["points"] == 14


def wild_card_game():
    """Ocelot plays the wild card "4" with domains of 6 (1-6), 3 (8-10) and 2 (12-13) territories;
    7 and 11 (cities, Serpent's and Quetzal's) keep them apart.
    Desert: 6+9 + 3+1 + 2+1 = 22; fields: 6+1 + 3+1 = 11; jungle 11; mountains 6+1 + 2+1 = 10."""
    g = game(line("desert", "desert", "desert", "fields", "jungle", "mountains", "city",
                  "desert", "fields", "jungle", "city", "desert", "mountains"))
    choose(g, ocelot=4, serpent=8, quetzal=7)
    layout = {t: {"ocelot": 1} for t in (1, 2, 3, 4, 5, 6, 8, 9, 10, 12, 13)}
    layout.update({7: {"serpent": 1}, 11: {"quetzal": 1}})
    position(g, layout)
    assert g.phase == "scoring"
    assert asked(g) == [("ocelot", "scoring", ())]
    assert options_of(g, "ocelot")["wild"] is True
    return g


def test_wild_card_example_22_points_with_desert():
    """Example: In this age, the yellow Ocelot player chose power card number "4."
    At the end of the conflict phase he has three domains of 2, 3 and 6 territories each. He
    decides that the type of territory to give him the greatest bonus is desert.
    He has at least one desert in all his three domains and his largest domain, made up of six
    territories (domain value of 6 points), has three deserts, so it will give him a 9-point
    bonus, for a total of 15 (6+9) points.
    The other two domains will give him a bonus of 1 point each, in addition to their value of 2
    and 3 points respectively, for a total value of 3 (2+1) and 4 (3+1) points. The total score
    for the age is 22 points (15+3+4)."""
    g = wild_card_game()
    do(g, "ocelot", "score wild desert")
    assert domains(g, "ocelot") == [(2, 1, 3), (3, 1, 4), (6, 3, 15)]
    assert scored(g, "ocelot")["points"] == 22
    assert g.score[0] == 22


def test_wild_card_example_engine_picks_the_best_type_when_none_is_named():
    """Note: ... during the scoring phase, the player may choose the most favorable territory for
    his score (normally, the type of territory which would give the highest bonus score).
    (pbem: a scoring turn that names no type gets the type that scores most: desert here.)"""
    g = wild_card_game()
    finish_scoring(g, ocelot="score")
    assert scored(g, "ocelot")["type"] == "desert"
    assert scored(g, "ocelot")["wild"] is True
    assert scored(g, "ocelot")["points"] == 22


@pytest.mark.parametrize("kind, points", [("fields", 11), ("jungle", 11), ("mountains", 10), ("city", 0)])
def test_wild_card_example_naming_a_worse_type_scores_less(kind, points):
    """If the player has more than one domain, his choice applies to all of his domains.
    (The player may name a worse type than desert; he scores what that type gives.)"""
    g = wild_card_game()
    do(g, "ocelot", f"score wild {kind}")
    assert scored(g, "ocelot")["type"] == kind
    assert scored(g, "ocelot")["points"] == points


# ---- DOMAIN SCORING TABLE -------------------------------------------------------------

# "DOMAIN SCORING TABLE: You may use this table to calculate the victory point value of a domain.
# Cross-reference the number of territories in the domain with the number of bonus territories,
# to find the total victory point value."  Rows: territories 1..15; columns: 0..6 bonus
# territories; None where the printed table has "-".
PRINTED_TABLE = {
    1: (0, 2, None, None, None, None, None),
    2: (0, 3, None, None, None, None, None),
    3: (0, 4, 7, None, None, None, None),
    4: (0, 5, 8, 13, None, None, None),
    5: (0, 6, 9, 14, None, None, None),
    6: (0, 7, 10, 15, 22, None, None),
    7: (0, 8, 11, 16, 23, 32, None),
    8: (0, 9, 12, 17, 24, 33, None),
    9: (0, 10, 13, 18, 25, 34, None),
    10: (0, 11, 14, 19, 26, 35, 46),
    11: (0, 12, 15, 20, 27, 36, 47),
    12: (0, 13, 16, 21, 28, 37, 48),
    13: (0, 14, 17, 22, 29, 38, 49),
    14: (0, 15, 18, 23, 30, 39, 50),
    15: (0, 16, 19, 24, 31, 40, 51),
}
CELLS = [(size, bonus, value) for size, row in PRINTED_TABLE.items()
         for bonus, value in enumerate(row) if value is not None]


def test_domain_scoring_table_is_territories_plus_bonus_squared():
    """A domain scores victory points as follows: 1 point per each territory in that domain, plus
    a bonus equal to the number of territories matching the chosen power card for the age
    multiplied by itself. ... If a domain does not contain at least one territory matching the
    power card chosen for the age, the player does not score any points for that domain.
    (Every printed cell of the table obeys that rule.)"""
    assert len(CELLS) == 15 + 15 + 13 + 12 + 10 + 9 + 6
    for size, bonus, value in CELLS:
        assert value == (size + bonus * bonus if bonus else 0), (size, bonus)


@pytest.mark.parametrize("size, bonus, value", CELLS, ids=[f"{s}x{b}" for s, b, _ in CELLS])
def test_domain_scoring_table_cell(size, bonus, value):
    """DOMAIN SCORING TABLE: Cross-reference the number of territories in the domain with the
    number of bonus territories, to find the total victory point value.
    (Each cell scored by the engine: Ocelot, card 9 = city, one domain of `size` territories of
    which `bonus` are cities.)"""
    kinds = ["city"] * bonus + ["desert"] * (size - bonus) + ["fields", "jungle", "mountains"]
    g = game(line(*kinds))
    choose(g, ocelot=9, serpent=8, quetzal=7)
    layout = {t: {"ocelot": 1} for t in range(1, size + 1)}
    layout.update({size + 2: {"serpent": 1}, size + 3: {"quetzal": 1}})
    position(g, layout)
    assert domains(g, "ocelot") == [(size, bonus, value)]
    assert scored(g, "ocelot")["points"] == value


def test_examples_use_the_printed_pawn_counts():
    """(Sanity check of the helpers: an example game really is a 3- or 4-player game of the
    rulebook, with 8 or 7 pawns per tribe in the first age.)"""
    assert [game(line("city", "desert"), players).to_place[0] for players in (THREE, FOUR)] == [8, 7]
