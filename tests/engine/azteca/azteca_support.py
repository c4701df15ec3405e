"""Tiny helpers for Azteca's rule cases: games on a small stand-in map with the geography
API of AZTECA.md (so the rules are tested apart from the real map), positions set up
directly, and orders by text."""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from engine.azteca.game import setup_from_record
from engine.azteca.state import AztecaState

VALLEY = ("tlatelolco", "tizapan", "chapultepec", "coyoacan", "xochimilco", "chalco", "iztapalapa",
          "tlacopan", "tenayuca", "ecatepec", "teotihuacan", "huexotla", "chimalhuacan")
CAPITALS = {"aztecs": "tenochtitlan", "toltecs": "colhuacan", "chichimecs": "texcoco", "tepanecs": "azcapotzalco"}
NEAR_CAPITAL = {"tenochtitlan": ("tlatelolco",), "colhuacan": ("coyoacan", "iztapalapa"),
                "texcoco": ("huexotla", "chimalhuacan"), "azcapotzalco": ("tlacopan", "tenayuca")}
OUTER = ("tula", "toluca", "tlaxcala", "oaxtepec")
DIKES = ("tizapan", "tlacopan", "iztapalapa")
MERGED = "tenochtitlan-tlatelolco"


@dataclass(frozen=True, slots=True)
class Region:
    key: str
    number: int
    name: str
    kind: str
    terrain: str | None = None
    people: str | None = None
    lakes: tuple[str, ...] = ()


class StandInGeography:
    """The API azteca-map's engine/azteca/geography.py offers, on a made-up map: the valley a
    ring of 13 territories, each capital next to two (the Aztecs' island to Tlatelolco)."""

    def __init__(self, players: int = 4):
        valley = list(VALLEY) if players == 4 else [MERGED, *VALLEY[1:]]
        capitals = {people: key for people, key in CAPITALS.items() if players == 4 or people != "aztecs"}
        regions = [Region(key, i + 1, key.title(), "valley") for i, key in enumerate(valley)]
        regions += [Region(key, 20 + i, key.title(), "capital", people=people)
                    for i, (people, key) in enumerate(capitals.items())]
        regions += [Region(key, 30 + i, key.title(), "outer") for i, key in enumerate(OUTER if players == 4 else ())]
        regions += [Region(f"lake-{i}", i, f"Lake {i}", "lake") for i in range(1, 5)]
        self.regions = {region.key: region for region in regions}
        self.players = players
        links = {key: set() for key in self.regions}
        for i, key in enumerate(valley):
            links[key].add(valley[(i + 1) % len(valley)])
            links[valley[(i + 1) % len(valley)]].add(key)
        for capital, near in NEAR_CAPITAL.items():
            for key in near:
                key = MERGED if key == "tlatelolco" and players == 3 else key
                if capital in links and key in links:
                    links[capital].add(key)
                    links[key].add(capital)
        self.links = links

    def land(self) -> list[Region]:
        return [r for r in self.regions.values() if r.kind != "lake"]

    def valley(self) -> list[Region]:
        return [r for r in self.regions.values() if r.kind == "valley"]

    def outer(self) -> list[Region]:
        return [r for r in self.regions.values() if r.kind == "outer"]

    def lakes(self) -> list[Region]:
        return [r for r in self.regions.values() if r.kind == "lake"]

    def capital(self, people: str) -> Region:
        return next(r for r in self.regions.values() if r.people == people)

    def neighbours(self, key: str) -> frozenset[str]:
        return frozenset(self.links[key])

    def dike_links(self) -> tuple[tuple[str, str], ...]:
        return tuple(("tenochtitlan", shore) for shore in DIKES) if self.players == 4 else ()

    def by_number(self, number: int, *, lake: bool = False) -> Region:
        for region in self.regions.values():
            if region.number == number and (region.kind == "lake") == lake:
                return region
        raise KeyError(number)


SEATS4 = ("aztecs", "toltecs", "chichimecs", "tepanecs")
SEATS3 = ("toltecs", "chichimecs", "tepanecs")


def new_game(players: int = 4, seed: int | str = 1, options: dict[str, Any] | None = None,
             seats: tuple[str, ...] | None = None, edition: Any = None) -> AztecaState:
    record: dict[str, Any] = {"game": "azteca", "seed": seed,
                              "players": list(seats or (SEATS4 if players == 4 else SEATS3))}
    if options:
        record["options"] = options
    if edition is not None:
        record["edition"] = edition
    return AztecaState(setup_from_record(record, StandInGeography(len(record["players"]))))


def order(state: AztecaState, seat: str, text: str) -> None:
    for parsed in state.parse(text):
        state.apply(seat, parsed)


EVEN_CHART = "army A 3w 1j, B 3w 1j, C 2w 1j, R 2w"


def through_setup(state: AztecaState) -> AztecaState:
    """Setup played plainly: the dike to Tizapan, even charts, each marker on the first
    territory it may take."""
    while state.phase == "setup":
        s = state.waiting()[0]
        kind = state.owed[s]
        seat = state.seats[s]
        if kind == "dike":
            order(state, seat, "dike tizapan")
        elif kind == "army":
            order(state, seat, EVEN_CHART)
        else:
            order(state, seat, f"place {state.legal(s)['territories'][0]}")
    return state


def to_phase(state: AztecaState, phase: str, answer: dict[str, str] | None = None) -> AztecaState:
    """Play on with plain answers (no purchases, no bids, no offers, no army moves; `answer` by kind) until
    the game is in `phase`."""
    plain = {"cards": "keep", "purchase": "buy nothing", "look": "look 1 2", "bid": "bid none",
             "rebid": "bid none", "mission": "mission none", "attack": "attack none", "join": "join neutral",
             "fight": "stop", "plan": "plan none", "march": "pass", "urn": "quetzalcoatl 0",
             "tezcatlipoca": "tezcatlipoca 0", **(answer or {})}
    through_setup(state)
    while state.phase != phase and not state.is_over():
        s = state.waiting()[0]
        kind = state.owed[s]
        order(state, state.seats[s], plain.get(kind) or plain_sheet(state, s))
    return state


def plain_sheet(state: AztecaState, s: int) -> str:
    """The phase-5 sheet that keeps the pochtecas at home and puts every boat in lake zone 1."""
    boats = state.legal(s)["boats"]
    return f"send {boats}B1" if boats else "send nothing"


def events(state: AztecaState, kind: str, reader: str | None = None) -> list[dict[str, Any]]:
    view = state.view(reader)
    return [event for event in view["events"] if event["type"] == kind]


def judge(state: AztecaState, urn: dict[str, int] | None = None, tezcatlipoca: dict[str, int] | None = None) -> None:
    """The Judgement of the Gods with these offers (0 for a seat not named)."""
    assert state.phase == "judgement", state.phase
    for kind, offers in (("urn", urn or {}), ("tezcatlipoca", tezcatlipoca or {})):
        god = "quetzalcoatl" if kind == "urn" else "tezcatlipoca"
        for s in list(state.waiting()):
            assert state.owed[s] == kind
            seat = state.seats[s]
            order(state, seat, f"{god} {offers.get(seat, 0)}")


def next_judgement(state: AztecaState, **offers: dict[str, int]) -> None:
    """Judge this turn with the offers, then play plainly to the next turn's judgement."""
    judge(state, **offers)
    if not state.is_over():
        to_phase(state, "purchase")
        to_phase(state, "judgement")


def edition_with(**changes: Any) -> dict[str, Any]:
    """The packaged edition's data with some parts replaced (dice, Expedition cards...)."""
    import json
    from importlib import resources
    data = json.loads(resources.files("engine.azteca").joinpath("data", "edition.json").read_text("utf-8"))
    return {**data, **changes}


def dice(red: str = "blank", yellow: str = "blank") -> dict[str, Any]:
    """Dice whose every face is the one given: the lance or not, for certain."""
    return {"white": [str(n) for n in range(1, 7)], "red": [red] * 6, "yellow": [yellow] * 6}


def at_pochtecas(pochtecas: dict[str, int] | None = None, tributes: dict[str, int] | None = None,
                 **game: Any) -> AztecaState:
    """Turn 1 at the phase-5 sheet, every seat holding its one boat, the pochtecas and Tributes given."""
    state = to_phase(new_game(**game), "pochtecas")
    for seat, count in (pochtecas or {}).items():
        state.people[state.seats.index(seat)].pochtecas = count
    for seat, count in (tributes or {}).items():
        state.people[state.seats.index(seat)].tributes = count
    return state


def sheets(state: AztecaState, written: dict[str, str]) -> None:
    """Every seat asked writes its sheet: the pochtecas as given, its boats as given or in zone 1."""
    for s in list(state.waiting()):
        seat = state.seats[s]
        text = written.get(seat, "")
        if not re.search(r"\dB\d", text):
            boats = state.legal(s)["boats"]
            text = ", ".join(part for part in (text, f"{boats}B1" if boats else "") if part)
        order(state, seat, f"send {text}" if text else "send nothing")
