"""Azteca's orders in a mail (pbem/mail/commands.py with Azteca's grammar): no mail command
shadows one of its order words, every word its grammar starts an order with is known to the
mail's order sorter, a whole reply (a card play beside its answer, a reorganisation before a
move, the long standing orders) is taken as orders and nothing else, and a mistyped Azteca order
is taken so that the engine's precise error refuses the mail."""
from __future__ import annotations

import pytest

from engine.azteca.game import GAME
from engine.azteca.orders import SYNTAX
from engine.azteca.war_orders import HEADS
from pbem.mail.commands import COMMANDS, OrderSorter
from pbem.services.kinds import order_words

STATE = GAME.new_game({"game": "azteca", "seed": 1, "players": [{"seat": s} for s in GAME.seating(1, 4)]})
SORTER = OrderSorter(lambda line: STATE.parse(line), order_words("azteca"))
HEADWORDS = set(SYNTAX) | set(HEADS) | {"keep"}


def test_no_mail_command_shadows_an_azteca_order_word():
    assert not {name.lower() for name in COMMANDS} & HEADWORDS


def test_every_word_an_azteca_order_starts_with_is_an_order_word():
    assert HEADWORDS <= SORTER.words


@pytest.mark.parametrize("lines, orders", [
    (["Hi all,", "play yacatecuhtli", "mission A alliance, B espionage", "Cheers", "Ana"],
     ["play yacatecuhtli", "mission A alliance, B espionage"]),
    (["reorganise A 2w 1j, B 3w, R 1w", "move A lake-2 tlatelolco raid", "", "-- ", "Bo"],
     ["reorganise A 2w 1j, B 3w, R 1w", "move A lake-2 tlatelolco raid"]),
    (["plan intercept A B, allow toltecs, retreat 3, reserve 2, losses warriors, cousin none, promote yes",
      "Thanks for hosting!"],
     ["plan intercept A B, allow toltecs, retreat 3, reserve 2, losses warriors, cousin none, promote yes"]),
    (["send A11 BEXP 2B4", "HAND", "", "Sent from my iPhone"], ["send A11 BEXP 2B4", "HAND"]),
    (["army A 3w 1j, B 3w 1j, C 2w 1j, R 2w"], ["army A 3w 1j, B 3w 1j, C 2w 1j, R 2w"]),
])
def test_a_reply_is_its_azteca_orders_and_nothing_else(lines, orders):
    picked = SORTER.pick(lines)
    assert picked.orders == orders
    assert [line for line in lines if line not in orders] == picked.before + picked.after


@pytest.mark.parametrize("line", ["quetzalcotl 5", "attak 2 toltecs", "mision A alliance", "bid two 3",
                                  "army A 5x", "tezcatlipoca lots", "reorganise D 2w"])
def test_a_mistyped_azteca_order_is_taken_so_that_the_engine_refuses_it(line):
    assert SORTER.pick(["bid 1 2", line, "Thanks"]).orders == ["bid 1 2", line]
    with pytest.raises(ValueError):
        STATE.parse(line)
