"""Cóatl's components as data: pieces and limits, prophecy cards, temple cards.

The packaged files (engine/coatl/data/*.json) are the only files the engine reads; each is
validated on load and a mistake is a SetupError naming the file, the card and what is wrong.
Cards are written in the requirement language of requirements.py, so no card is special-cased
in code.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from typing import Any

from engine.coatl.options import NAMES as OPTION_CHOICES
from engine.coatl.requirements import COLOURS, Requirement, load_requirement
from engine.core import SetupError

KINDS = ("head", "body", "tail")
LIMITS = ("hand", "face_up", "keep", "setup_draw_first", "common_temples", "secret_temples",
          "prophecies_per_coatl", "coatls", "unfinished")
TOKENS = ("pick", "future", "commit")


@dataclass(frozen=True)
class Pieces:
    """The pieces, the supply board, the player boards and the limits of the rules."""

    colours: tuple[str, ...]  # letters, in the data's order
    per_colour: dict[str, int]  # head, body, tail
    fewer_bodies: dict[int, int]  # player count -> bodies per colour (option body_pieces=fewer)
    supply: dict[str, int]  # spaces per kind on the supply board
    bodies_per_space: int
    board: int  # spaces on a player board
    limits: dict[str, int]
    tokens: tuple[str, ...]

    def bodies(self, players: int, fewer: bool) -> int:
        return self.fewer_bodies.get(players, self.per_colour["body"]) if fewer else self.per_colour["body"]


@dataclass(frozen=True)
class Prophecy:
    id: int
    title: str
    copies: int
    requirement: Requirement
    levels: tuple[tuple[int, int], ...]  # (times at least, points), rising
    variants: dict[str, Requirement] = field(default_factory=dict)  # "option=value" -> requirement

    @property
    def minimum(self) -> int:
        return self.levels[0][0]

    def requirement_for(self, options: dict[str, Any]) -> Requirement:
        for key, requirement in self.variants.items():
            name, value = key.split("=", 1)
            if options.get(name) == value:
                return requirement
        return self.requirement

    def points(self, times: int) -> int:
        """The highest level reached; only one level scores."""
        return max((points for least, points in self.levels if times >= least), default=0)


@dataclass(frozen=True)
class Temple:
    id: int
    title: str
    conditions: tuple[Requirement, ...]
    points: tuple[int, ...]  # points[k - 1] when k conditions are met

    def met(self, pieces: str) -> int:
        return sum(condition.times(pieces) > 0 for condition in self.conditions)

    def score(self, pieces: str) -> int:
        return self.points_for(self.met(pieces))

    def points_for(self, met: int) -> int:
        """The points for `met` conditions met."""
        return self.points[met - 1] if met else 0


def _whole(value: Any, low: int, high: int, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise SetupError(f"{where} must be a whole number from {low} to {high}, not {value!r}")
    return value


def _object(data: Any, fmt: str, name: str) -> dict[str, Any]:
    if not isinstance(data, dict) or data.get("format") != fmt:
        raise SetupError(f"{name}: a JSON object with \"format\": \"{fmt}\"")
    return data


def load_pieces(data: Any, name: str = "pieces.json") -> Pieces:
    data = _object(data, "coatl-pieces/1", name)
    if data.get("colours") != COLOURS:
        raise SetupError(f"{name}: 'colours' must map {', '.join(COLOURS)} to their letters "
                         f"{', '.join(COLOURS.values())} (the card requirements name them)")
    per = data.get("per_colour")
    if not isinstance(per, dict) or set(per) != set(KINDS):
        raise SetupError(f"{name}: 'per_colour' gives a count for each of {', '.join(KINDS)}")
    per_colour = {kind: _whole(per[kind], 1, 99, f"{name}: per_colour.{kind}") for kind in KINDS}
    fewer = data.get("fewer_bodies", {})
    if not isinstance(fewer, dict) or not set(fewer) <= {"2", "3", "4"}:
        raise SetupError(f"{name}: 'fewer_bodies' maps player counts 2 to 4 to bodies per colour")
    fewer_bodies = {int(k): _whole(v, 1, per_colour["body"], f"{name}: fewer_bodies.{k}") for k, v in fewer.items()}
    supply = data.get("supply")
    if not isinstance(supply, dict) or set(supply) != set(KINDS):
        raise SetupError(f"{name}: 'supply' gives the spaces for each of {', '.join(KINDS)}")
    spaces = {kind: _whole(supply[kind], 1, 9, f"{name}: supply.{kind}") for kind in KINDS}
    per_space = _whole(data.get("bodies_per_space"), 1, 4, f"{name}: bodies_per_space")
    for count in (per_colour["body"], *fewer_bodies.values()):
        if count * len(COLOURS) % per_space:
            raise SetupError(f"{name}: the body pieces ({count} per colour) must fill whole supply spaces "
                             f"of {per_space}")
    limits = data.get("limits")
    if not isinstance(limits, dict) or set(limits) != set(LIMITS):
        raise SetupError(f"{name}: 'limits' gives exactly {', '.join(LIMITS)}")
    checked = {key: _whole(limits[key], 1, 12, f"{name}: limits.{key}") for key in LIMITS}
    if checked["keep"] > checked["hand"] or checked["unfinished"] > checked["coatls"]:
        raise SetupError(f"{name}: keep may not exceed the hand limit, nor unfinished the cóatls")
    tokens = data.get("sacrifice_tokens")
    if not isinstance(tokens, list) or len(set(tokens)) != len(tokens) or not set(tokens) <= set(TOKENS):
        raise SetupError(f"{name}: 'sacrifice_tokens' lists tokens among {', '.join(TOKENS)}")
    return Pieces(tuple(COLOURS.values()), per_colour, fewer_bodies, spaces, per_space,
                  _whole(data.get("player_board"), 3, 20, f"{name}: player_board"), checked, tuple(tokens))


def _cards(data: Any, fmt: str, name: str) -> list[dict[str, Any]]:
    cards = _object(data, fmt, name).get("cards")
    if not isinstance(cards, list) or not cards:
        raise SetupError(f"{name}: 'cards' must list the cards")
    ids = [card.get("id") if isinstance(card, dict) else None for card in cards]
    for i, card in enumerate(cards):
        if not isinstance(card, dict):
            raise SetupError(f"{name}: card {i + 1} must be an object")
        _whole(card.get("id"), 1, 99, f"{name}: card {i + 1}: 'id'")
        if ids.count(card["id"]) > 1:
            raise SetupError(f"{name}: card {card['id']} appears twice")
        if not isinstance(card.get("title"), str) or not card["title"].strip():
            raise SetupError(f"{name}: card {card['id']}: 'title' must be a non-empty string")
    return cards


def load_prophecies(data: Any, name: str = "prophecies.json") -> dict[int, Prophecy]:
    prophecies = {}
    for card in _cards(data, "coatl-prophecies/1", name):
        where = f"{name}: card {card['id']}"
        levels = card.get("levels")
        if (not isinstance(levels, list) or not levels
                or not all(isinstance(level, list) and len(level) == 2 for level in levels)):
            raise SetupError(f"{where}: 'levels' lists [times, points] pairs")
        pairs = tuple((_whole(a, 1, 99, f"{where}: a level's times"), _whole(b, 0, 99, f"{where}: a level's points"))
                      for a, b in levels)
        if any(later[0] <= earlier[0] for earlier, later in zip(pairs, pairs[1:])):
            raise SetupError(f"{where}: 'levels' must rise in times")
        variants = card.get("variants", {})
        if not isinstance(variants, dict):
            raise SetupError(f"{where}: 'variants' maps 'option=value' to a requirement")
        for key in variants:
            option, _, value = str(key).partition("=")
            if value not in OPTION_CHOICES.get(option, ()):
                raise SetupError(f"{where}: variant {key!r} names no option value "
                                 f"(options: {', '.join(OPTION_CHOICES)})")
        prophecies[card["id"]] = Prophecy(
            card["id"], card["title"], _whole(card.get("copies", 1), 1, 9, f"{where}: 'copies'"),
            load_requirement(card.get("requirement"), where), pairs,
            {key: load_requirement(value, f"{where}: variant {key}") for key, value in variants.items()})
    return prophecies


def load_temples(data: Any, name: str = "temples.json") -> dict[int, Temple]:
    temples = {}
    for card in _cards(data, "coatl-temples/1", name):
        where = f"{name}: card {card['id']}"
        conditions = card.get("conditions")
        if not isinstance(conditions, list) or not 1 <= len(conditions) <= 4:
            raise SetupError(f"{where}: 'conditions' lists 1 to 4 requirements")
        points = card.get("points")
        if not isinstance(points, list) or len(points) != len(conditions):
            raise SetupError(f"{where}: 'points' gives the points for 1, 2, ... conditions met, "
                             f"one number per condition")
        temples[card["id"]] = Temple(card["id"], card["title"],
                                     tuple(load_requirement(c, where) for c in conditions),
                                     tuple(_whole(p, 0, 99, f"{where}: points") for p in points))
    return temples


def _packaged(file: str) -> Any:
    return json.loads(resources.files("engine.coatl").joinpath("data", file).read_text("utf-8"))


@lru_cache(maxsize=None)
def packaged() -> tuple[Pieces, dict[int, Prophecy], dict[int, Temple]]:
    """The shipped components, loaded and validated once."""
    return (load_pieces(_packaged("pieces.json")), load_prophecies(_packaged("prophecies.json")),
            load_temples(_packaged("temples.json")))
