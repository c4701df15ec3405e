"""Azteca's components as data: the edition (cards, dice, counters, costs, tables).

The translation lost the component lists, so the values live in an edition file a group that
owns the printed game can replace (engine/azteca/data/edition.json is the default; each value
neither the rules nor the reference sheet give is marked "assumed" there with its reason).
An edition is validated on load; a mistake is a SetupError naming the field.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Any

from engine.core import SetupError

FORMAT = "azteca-edition/1"
PHASE_NUMBERS = range(1, 9)
COUNTERS = ("warriors", "jaguars", "generals", "pochtecas", "boats", "dikes", "cities", "assimilated_cities")
COSTS = ("warrior", "jaguar", "pochteca", "general", "boat", "dike")
TRIBUTES = ("capital", "valley", "outer", "lake")
SACRIFICES = ("assimilated", "outer")
DICE = ("white", "red", "yellow")
LANCE = "lance"


@dataclass(frozen=True, slots=True)
class AztecaCard:
    key: str  # what orders write ("raid")
    name: str
    phase: int  # the phase (1-8) in which it may be played
    count: int
    text: str
    effect: str = ""  # the kind of effect pbem plays (engine/azteca/cards.py); "" none yet
    amount: int = 0  # the effect's number (Tributes gained, boats lost, points added)
    repeatable: bool = False  # 8.0: "except Raid cards": may be played twice in a row


@dataclass(frozen=True, slots=True)
class ExpeditionCard:
    key: str
    tributes: int  # 0: the expedition is massacred
    count: int


@dataclass(frozen=True)
class Judgement:
    quetzalcoatl_steps: int  # steps to the gold temple
    tezcatlipoca_steps: int  # descents that take him to the underworlds
    verify_every: int  # the verification urn is opened every this many turns
    tezcatlipoca_dice: int  # white dice rolled, the best kept
    points_per_step: dict[int, int]  # player count -> Sacrifice points a step


@dataclass(frozen=True)
class Edition:
    name: str
    title: str
    hand_size: int
    cards: tuple[AztecaCard, ...]
    expeditions: tuple[ExpeditionCard, ...]
    slave_market: tuple[int, ...]  # the Sacrifice points of the market cards
    anger: tuple[int, ...]  # the Tezcatlipoca Anger cards
    population: tuple[int, ...]  # every population marker's value, in a canonical order
    dice: dict[str, tuple[str, ...]]
    counters: dict[str, int]
    start: dict[str, int]
    box_limit: int
    costs: dict[str, int]
    tribute: dict[str, int]
    sacrifice: dict[str, int]
    mobilisation: dict[int, str]
    mobilisation_outer_bonus: int
    judgement: Judgement

    def card(self, key: str) -> AztecaCard:
        for card in self.cards:
            if card.key == key:
                return card
        raise KeyError(key)

    def deck(self) -> list[str]:
        """The Azteca deck before shuffling: each card's key once per copy, in the data's order."""
        return [card.key for card in self.cards for _ in range(card.count)]

    def lances(self, colour: str) -> int:
        return self.dice[colour].count(LANCE)


def _fail(message: str) -> SetupError:
    return SetupError(f"edition: {message}")


def _whole(value: Any, low: int, high: int, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise _fail(f"{where} must be a whole number from {low} to {high}, not {value!r}")
    return value


def _table(data: Any, keys: tuple[str, ...], where: str, high: int = 99) -> dict[str, int]:
    if not isinstance(data, dict) or not set(keys) <= set(data):
        raise _fail(f"'{where}' gives a number for each of {', '.join(keys)}")
    return {key: _whole(data[key], 0, high, f"{where}.{key}") for key in keys}


def _list(data: Any, where: str) -> list[Any]:
    if not isinstance(data, list) or not data:
        raise _fail(f"'{where}' must be a non-empty list")
    return data


def _cards(data: Any) -> tuple[AztecaCard, ...]:
    cards: list[AztecaCard] = []
    for raw in _list(data, "azteca_cards"):
        if not isinstance(raw, dict) or not isinstance(raw.get("key"), str) or not raw["key"].strip():
            raise _fail("each Azteca card is an object with a 'key'")
        key = raw["key"]
        if not key.replace("-", "").isalpha() or key != key.lower():
            raise _fail(f"card key {key!r} must be lower-case letters and hyphens (orders write it)")
        if any(card.key == key for card in cards):
            raise _fail(f"card {key!r} appears twice")
        name, text = raw.get("name"), raw.get("text")
        if not isinstance(name, str) or not name.strip() or not isinstance(text, str) or not text.strip():
            raise _fail(f"card {key!r}: 'name' and 'text' must be non-empty strings")
        effect, repeatable = raw.get("effect", ""), raw.get("repeatable", False)
        if not isinstance(effect, str) or not isinstance(repeatable, bool):
            raise _fail(f"card {key!r}: 'effect' is a string and 'repeatable' true or false")
        cards.append(AztecaCard(key, name, _whole(raw.get("phase"), 1, 8, f"card {key}: phase"),
                                _whole(raw.get("count"), 1, 40, f"card {key}: count"), text, effect,
                                _whole(raw.get("amount", 0), 0, 99, f"card {key}: amount"), repeatable))
    return tuple(cards)


def _expeditions(data: Any) -> tuple[ExpeditionCard, ...]:
    cards = []
    for raw in _list(data, "expedition_cards"):
        if not isinstance(raw, dict) or not isinstance(raw.get("key"), str):
            raise _fail("each Expedition card is an object with a 'key'")
        cards.append(ExpeditionCard(raw["key"], _whole(raw.get("tributes"), 0, 99, f"{raw['key']}: tributes"),
                                    _whole(raw.get("count"), 1, 20, f"{raw['key']}: count")))
    return tuple(cards)


def _population(data: Any) -> tuple[int, ...]:
    if not isinstance(data, dict):
        raise _fail("'population_markers' maps marker values to counts")
    values: list[int] = []
    for value in ("0", "1", "2", "3"):
        values.extend([int(value)] * _whole(data.get(value, 0), 0, 30, f"population_markers.{value}"))
    if not values or set(k for k in data if k.isdigit()) - {"0", "1", "2", "3"}:
        raise _fail("'population_markers' counts markers of values 0 to 3")
    return tuple(values)


def _dice(data: Any) -> dict[str, tuple[str, ...]]:
    if not isinstance(data, dict):
        raise _fail("'dice' gives the faces of the white, red and yellow dice")
    dice = {}
    for colour in DICE:
        faces = data.get(colour)
        if not isinstance(faces, list) or len(faces) != 6 or not all(isinstance(f, str) for f in faces):
            raise _fail(f"dice.{colour} lists its 6 faces")
        dice[colour] = tuple(faces)
    if dice["white"] != tuple(str(n) for n in range(1, 7)):
        raise _fail("dice.white is a d6: faces '1' to '6'")
    return dice


def _judgement(data: Any) -> Judgement:
    if not isinstance(data, dict):
        raise _fail("'judgement' is an object")
    per = data.get("points_per_step")
    if not isinstance(per, dict) or set(per) != {"3", "4"}:
        raise _fail("judgement.points_per_step gives the points a step for 3 and 4 players")
    return Judgement(_whole(data.get("quetzalcoatl_steps"), 2, 20, "judgement.quetzalcoatl_steps"),
                     _whole(data.get("tezcatlipoca_steps"), 1, 20, "judgement.tezcatlipoca_steps"),
                     _whole(data.get("verify_every"), 1, 10, "judgement.verify_every"),
                     _whole(data.get("tezcatlipoca_dice"), 1, 6, "judgement.tezcatlipoca_dice"),
                     {int(k): _whole(v, 1, 200, f"judgement.points_per_step.{k}") for k, v in per.items()})


def load_edition(data: Any) -> Edition:
    """An edition from its JSON object, validated; a SetupError says what is wrong."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise _fail(f"a JSON object with \"format\": \"{FORMAT}\"")
    name = data.get("name")
    if not isinstance(name, str) or not name.strip():
        raise _fail("'name' must be a non-empty string")
    market = tuple(_whole(v, 0, 20, "slave_market values") for v in _list(data.get("slave_market"), "slave_market"))
    anger = tuple(_whole(v, 1, 60, "anger_cards values") for v in _list(data.get("anger_cards"), "anger_cards"))
    mobilisation = data.get("mobilisation")
    if not isinstance(mobilisation, dict) or not isinstance(mobilisation.get("white"), dict):
        raise _fail("'mobilisation' maps white die faces to none, warrior or jaguar")
    rolls = {int(face): what for face, what in mobilisation["white"].items()}
    if set(rolls) != set(range(1, 7)) or not set(rolls.values()) <= {"none", "warrior", "jaguar"}:
        raise _fail("mobilisation.white maps each face 1-6 to none, warrior or jaguar")
    counters = _table(data.get("counters"), COUNTERS, "counters")
    start = _table(data.get("start"), ("tributes", "boats"), "start")
    if start["boats"] > counters["boats"]:
        raise _fail("start.boats may not exceed counters.boats")
    return Edition(
        name=name, title=str(data.get("title", name)),
        hand_size=_whole(data.get("hand_size"), 1, 10, "hand_size"),
        cards=_cards(data.get("azteca_cards")), expeditions=_expeditions(data.get("expedition_cards")),
        slave_market=market, anger=anger, population=_population(data.get("population_markers")),
        dice=_dice(data.get("dice")), counters=counters, start=start,
        box_limit=_whole(data.get("box_limit"), 1, 20, "box_limit"),
        costs=_table(data.get("costs"), COSTS, "costs"), tribute=_table(data.get("tribute"), TRIBUTES, "tribute"),
        sacrifice=_table(data.get("sacrifice"), SACRIFICES, "sacrifice"), mobilisation=rolls,
        mobilisation_outer_bonus=_whole(mobilisation.get("outer_bonus", 0), 0, 6, "mobilisation.outer_bonus"),
        judgement=_judgement(data.get("judgement")))


@lru_cache(maxsize=None)
def packaged_edition(name: str = "default") -> Edition:
    """A shipped edition by name, loaded and validated once."""
    if name != "default":
        raise SetupError(f"unknown Azteca edition {name!r}; known: default (or give one inline)")
    return load_edition(json.loads(resources.files("engine.azteca").joinpath("data", "edition.json")
                                   .read_text("utf-8")))
