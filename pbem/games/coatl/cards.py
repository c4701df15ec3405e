"""Cóatl's cards and pieces in plain words, from the card data (engine/coatl/data): what a
prophecy or temple asks and what it scores, and a cóatl or a player board as letters.  Used
by the mail answers, the game page and the reports alike."""
from __future__ import annotations

from typing import Any, Mapping, Sequence

from engine.coatl.components import Prophecy, Temple, packaged
from engine.coatl.requirements import LETTERS, Element, Requirement

# Piece words as views write them ("yellow head") -> (letter, kind).
COLOUR_LETTERS = {colour: letter for letter, colour in LETTERS.items()}
COUNTS = {1: "once", 2: "twice"}
KIND_PLURALS = {"head": "heads", "body": "bodies", "tail": "tails"}


def piece(text: str) -> tuple[str, str]:
    """("Y", "head") from a view's "yellow head"."""
    colour, _, kind = str(text).partition(" ")
    return COLOUR_LETTERS.get(colour, "?"), kind


def prophecies() -> dict[int, Prophecy]:
    return packaged()[1]


def temples() -> dict[int, Temple]:
    return packaged()[2]


def _element(element: Element) -> str:
    colour = "any piece" if element.letters is None else LETTERS[element.letters]
    if element.absent:
        return f"no {colour}"
    if element.least == element.most == 1:
        return colour
    many = "pieces" if element.letters is None else colour
    return f"one or more {many}" if element.least else f"any number of {many} (or none)"


def requirement_words(requirement: Requirement) -> str:
    """"each red piece", "in a row: no yellow, yellow, yellow, no yellow", "exactly 7 pieces"."""
    if requirement.kind == "count":
        return f"each {LETTERS[requirement.letters]} piece"
    if requirement.kind == "absent":
        return f"no {LETTERS[requirement.letters]} piece"
    if requirement.kind == "length":
        return f"exactly {requirement.number} pieces"
    if requirement.kind == "equal":
        first, second = (LETTERS[letter] for letter in requirement.letters)
        return f"as many {first} as {second} (at least one each)"
    return "in a row: " + ", ".join(_element(element) for element in requirement.elements)


def _times(count: int) -> str:
    return COUNTS.get(count, f"{count} times")


def prophecy_words(card: int, options: Mapping[str, Any]) -> str:
    """"12 (three yellow): in a row: ...; 3 points once, 7 twice"; an unknown number alone."""
    found = prophecies().get(card)
    if found is None:
        return f"{card} (unknown prophecy)"
    requirement = found.requirement_for(dict(options))
    # A count scores by how many pieces ("2 points for 3, 3 for 4"), a pattern by how often.
    often = (lambda times: f"for {times}") if requirement.kind == "count" else _times
    levels = ", ".join(f"{points} {'point' if points == 1 else 'points'} {often(times)}"
                       if i == 0 else f"{points} {often(times)}"
                       for i, (times, points) in enumerate(found.levels))
    return f"{card} ({found.title}): {requirement_words(requirement)}; {levels}"


def temple_words(card: int) -> str:
    """"7 (yellow = green, 6 long): as many yellow as green ...; exactly 6 pieces; 3 points
    for one condition met, 7 for both"."""
    found = temples().get(card)
    if found is None:
        return f"{card} (unknown temple)"
    conditions = "; ".join(requirement_words(condition) for condition in found.conditions)
    if len(found.points) == 1:
        points = f"{found.points[0]} points"
    else:
        met = ("one condition met", *(f"{n}" for n in range(2, len(found.points))),
               "both" if len(found.points) == 2 else "all")
        points = ", ".join(f"{p} {'points ' if i == 0 else ''}for {m}" for i, (p, m) in enumerate(zip(found.points, met)))
    return f"{card} ({found.title}): {conditions}; {points}"


def coatl_letters(pieces: Sequence[str]) -> str:
    """A cóatl head to tail: "head Y - R R K - tail Y"; an end still open is "..."."""
    letters = [piece(text) for text in pieces]
    if not letters:
        return "empty"
    front = f"head {letters[0][0]}" if letters[0][1] == "head" else "..."
    back = f"tail {letters[-1][0]}" if letters[-1][1] == "tail" else "..."
    bodies = " ".join(letter for letter, kind in letters if kind == "body") or "-"
    if len(letters) == 1 and letters[0][1] == "head":
        return f"{front} - ..."
    if len(letters) == 1 and letters[0][1] == "tail":
        return f"... - {back}"
    return f"{front} - {bodies} - {back}"


def board_letters(pieces: Sequence[str]) -> str:
    """A player board by kind: "heads Y; bodies R R K; tails -"."""
    letters = [piece(text) for text in pieces]
    return "; ".join(f"{label} " + (" ".join(letter for letter, of in letters if of == kind) or "-")
                     for kind, label in KIND_PLURALS.items())
