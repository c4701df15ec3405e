"""The order grammar: every form in docs/orders.md, canonical text, and precise errors."""
import pytest

from engine.aztlan.orders import (ChooseCard, LetTieStand, React, Resolve, Score, Turn, _canonical, made,
                                  parse_line, parse_orders, to_text)
from engine.core import ParseError
from tests.boards import tiny_board

BOARD = tiny_board("1 city Tollan, 2 desert Great Xochitla, 3 jungle Xochicalco, 4 fields Teotlan, "
                   "12 mountains Cholula",
                   borders="1-2 2-3 3-4 4-12 1-12", lakes=["1 3 4"])


@pytest.mark.parametrize("text, order", [
    ("card 7", ChooseCard(7)),
    ("POWER 9", ChooseCard(9)),
    ("place 12", Turn(12)),
    ("Place Tollan", Turn(1)),
    ("place great xochitla move 2 to 3", Turn(2, move=(2, 3))),
    ("place 1 move 1-2", Turn(1, move=(1, 2))),
    ("place 1 move 1 > 12", Turn(1, move=(1, 12))),
    ("place 1 move 1 -> 12", Turn(1, move=(1, 12))),
    ("place 1 move 1 12", Turn(1, move=(1, 12))),
    ("place 1 move great xochitla to xochicalco", Turn(1, move=(2, 3))),
    ("place 4 eagle 3", Turn(4, eagle=3)),
    ("place 4 move 4 to 3 eagle xochic", Turn(4, eagle=3, move=(4, 3))),
    ("place Tollán", Turn(1)),  # accents do not matter
    ("battle 12", Resolve(12, "battle")),
    ("coexist cholula", Resolve(12, "coexist")),
    ("tlatoani 12 battle", Resolve(12, "battle", tlatoani=True)),
    ("Tlatoani Great Xochitla coexist", Resolve(2, "coexist", tlatoani=True)),
    ("tie 3", LetTieStand(3)),
    ("sacred 4", React(4, True)),
    ("accept teotlan", React(4, False)),
    ("score", Score()),
    ("score wild desert", Score(wild="desert")),
    ("score wild terraced fields", Score(wild="fields")),
    ("score wild volcano blessing mixcoatl blessing xipe totec", Score("mountains", ("mixcoatl", "xipe-totec"))),
    ("score blessing jungle blessing mountains", Score(None, ("mixcoatl", "tepeyollotl"))),
    ("score rafts 1 and 3 rafts Tollan to Teotlan", Score(rafts=((1, 3), (1, 4)))),
    ("score rafts 3 4", Score(rafts=((3, 4),))),
])
def test_every_documented_form_parses(text, order):
    assert parse_line(text, BOARD) == order


@pytest.mark.parametrize("order", [
    ChooseCard(7), Turn(12), Turn(2, move=(2, 3)), Turn(4, eagle=3, move=(4, 3)),
    Resolve(12, "battle"), Resolve(2, "coexist", tlatoani=True), LetTieStand(3), React(4, True),
    React(4, False), Score(), Score("city", ("mixcoatl",), ((1, 3),)),
])
def test_canonical_text_parses_back_to_the_same_order(order):
    assert parse_line(to_text(order), BOARD) == order


@pytest.mark.parametrize("text, expected, found", [
    ("plce 12", "an order (card, place", "found 'plce'"),
    ("place", "a territory (number or name)", "found the end of the line"),
    ("place 12 move 3", "two territories", "found '3'"),
    ("place 12 move", "two territories", "the end of the line"),
    ("card seven", "a power card number", "found 'seven'"),
    ("tlatoani 12", "'battle' or 'coexist'", "the end of the line"),
    ("score wild lava", "a territory type", "found 'lava'"),
    ("score blessing zeus", "mixcoatl, tepeyollotl or xipe-totec", "found 'zeus'"),
    ("score rafts 1", "two territories", ""),
    ("battle 12 now", "the end of the line", "found 'now'"),
    ("place 12 place 3", "'eagle <territory>' or 'move", "found 'place'"),
])
def test_parse_errors_say_what_was_expected(text, expected, found):
    with pytest.raises(ParseError) as caught:
        parse_line(text, BOARD)
    assert expected in str(caught.value)
    assert found in str(caught.value)
    assert caught.value.line == text


def test_unknown_and_ambiguous_territories_are_named():
    with pytest.raises(ParseError, match="no territory number 99"):
        parse_line("place 99", BOARD)
    with pytest.raises(ParseError, match="ambiguous"):
        parse_line("place t", BOARD)  # Tollan or Teotlan


CANONICAL_LINES = ["card 7", "card 07", "place 12", "place 012", "place 4 eagle 3", "place 2 move 2 to 3",
                   "place 4 eagle 3 move 4 to 3", "battle 12", "coexist 1", "tlatoani 2 coexist", "tie 3",
                   "sacred 4", "accept 4", "score"]


@pytest.mark.parametrize("line", CANONICAL_LINES)
def test_a_canonical_line_read_by_the_quick_pattern_is_what_the_grammar_reads(line):
    """Records hold only lines as to_text writes them, so parse_orders reads those with one
    pattern; the order must be the grammar's, field for field and of the same type."""
    quick = _canonical(line, BOARD)
    assert quick is not None
    assert quick == parse_line(line, BOARD) and type(quick) is type(parse_line(line, BOARD))


@pytest.mark.parametrize("line", ["place 99", "place 1 eagle 99", "place 1 move 1 to 99", "battle 99",
                                  "tlatoani 99 battle", "card 123", "place 123456"])
def test_a_number_that_is_no_territory_still_gets_the_grammars_error(line):
    assert _canonical(line, BOARD) is None
    with pytest.raises(ParseError):
        parse_orders(line, BOARD)


def test_a_line_parsed_again_gives_the_same_order_and_its_error_again():
    """parse_orders keeps each line it has read (per board) but never an error."""
    assert parse_orders("place 1 move 1 -> 12", BOARD) == parse_orders("place 1 move 1 -> 12", BOARD) \
        == [Turn(1, move=(1, 12))]
    for _ in range(2):
        with pytest.raises(ParseError, match="line 2: .*no territory number 99"):
            parse_orders("card 7\nplace 99", BOARD)


def test_made_orders_equal_the_ones_built_and_are_made_once() -> None:
    for key in [(ChooseCard, 7), (Turn, 3, None, None), (Turn, 3, 5, (3, 4)), (Resolve, 12, "coexist", True),
                (LetTieStand, 12), (React, 12, False), (Score, "desert", ("mixcoatl",), ((3, 7),))]:
        order = made(key)
        assert order == key[0](*key[1:]) and type(order) is key[0]
        assert made(tuple(key)) is order
