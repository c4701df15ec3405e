"""Cóatl's order grammar (docs/orders.md, "Cóatl"): canonical text round-trips, a whole turn in
one line or one mail, and parse errors that say what was expected."""
from __future__ import annotations

import pytest

from engine.coatl.orders import (Add, Assemble, Choose, Complete, Fulfil, Keep, New, Sacrifice, Take,
                                 parse_orders, to_text)
from engine.core import ParseError

CANONICAL = [
    ("keep 12 31", Keep((12, 31))),
    ("keep none", Keep(())),
    ("take body 3", Take("body", 3)),
    ("take head 1", Take("head", 1)),
    ("choose 12 31 deck 1", Choose((12, 31), 1)),
    ("choose deck 2", Choose((), 2)),
    ("discard 3 12; choose 4", Choose((4,), 0, (3, 12))),
    ("new yellow head; add red body to 1; add blue body to 1 front; fulfil 12 31 on 1; complete 1 with temple 7",
     Assemble((New("Y", "head"), Add("R", "body", 1), Add("B", "body", 1, True), Fulfil((12, 31), 1),
               Complete(1, 7)))),
    ("add black tail to 2; fulfil 5 on 2; complete 2", Assemble((Add("K", "tail", 2), Fulfil((5,), 2), Complete(2)))),
    ("pass", Assemble(())),
    ("sacrifice pick body", Sacrifice("pick", kind="body")),
    ("sacrifice future", Sacrifice("future")),
    ("sacrifice commit 7", Sacrifice("commit", temple=7)),
]


@pytest.mark.parametrize("text, order", CANONICAL, ids=[text for text, _ in CANONICAL])
def test_canonical_text_round_trips(text, order):
    assert parse_orders(text) == [order]
    assert to_text(order) == text


def test_a_whole_assembly_may_be_spread_over_a_mail():
    """Consecutive assembly lines make one Assemble action; short forms are read too."""
    mail = """
    New Yellow Head
    add r to 1          # a red body at the back
    add g 1 front
    fulfill 12 on 1; complete 1 temple 7
    """
    assert parse_orders(mail) == [Assemble((New("Y", "head"), Add("R", "body", 1), Add("G", "body", 1, True),
                                            Fulfil((12,), 1), Complete(1, 7)))]


def test_two_actions_of_a_final_turn_in_one_mail():
    assert parse_orders("take body 2\nnew red head; add blue body to 1") == [
        Take("body", 2), Assemble((New("R", "head"), Add("B", "body", 1)))]


@pytest.mark.parametrize("text, message", [
    ("tak body 3", "expected an order (keep, take, choose, new, add, fulfil, complete, pass, sacrifice, "
                   "discard), found 'tak'"),
    ("take body", "expected a body space number, as in 'take body 1', found the end of the clause"),
    ("take arm 2", "expected head, tail or body, as in 'take body 3', found 'arm'"),
    ("new purple head", "expected a colour (yellow, red, black, green, blue), found 'purple'"),
    ("add red tail to 1 front", "expected nothing, or 'back': a tail goes at the back, found 'front'"),
    ("fulfil 12 1", "expected 'on' and a cóatl number, as in 'fulfil 12 on 1', found the end"),
    ("complete 1 with temple", "expected a temple card number, as in 'complete 1 with temple 7'"),
    ("choose", "expected face-up prophecy numbers and/or 'deck N'"),
    ("discard 3", "expected 'choose ...' after 'discard', found the end of the orders"),
    ("discard 3; take body 1", "expected 'choose ...' after 'discard', found 'take'"),
    ("sacrifice pick arm", "expected head, tail or body, as in 'sacrifice pick body'"),
    ("keep 12 and 31", "expected the end of the clause, found 'and'"),
])
def test_parse_errors_say_what_was_expected(text, message):
    with pytest.raises(ParseError) as caught:
        parse_orders(text)
    assert message in str(caught.value) and caught.value.expected


def test_the_error_names_the_line():
    with pytest.raises(ParseError, match=r"^line 2: 'take body x'"):
        parse_orders("pass\ntake body x")
