"""Mail commands apart from game orders.

Each line of a mail is a mail command (HELP, STATUS, BOARD, HAND, HISTORY, QUEUE,
CANCEL, VACATION, RESIGN, PRESS; any case) or a game order.  Game orders are not parsed here:
they go as text to the game's own grammar (`state.parse`), so this module knows no game.
A command with bad arguments becomes `Invalid`, which says what was expected, so the
reply can quote the line the way the engine's errors do.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date
from typing import Callable, Iterable

from pbem.mail.extract import OrderTextError


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
class Press(Command):
    """PRESS ALL: <text> (to the whole table) or PRESS <seat>: <text> (privately)."""

    to: str | None = None  # a seat's name as written; None: the whole table
    text: str = ""


@dataclass(frozen=True, slots=True)
class Invalid(Command):
    """A mail command whose arguments are wrong."""

    expected: str = ""


_SIMPLE = {"help": Help, "status": Status, "board": Board, "hand": Hand, "history": History,
           "queue": Queue}
COMMANDS = (*(name.upper() for name in _SIMPLE), "CANCEL", "VACATION", "RESIGN", "PRESS")
_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")
_PRESS = re.compile(r"press\s+(?:to\s+)?([^\s:]+)\s*:\s*(.*)", re.IGNORECASE | re.DOTALL)
PRESS_EXPECTED = "PRESS ALL: <message> (to the whole table) or PRESS <seat>: <message> (privately)"


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
    if verb == "press":
        found = _PRESS.fullmatch(line.strip())
        if found is None or not found.group(2).strip():
            return Invalid(line, expected=PRESS_EXPECTED)
        to = found.group(1)
        return Press(line, to=None if to.lower() == "all" else to, text=found.group(2).strip())
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


# ---- which lines are the orders ----------------------------------------------------------------

MAX_ORDER_LINES = 100
MAX_ORDER_WORDS = 8  # a line with more words that does not parse is prose, not a mistyped order
MAX_ORDER_CHARS = 200


@dataclass(frozen=True, slots=True)
class Picked:
    """A mail's lines sorted: the orders to act on, and the lines read but ignored (before
    them: a greeting; after them: thanks, a sign-off, a name, anything)."""

    orders: list[str]
    before: list[str]
    after: list[str]

    @property
    def ignored(self) -> list[str]:
        return self.before + self.after


class OrderSorter:
    """Tells orders from the rest of a mail, for one game's grammar.

    `parse(line)` is the game's parser for one line (it raises ValueError, the engine's
    ParseError, on text outside the grammar).  A line is taken when it is a mail command,
    parses, or *looks like* an order: its first word is one of the game's order words
    (`words`, from its decision kinds) or a command, or one letter off one (two for long
    words) with more words after it, and the line is short.  Such a mistyped order is
    taken, so the engine's precise error refuses the mail; it is never skipped as prose.
    """

    def __init__(self, parse: Callable[[str], object], words: Iterable[str]):
        self._parse = parse
        self.words = frozenset(name.lower() for name in COMMANDS) | frozenset(word.lower() for word in words)

    def _expected(self, line: str) -> str | None:
        """What the grammar expected where `line` failed (None: it parsed)."""
        try:
            self._parse(line)
        except ValueError as error:
            return getattr(error, "expected", None) or str(error)
        return None

    def is_order(self, line: str) -> bool:
        """A mail command, a line in the game's grammar, or a line meant as one."""
        command = classify(line)
        if isinstance(command, Press):  # a message is as long as the press allows
            return True
        if len(line) > MAX_ORDER_CHARS:
            return False
        words = line.split()
        if isinstance(command, Invalid):  # "CANCEL two", "VACATION from 2026-12-20"; not "Board games are fun"
            return len(words) <= 3 or any(char.isdigit() for char in line)
        if not isinstance(command, OrderLine) or self._expected(line) is None:
            return True
        first = words[0].lower().strip(".,;:!?()*\"'") if words else ""
        if first in self.words:
            return len(words) <= MAX_ORDER_WORDS
        # A slip of the keyboard needs what follows the word too: "Carl" or "Pace" under the
        # orders is a name.
        return 2 <= len(words) <= MAX_ORDER_WORDS and any(_near(first, word) for word in self.words)

    def pick(self, lines: list[str]) -> Picked:
        """The orders are the first block of order lines: lines before it (a greeting) and
        from the first line after it that is not an order are ignored, and the answer
        quotes them.  Raise OrderTextError for a block over MAX_ORDER_LINES (an
        error, not a silent cut)."""
        start = next((n for n, line in enumerate(lines) if self.is_order(line)), len(lines))
        end = next((n for n in range(start, len(lines)) if not self.is_order(lines[n])), len(lines))
        if end - start > MAX_ORDER_LINES:
            raise OrderTextError(f"more than {MAX_ORDER_LINES} lines", line=lines[start + MAX_ORDER_LINES],
                                 expected=f"at most {MAX_ORDER_LINES} orders and commands in one mail")
        return Picked(lines[start:end], lines[:start], lines[end:])


def _near(word: str, target: str) -> bool:
    """Equal, or one edit off (two for words of seven letters or more): a typing slip."""
    if word == target:
        return True
    allowed = 2 if len(target) >= 7 else 1
    if len(word) < 4 or abs(len(word) - len(target)) > allowed:  # "and" is no slip for "hand"
        return False
    return _distance(word, target) <= allowed


def _distance(a: str, b: str) -> int:
    """Edit distance, a swap of neighbours counting as one edit (optimal string alignment)."""
    rows = [list(range(len(b) + 1))]
    for i, ca in enumerate(a, start=1):
        row = [i]
        for j, cb in enumerate(b, start=1):
            cost = min(rows[-1][j] + 1, row[j - 1] + 1, rows[-1][j - 1] + (ca != cb))
            if i > 1 and j > 1 and ca == b[j - 2] and a[i - 2] == cb:
                cost = min(cost, rows[-2][j - 2] + 1)
            row.append(cost)
        rows.append(row)
    return rows[-1][-1]
