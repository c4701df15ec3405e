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
