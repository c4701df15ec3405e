"""The small language Cóatl's cards are written in (data/prophecies.json, data/temples.json).

A cóatl is read from head to tail as a string of colour letters ("YRRKB"), with whether its
front ends in a head and its back in a tail (only a head or a tail closes an end).  A
requirement says how many times a cóatl satisfies it:

- `{"count": "blue"}`: the number of blue pieces, anywhere.
- `{"sequence": [element, ...]}`: the most occurrences of the pieces in a row, no piece used
  twice.  An element is a colour (`"blue"`), `"any"`, either with `+` (one or more in a row)
  or `*` (zero or more), or `"!blue"`: the position holds no blue piece (another colour, or
  the end of the cóatl); it takes a position but uses no piece.
- `{"length": 10}`: once if the cóatl is exactly 10 pieces long.
- `{"absent": "green"}`: once if the cóatl has no green piece.
- `{"equal": ["red", "yellow"]}`: once if it has as many red as yellow pieces, at least one each.

Everything here is pure and cached by the cóatl's letters, so the bots can score many
candidate cóatls cheaply.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from engine.core import SetupError

COLOURS = {"yellow": "Y", "red": "R", "black": "K", "green": "G", "blue": "B"}
LETTERS = {letter: colour for colour, letter in COLOURS.items()}
ANY = "any"
MAX_ELEMENTS = 12


@dataclass(frozen=True, slots=True)
class Element:
    """One element of a sequence: which letters it takes (None: any), how many times, or a
    position that must not hold `letters` (`absent`)."""

    letters: str | None
    least: int = 1
    most: int = 1  # 0 means no limit
    absent: bool = False


@dataclass(frozen=True, slots=True)
class Requirement:
    kind: str  # count, sequence, length, absent, equal
    letters: str = ""  # the colour(s) it names, as letters
    number: int = 0  # the length asked for
    elements: tuple[Element, ...] = ()

    def times(self, pieces: str, head: bool = True, tail: bool = True, open_ends: bool = False) -> int:
        """How many times `pieces` (head to tail) satisfies this.  An end without its head or
        tail is open: a "not present" element is satisfied there only with `open_ends`."""
        return _times(self, pieces, head or open_ends, tail or open_ends)


def _colour(word: Any, where: str) -> str:
    if word not in COLOURS:
        raise SetupError(f"{where}: unknown colour {word!r} (colours: {', '.join(COLOURS)})")
    return COLOURS[word]


def _element(text: Any, where: str) -> Element:
    if not isinstance(text, str) or not text:
        raise SetupError(f"{where}: a sequence element is a string such as 'blue', 'blue+', 'any*' or '!blue'")
    if text.startswith("!"):
        return Element(_colour(text[1:], where), absent=True)
    least, most, word = 1, 1, text
    if text[-1] in "+*":
        least, most, word = (1 if text[-1] == "+" else 0), 0, text[:-1]
    return Element(None if word == ANY else _colour(word, where), least, most)


def load_requirement(data: Any, where: str) -> Requirement:
    """A requirement from its JSON form, or a SetupError naming `where` and what is wrong."""
    if not isinstance(data, dict) or len(data) != 1:
        raise SetupError(f"{where}: a requirement is an object with one key: count, sequence, length, "
                         f"absent or equal")
    (kind, value), = data.items()
    if kind in ("count", "absent"):
        return Requirement(kind, letters=_colour(value, where))
    if kind == "equal":
        if not isinstance(value, list) or len(value) != 2 or value[0] == value[1]:
            raise SetupError(f"{where}: 'equal' names two different colours")
        return Requirement(kind, letters="".join(_colour(word, where) for word in value))
    if kind == "length":
        if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 99:
            raise SetupError(f"{where}: 'length' is a whole number from 1 to 99")
        return Requirement(kind, number=value)
    if kind == "sequence":
        if not isinstance(value, list) or not 1 <= len(value) <= MAX_ELEMENTS:
            raise SetupError(f"{where}: 'sequence' lists 1 to {MAX_ELEMENTS} elements")
        elements = tuple(_element(item, where) for item in value)
        taking = [element for element in elements if not element.absent]
        if not taking or taking[0].least == 0 or taking[-1].least == 0:
            raise SetupError(f"{where}: a sequence's first and last elements (besides '!colour') "
                             f"take at least one piece")
        return Requirement(kind, elements=elements)
    raise SetupError(f"{where}: unknown requirement {kind!r} (count, sequence, length, absent, equal)")


@lru_cache(maxsize=8192)  # a few games of answers: a bigger cache costs the garbage collector more than it saves
def _times(requirement: Requirement, pieces: str, front_closed: bool, back_closed: bool) -> int:
    kind = requirement.kind
    if kind == "count":
        return pieces.count(requirement.letters)
    if kind == "absent":
        return int(requirement.letters not in pieces)
    if kind == "length":
        return int(len(pieces) == requirement.number)
    if kind == "equal":
        a, b = (pieces.count(letter) for letter in requirement.letters)
        return int(a == b >= 1)
    if not _enough(requirement.elements, pieces):
        return 0
    return _occurrences(requirement.elements, pieces, front_closed, back_closed)


@lru_cache(maxsize=None)
def _needed(elements: tuple[Element, ...]) -> tuple[tuple[str, int], ...]:
    """The fewest pieces of each colour one occurrence uses ("any" counts under "")."""
    needed: dict[str, int] = {}
    for element in elements:
        if not element.absent:
            key = element.letters or ""
            needed[key] = needed.get(key, 0) + element.least
    return tuple(needed.items())


def _enough(elements: tuple[Element, ...], pieces: str) -> bool:
    """Whether the cóatl has the pieces for one occurrence at all: most candidate cóatls do
    not, and counting is far cheaper than matching."""
    needed = _needed(elements)
    return sum(count for _, count in needed) <= len(pieces) and all(
        pieces.count(letter) >= count for letter, count in needed if letter)


def _occurrences(elements: tuple[Element, ...], pieces: str, front_closed: bool, back_closed: bool) -> int:
    """The most occurrences that share no piece: for each start its shortest match, then the
    classic interval choice by earliest end (optimal for intervals)."""
    lead = next(i for i, e in enumerate(elements) if not e.absent)
    trail = next(i for i, e in enumerate(reversed(elements)) if not e.absent)
    size = len(pieces)
    spans = []
    for start in range(-1, size + 1):
        end = _shortest(elements, pieces, start, front_closed, back_closed)
        if end is not None:
            first, last = start + lead, end - 1 - trail
            if first <= last:
                spans.append((last, first))
    count, used_up_to = 0, -2
    for last, first in sorted(spans):
        if first > used_up_to:
            count, used_up_to = count + 1, last
    return count


def _fits(element: Element, pieces: str, at: int, front_closed: bool, back_closed: bool) -> bool:
    if element.absent:
        if at < 0:
            return front_closed
        if at >= len(pieces):
            return back_closed
        return pieces[at] not in element.letters
    return 0 <= at < len(pieces) and (element.letters is None or pieces[at] in element.letters)


def _shortest(elements: tuple[Element, ...], pieces: str, start: int, front_closed: bool,
              back_closed: bool) -> int | None:
    """The smallest position just past a match that starts at `start`, or None.  Positions -1
    and len(pieces) are the ends, where only "not present" elements may stand."""
    positions = {start}
    for element in elements:
        reached = set()
        for at in positions:
            if element.absent or (element.least == element.most == 1):
                if _fits(element, pieces, at, front_closed, back_closed):
                    reached.add(at + 1)
                continue
            run, here = 0, at
            if element.least == 0:
                reached.add(here)
            while _fits(element, pieces, here, front_closed, back_closed) and (not element.most or run < element.most):
                run, here = run + 1, here + 1
                if run >= element.least:
                    reached.add(here)
        positions = reached
        if not positions:
            return None
    return min(positions)


def times(requirement: Requirement, pieces: str) -> int:
    """Times for a finished cóatl (both ends closed)."""
    return _times(requirement, pieces, True, True)
