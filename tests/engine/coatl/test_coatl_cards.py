"""Cóatl's cards as data: every prophecy family and temple family scored as the data says,
one case per test with the rule text it rests on (docs/rules-coatl.md), and the data files
validated on load with clear errors.

Cards are numbered as in engine/coatl/data: prophecies 1-49 (the component sheet's types 0-48
plus one), temples 1-15."""
from __future__ import annotations

import copy
import json
from importlib import resources

import pytest

from engine.coatl.assembly import Rules
from engine.coatl.components import load_pieces, load_prophecies, load_temples, packaged
from engine.coatl.options import OPTIONS
from engine.core import SetupError

DEFAULTS = {option.name: option.default for option in OPTIONS}
RULES = Rules(DEFAULTS)


def points(card: int, letters: str, **options: str) -> int:
    """A prophecy's points on a finished cóatl (head to tail)."""
    rules = Rules({**DEFAULTS, **options}) if options else RULES
    return rules.prophecy_points(card, letters)


def temple(card: int, letters: str) -> int:
    return RULES.temple_points(card, letters)


def data(file: str):
    return json.loads(resources.files("engine.coatl").joinpath("data", file).read_text("utf-8"))


# ---- the components ---------------------------------------------------------------------------

def test_the_deck_holds_54_prophecies_of_49_types_and_15_temples():
    """"base deck 54: types 0-4 twice each, the rest once"; "Temple cards (15)"."""
    pieces, prophecies, temples = packaged()
    assert len(prophecies) == 49 and sum(card.copies for card in prophecies.values()) == 54
    assert [card.copies for card in prophecies.values()][:6] == [2, 2, 2, 2, 2, 1]
    assert sorted(temples) == list(range(1, 16))
    assert pieces.per_colour == {"head": 3, "body": 24, "tail": 3} and len(pieces.colours) == 5


# ---- prophecy families ------------------------------------------------------------------------

def test_count_of_a_colour_anywhere():
    """"The Cóatl has 3, 4, 5, or 6+ blue pieces. Score the corresponding points. The pieces do
    not need to be adjacent." (card 5: 3->2, 4->3, 5->4, 6+->5)"""
    assert points(5, "BRBRB") == 2
    assert points(5, "BBRBB") == 3
    assert points(5, "RB") == 0


def test_heads_and_tails_count_like_any_piece():
    """"The body segments depicted in a card's requirement can be satisfied by any type of piece,
    including a head or a tail.\""""
    assert points(5, "BRRB") == 0 and points(5, "BRBRB") == 2  # head and tail are the two outer B


def test_a_requirement_met_past_the_highest_level_scores_the_highest():
    """"Score the number of points corresponding to the number of times the Cóatl satisfies the
    card's requirements, up to the listed maximum.\""""
    assert points(5, "B" * 9) == 5


def test_a_pair_bounded_by_another_colour_or_an_end():
    """"The Cóatl has 1 or 2+ green-green sequences that are not adjacent to other green
    pieces." (card 9: once->2, twice->5)"""
    assert points(9, "GGRGG") == 5  # the head and the tail close the ends
    assert points(9, "RGGR") == 2


def test_a_run_of_three_is_no_pair():
    """The red X: "The sequence is only valid if the piece depicted in the red X symbol is not
    present": GGG holds no bounded pair."""
    assert points(9, "RGGGR") == 0
    assert points(9, "GGGRGG") == 2


def test_three_adjacent_counts_each_three_once():
    """Cards 11-15: "3 adjacent of the colour", a piece used once per card: a run of six yellow
    is twice, of five once."""
    assert points(11, "RYYYYYYR") == 7
    assert points(11, "RYYYYYR") == 3


def test_two_colour_sequence_counts_up_to_three():
    """Cards 16-22: "The Cóatl has 1, 2, or 3+ yellow-green sequences" (1, 3, 5 points); a
    cóatl reads from head to tail, so green-yellow is not yellow-green."""
    assert points(16, "YGRYG") == 3
    assert points(16, "YGYGYGYG") == 5
    assert points(16, "GYR") == 0


def test_alternating_four_pieces():
    """Card 23: black-blue-black-blue, 5 points; the pieces in a row."""
    assert points(23, "RKBKBR") == 5
    assert points(23, "KBRKB") == 0


def test_five_pieces_of_two_colours():
    """Cards 26-28: RRRGG, KKGGG, YYBBB, 6 points, in this order from head to tail."""
    assert points(26, "YRRRGGY") == 6
    assert points(26, "GGRRR") == 0


def test_two_pairs_of_two_colours():
    """Cards 29-32: C1 C1 C2 C2 (BBYY ...), 4 points."""
    assert points(29, "RBBYYR") == 4
    assert points(29, "BYBY") == 0


def test_an_exact_sequence_of_five():
    """Cards 33-35: YKRGB and the like, 7 points: the five pieces in a row, nothing between."""
    assert points(33, "RYKRGBR") == 7
    assert points(33, "YKRRGB") == 0


def test_a_run_of_one_colour_between_two_others():
    """"The Cóatl has 1 or 2+ sequences of any number of yellow pieces preceded and followed by
    a green piece." (card 43: once->2, twice->6); occurrences may not share a piece."""
    assert points(43, "GYYYGRGYG") == 6
    assert points(43, "GYGYG") == 2  # the middle green serves one occurrence only
    assert points(43, "RGGR") == 0  # at least one yellow between


def test_two_pairs_mirrored_with_pieces_between():
    """"The Cóatl has 1 green-black sequence and 1 black-green sequence, both separated by any
    number of pieces, regardless of their color." (card 46, 4 points; the data: at least one
    piece between)."""
    assert points(46, "GKRYKG") == 4
    assert points(46, "GKKG") == 0


def test_option_pair_gap_any_lets_the_pairs_touch():
    """pbem option pair_gap=any reads "any number of pieces" as zero or more."""
    assert points(46, "GKKG", pair_gap="any") == 4
    assert points(46, "GKRKG", pair_gap="any") == 4


def test_the_rulebook_scoring_example_scores_17():
    """"This Cóatl has fulfilled 3 Prophecy cards and 1 Temple card: the last 4 pieces (8-11)
    satisfy the first card's requirement: 4 points. Although the 3 isolated pairs of blue pieces
    (1-2, 4-5, 8-9) satisfy the second card's requirements three times, the card only rewards you
    for the first two: 5 points. The blue pieces (1, 2, 4, 5, 8, 9) satisfy the third card's
    requirements 6 times: 5 points. The absence of green pieces satisfies the Temple card's first
    requirement, but there are too many pieces to satisfy its second (exactly 9 pieces): 3 points.
    This Cóatl scores a total of 17 points.\""""
    letters = "BBRBBKRBBYY"  # blue head ... yellow tail, 11 pieces, no green
    assert (points(29, letters), points(10, letters), points(5, letters), temple(3, letters)) == (4, 5, 5, 3)
    assert RULES.coatl_points(letters, [29, 10, 5], 3) == 17


# ---- temple families --------------------------------------------------------------------------

def test_temple_no_colour_and_a_length():
    """"The Cóatl has no blue pieces and/or The Cóatl is exactly 10 pieces long. 1 requirement:
    3 points. 2 requirements: 7 points." (temple 4)"""
    assert temple(4, "RRRRRRRRRR") == 7
    assert temple(4, "RRR") == 3
    assert temple(4, "BRRRRRRRRR") == 3
    assert temple(4, "BRR") == 0


def test_temple_equal_counts_need_one_of_each():
    """"The Cóatl has an equal number of yellow and red pieces (minimum 1 each) and/or The Cóatl
    is exactly 12 pieces long." (temple 6)"""
    assert temple(6, "YRYRKKKKKKKK") == 7
    assert temple(6, "KKK") == 0  # no yellow and no red: not "equal"
    assert temple(6, "YRK") == 3


def test_temple_no_colour_and_equal_counts():
    """Temples 11-15: no X and as many C1 as C2 (temple 11: no black, blue = red)."""
    assert temple(11, "BRBRG") == 7
    assert temple(11, "BRK") == 3
    assert temple(11, "BBRK") == 0


# ---- validation on load -----------------------------------------------------------------------

def test_an_unknown_colour_in_a_card_is_refused_naming_the_card():
    cards = copy.deepcopy(data("prophecies.json"))
    cards["cards"][11]["requirement"] = {"sequence": ["purple", "yellow"]}
    with pytest.raises(SetupError, match=r"prophecies.json: card 12: unknown colour 'purple'"):
        load_prophecies(cards)


def test_levels_must_rise_and_variants_name_an_option():
    cards = copy.deepcopy(data("prophecies.json"))
    cards["cards"][0]["levels"] = [[3, 2], [3, 4]]
    with pytest.raises(SetupError, match="card 1: 'levels' must rise"):
        load_prophecies(cards)
    cards = copy.deepcopy(data("prophecies.json"))
    cards["cards"][44]["variants"] = {"gap=any": {"count": "red"}}
    with pytest.raises(SetupError, match="card 45: variant 'gap=any' names no option value"):
        load_prophecies(cards)


def test_a_temple_needs_points_for_each_condition():
    cards = copy.deepcopy(data("temples.json"))
    cards["cards"][0]["points"] = [3]
    with pytest.raises(SetupError, match="temples.json: card 1: 'points'"):
        load_temples(cards)
    cards["cards"][0] = {"id": 1, "title": "x", "conditions": [{"longest": 3}], "points": [3]}
    with pytest.raises(SetupError, match="unknown requirement 'longest'"):
        load_temples(cards)


def test_pieces_must_fill_whole_body_spaces():
    pieces = copy.deepcopy(data("pieces.json"))
    pieces["fewer_bodies"]["2"] = 13
    with pytest.raises(SetupError, match="must fill whole supply spaces of 2"):
        load_pieces(pieces)
    pieces = copy.deepcopy(data("pieces.json"))
    del pieces["limits"]["hand"]
    with pytest.raises(SetupError, match="'limits' gives exactly hand"):
        load_pieces(pieces)
