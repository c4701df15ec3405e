"""Mail commands apart from game orders; game orders pass through untouched."""
from __future__ import annotations

from datetime import date

import pytest

from engine.aztlan.orders import VERBS
from pbem.mail.commands import (COMMANDS, Board, Cancel, Hand, Help, History, Invalid, OrderLine,
                                Queue, Resign, Status, Vacation, classify, split_commands)


def test_mail_commands_never_shadow_a_game_verb():
    assert not {name.lower() for name in COMMANDS} & set(VERBS)


@pytest.mark.parametrize("line, command", [
    ("HELP", Help("HELP")),
    ("help", Help("help")),
    ("Status", Status("Status")),
    ("STATUS.", Status("STATUS.")),
    ("board", Board("board")),
    ("HAND", Hand("HAND")),
    ("history", History("history")),
    ("QUEUE", Queue("QUEUE")),
    ("CANCEL", Cancel("CANCEL")),
    ("cancel all", Cancel("cancel all")),
    ("CANCEL 2", Cancel("CANCEL 2", number=2)),
    ("VACATION 2026-12-20 2027-01-03", Vacation("VACATION 2026-12-20 2027-01-03",
                                                 start=date(2026, 12, 20), end=date(2027, 1, 3))),
    ("vacation 2026-12-20 to 2026-12-20", Vacation("vacation 2026-12-20 to 2026-12-20",
                                                    start=date(2026, 12, 20), end=date(2026, 12, 20))),
    ("VACATION OFF", Vacation("VACATION OFF")),
    ("RESIGN", Resign("RESIGN")),
    ("resign confirm", Resign("resign confirm", confirmed=True)),
])
def test_mail_commands(line, command):
    assert classify(line) == command


@pytest.mark.parametrize("line, expected", [
    ("HELP me", "nothing after HELP"),
    ("STATUS now", "nothing after STATUS"),
    ("CANCEL 0", "CANCEL <number>"),
    ("CANCEL two", "CANCEL <number>"),
    ("CANCEL 1 2", "CANCEL <number>"),
    ("CANCEL ²", "CANCEL <number>"),
    ("VACATION", "VACATION <from> <to>"),
    ("VACATION next week", "VACATION <from> <to>"),
    ("VACATION 2026-12-20", "VACATION <from> <to>"),
    ("VACATION 20/12/2026 03/01/2027", "VACATION <from> <to>"),
    ("VACATION 2026-02-30 2026-03-02", "VACATION <from> <to>"),
    ("VACATION 2027-01-03 2026-12-20", "end date on or after"),
    ("RESIGN now", "RESIGN CONFIRM"),
])
def test_bad_arguments_say_what_was_expected(line, expected):
    command = classify(line)
    assert isinstance(command, Invalid) and command.line == line
    assert expected in command.expected


@pytest.mark.parametrize("line", ["card 7", "place Amatlán eagle Ocotlán", "Battle Xalapan",
                                  "score wild desert", "helpme", "Hi there!", "place 3 # help"])
def test_everything_else_goes_to_the_game_grammar_unchanged(line):
    assert classify(line) == OrderLine(line)


def test_several_commands_and_orders_keep_their_order():
    assert split_commands(["STATUS", "card 7", "place 12", "QUEUE"]) == [
        Status("STATUS"), OrderLine("card 7"), OrderLine("place 12"), Queue("QUEUE")]


# ---- which lines are the orders ----------------------------------------------------------------

from engine.aztlan.data import packaged_board  # noqa: E402
from engine.aztlan.orders import parse_line  # noqa: E402
from pbem.mail.commands import MAX_ORDER_LINES, OrderSorter  # noqa: E402
from pbem.services.kinds import order_words  # noqa: E402
from pbem.mail.extract import OrderTextError  # noqa: E402

BOARD = packaged_board("default")
SORTER = OrderSorter(lambda line: parse_line(line, BOARD), order_words("aztlan"))


def test_the_game_order_words_come_from_its_grammar():
    assert set(VERBS) - {"power"} <= SORTER.words  # 'power' is an alias the error does not name


def test_orders_first_then_anything():
    picked = SORTER.pick(["card 7", "place 12", "Thanks!", "Mvh,", "/John", "Envoyé de mon iPhone"])
    assert picked.orders == ["card 7", "place 12"]
    assert picked.after == ["Thanks!", "Mvh,", "/John", "Envoyé de mon iPhone"]


def test_a_greeting_before_the_orders_is_skipped_and_reported():
    picked = SORTER.pick(["Hi Bob,", "card 7", "Cheers", "Carl"])
    assert (picked.before, picked.orders, picked.after) == (["Hi Bob,"], ["card 7"], ["Cheers", "Carl"])


def test_a_later_line_that_is_no_order_ends_them():
    """An order after prose is history or chatter: it is not carried out, but quoted back."""
    picked = SORTER.pick(["card 7", "Thanks!", "place 12"])
    assert picked.orders == ["card 7"] and picked.after == ["Thanks!", "place 12"]


@pytest.mark.parametrize("line", ["plce 12", "palce Amatlan", "place Amatlan eagel Ocotlan", "card", "batle 12",
                                  "coexsit 12", "STATSU now", "CANCEL two", "VACATION 2026-12-20", "tie game"])
def test_a_mistyped_order_is_taken_so_that_the_engine_refuses_it(line):
    """Never skipped as prose: the mail is refused with the grammar's precise error."""
    assert SORTER.pick(["card 7", line, "Thanks"]).orders == ["card 7", line]


@pytest.mark.parametrize("line", ["Carl", "Pace", "And another thing", "The end.", "little change.",
                                  "Board games are fun, thanks for hosting", "Thank you!", "merci d'avance",
                                  "Med venlig hilsen", "x" * 250, "Mit freundlichen Grüßen"])
def test_prose_is_no_order(line):
    assert not SORTER.is_order(line)


def test_a_chatty_mail_has_no_orders():
    picked = SORTER.pick(["Thanks for the game yesterday!", "See you on Thursday.", "Ana"])
    assert picked.orders == [] and len(picked.before) == 3


def test_too_many_order_lines_is_an_error_not_a_cut():
    lines = [f"place {n % 20 + 1}" for n in range(MAX_ORDER_LINES + 1)]
    with pytest.raises(OrderTextError) as error:
        SORTER.pick(lines)
    assert str(MAX_ORDER_LINES) in error.value.expected
