"""Mail commands apart from game orders.

Each line of a mail is a mail command (HELP, STATUS, BOARD, HAND, HISTORY, QUEUE,
CANCEL, VACATION, RESIGN; any case) or a game order.  Game orders are not parsed here:
they go as text to the game's own grammar (`state.parse`), so this module knows no game.
A command with bad arguments becomes `Invalid`, which says what was expected, so the
reply can quote the line the way the engine's errors do.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date


@dataclass(frozen=True, slots=True)
class Command:
    line: str  # as written, for the echo in the reply


@dataclass(frozen=True, slots=True)
class OrderLine(Command):
    """A line for the game's grammar."""


@dataclass(frozen=True, slots=True)
class Help(Command):
    pass


@dataclass(frozen=True, slots=True)
class Status(Command):
    """What the game waits for, and the deadlines."""


@dataclass(frozen=True, slots=True)
class Board(Command):
    """The seat's view of the board."""


@dataclass(frozen=True, slots=True)
class Hand(Command):
    """The seat's cards."""


@dataclass(frozen=True, slots=True)
class History(Command):
    pass


@dataclass(frozen=True, slots=True)
class Queue(Command):
    """List the seat's queued turns, numbered from 1."""


@dataclass(frozen=True, slots=True)
class Cancel(Command):
    number: int | None = None  # None: every queued turn ("CANCEL" or "CANCEL ALL")


@dataclass(frozen=True, slots=True)
class Vacation(Command):
    start: date | None = None  # both None: VACATION OFF
    end: date | None = None


@dataclass(frozen=True, slots=True)
class Resign(Command):
    confirmed: bool = False  # RESIGN alone asks for confirmation; RESIGN CONFIRM resigns


@dataclass(frozen=True, slots=True)
class Invalid(Command):
    """A mail command whose arguments are wrong."""

    expected: str = ""


_SIMPLE = {"help": Help, "status": Status, "board": Board, "hand": Hand, "history": History,
           "queue": Queue}
COMMANDS = (*(name.upper() for name in _SIMPLE), "CANCEL", "VACATION", "RESIGN")
_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")


def split_commands(lines: list[str]) -> list[Command]:
    return [classify(line) for line in lines]


def classify(line: str) -> Command:
    words = line.split()
    verb = words[0].lower().rstrip(".!:") if words else ""
    args = [word.lower() for word in words[1:]]
    if verb in _SIMPLE:
        if args:
            return Invalid(line, expected=f"nothing after {verb.upper()}")
        return _SIMPLE[verb](line)
    if verb == "cancel":
        return _cancel(line, args)
    if verb == "vacation":
        return _vacation(line, args)
    if verb == "resign":
        if args in ([], ["confirm"]):
            return Resign(line, confirmed=bool(args))
        return Invalid(line, expected="RESIGN or RESIGN CONFIRM")
    return OrderLine(line)


def _cancel(line: str, args: list[str]) -> Command:
    if not args or args == ["all"]:
        return Cancel(line)
    if len(args) == 1 and args[0].isascii() and args[0].isdigit() and 0 < int(args[0]) < 1000:
        return Cancel(line, number=int(args[0]))
    return Invalid(line, expected="CANCEL, CANCEL ALL or CANCEL <number> (see QUEUE)")


def _vacation(line: str, args: list[str]) -> Command:
    expected = "VACATION <from> <to> with dates as YYYY-MM-DD, or VACATION OFF"
    if args == ["off"]:
        return Vacation(line)
    if len(args) == 3 and args[1] in ("to", "until", "-"):
        args = [args[0], args[2]]
    if len(args) != 2 or not all(_DATE.fullmatch(arg) for arg in args):
        return Invalid(line, expected=expected)
    try:
        start, end = date.fromisoformat(args[0]), date.fromisoformat(args[1])
    except ValueError:
        return Invalid(line, expected=expected)
    if end < start:
        return Invalid(line, expected="a VACATION end date on or after its start date")
    return Vacation(line, start=start, end=end)
