"""Azteca's map: the Valley of Mexico c. 1450, its territories, lake zones, dikes and paths.

The printed board is not public, so engine/azteca/data/map.json is an original map drawn from
the historical geography and held to every fact the rules give (docs/rules-azteca.md, "The
map"). This module reads that file (the only file it reads), checks it, and answers the
questions the rules ask of the board: who borders whom, which lake zones a city's harbour opens
on, where an army may go in one move, whether a chain of territories and lake zones joins two
places. Ownership, boats and lake control are the engine's: the path helpers take them as
predicates, so this module stays a pure description of the land.

`geography(4)` is the full map; `geography(3)` the map of section 16 (no Aztecs: Tenochtitlan
and Tlatelolco one marsh territory, the outer valleys out of play, no dikes).
"""
from __future__ import annotations

import json
from collections import deque
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from types import MappingProxyType
from typing import Any, Callable, Iterable, Iterator, Mapping

from engine.core import SetupError

KINDS = ("capital", "valley", "outer", "lake")
TERRAINS = (None, "mountain", "marsh")
PEOPLES = ("aztecs", "toltecs", "chichimecs", "tepanecs")
ARMY_STEPS = 3  # 14.3: "Armies move up to 3 territories."

Point = tuple[float, float]
Link = tuple[str, str]  # a dike junction: (Tenochtitlan, shore)
Dikes = Iterable[Link | str]  # the dikes built: junctions, or the shores they join to Tenochtitlan
Predicate = Callable[[str], bool]


def _never(_key: str) -> bool:
    return False


@dataclass(frozen=True, slots=True)
class Region:
    key: str            # slug, e.g. "texcoco", "lake-1"
    number: int         # the number orders use (pochteca "A11"; boats "2B4" use lake numbers 1-4)
    name: str           # for people: "Texcoco"
    kind: str           # "capital" | "valley" | "outer" | "lake"
    terrain: str | None  # None | "mountain" | "marsh" (chinampas are "marsh")
    people: str | None  # capitals only: "aztecs" | "toltecs" | "chichimecs" | "tepanecs"
    lakes: tuple[str, ...]  # lake zones this land region touches (non-empty = it has a harbour)
    chinampas: bool = False  # floating gardens: drawn as such, fought over as a marsh (4.0)

    @property
    def is_lake(self) -> bool:
        return self.kind == "lake"

    @property
    def harbour(self) -> bool:
        """4.0: every city-state that borders the lake has a harbour."""
        return bool(self.lakes)


@dataclass(frozen=True, slots=True)
class Shape:
    """How a region is drawn: a polygon in the map's view box and where its name goes."""

    points: tuple[Point, ...]
    label: Point


class Geography:
    """The map for a number of players: regions, adjacency, dikes, shapes and path finding."""

    def __init__(self, players: int, regions: Mapping[str, Region], land_links: Mapping[str, frozenset[str]],
                 lake_links: Mapping[str, frozenset[str]], dikes: tuple[Link, ...],
                 shapes: Mapping[str, Shape], dike_paths: Mapping[Link, tuple[Point, ...]],
                 view_box: tuple[float, float, float, float], title: str) -> None:
        self.players = players
        self.regions: Mapping[str, Region] = MappingProxyType(dict(regions))
        self._land = MappingProxyType(dict(land_links))
        self._lake = MappingProxyType(dict(lake_links))
        self._dikes = dikes
        self._shapes = MappingProxyType(dict(shapes))
        self._dike_paths = MappingProxyType(dict(dike_paths))
        self.view_box = view_box
        self.title = title
        self._numbers = {(r.is_lake, r.number): r for r in regions.values()}

    # --- the regions ---------------------------------------------------------------------

    def _of(self, *kinds: str) -> list[Region]:
        return sorted((r for r in self.regions.values() if r.kind in kinds), key=lambda r: r.number)

    def land(self) -> list[Region]:
        """Every non-lake region in play, by number."""
        return self._of("capital", "valley", "outer")

    def valley(self) -> list[Region]:
        """5.1: the 13 territories of the Valley of Mexico that take population markers."""
        return self._of("valley")

    def outer(self) -> list[Region]:
        """Tula, Toluca, Oaxtepec, Tlaxcala (none with 3 players: section 16)."""
        return self._of("outer")

    def lakes(self) -> list[Region]:
        """The 4 lake zones, numbered 1-4."""
        return self._of("lake")

    def capitals(self) -> list[Region]:
        return self._of("capital")

    def capital(self, people: str) -> Region:
        for region in self.regions.values():
            if region.people == people:
                return region
        raise KeyError(f"no capital of {people!r} on the {self.players}-player map")

    def region(self, key: str) -> Region:
        try:
            return self.regions[key]
        except KeyError:
            raise KeyError(f"no region {key!r} on the {self.players}-player map") from None

    def by_number(self, number: int, *, lake: bool = False) -> Region:
        """The land region (or, with lake=True, the lake zone) an order's number names."""
        try:
            return self._numbers[(lake, number)]
        except KeyError:
            what = "lake zone" if lake else "territory"
            raise KeyError(f"no {what} numbered {number} on the {self.players}-player map") from None

    # --- adjacency -----------------------------------------------------------------------

    def neighbours(self, key: str, dikes: Dikes = ()) -> frozenset[str]:
        """Land regions bordering `key` by land; the built `dikes` add their links (13.3)."""
        near = self._land.get(self.region(key).key, frozenset())
        extra = {b if a == key else a for a, b in self._built(dikes) if key in (a, b)}
        return near | extra

    def lake_neighbours(self, key: str) -> frozenset[str]:
        """A land region: the lake zones its harbour opens on. A lake zone: the zones touching it."""
        region = self.region(key)
        return self._lake[key] if region.is_lake else frozenset(region.lakes)

    def shores(self, zone: str) -> frozenset[str]:
        """The land regions with a harbour on lake zone `zone` (where boats may land troops)."""
        self.region(zone)
        return frozenset(r.key for r in self.regions.values() if zone in r.lakes)

    def touching(self, key: str, dikes: Dikes = ()) -> frozenset[str]:
        """Every region next to `key`, by land or water (14.4: an army intercepts in "an adjacent
        territory (ground or lake)"): a land region's land neighbours and lake zones, a lake zone's
        zones and shores."""
        if self.region(key).is_lake:
            return self._lake[key] | self.shores(key)
        return self.neighbours(key, dikes) | self.lake_neighbours(key)

    def dike_links(self) -> tuple[Link, ...]:
        """5.0 / 13.3: the 3 junctions a dike may take, Tenochtitlan to a shore (none with 3 players)."""
        return self._dikes

    def _built(self, dikes: Dikes) -> set[Link]:
        built = set()
        for link in dikes:  # a junction as a pair, or as the shore it joins to Tenochtitlan
            pair = ("tenochtitlan", link) if isinstance(link, str) else tuple(link)
            if pair in self._dikes:
                built.add(pair)
            elif pair[::-1] in self._dikes:
                built.add(pair[::-1])
            else:
                raise ValueError(f"{pair!r} is not one of the dike junctions {list(self._dikes)}")
        return built

    def adjacent_to_capital(self, people: str, dikes: Dikes = ()) -> frozenset[str]:
        """5.1: the two territories adjacent to a capital (for the Aztecs, "the dike determines"
        them: Tlatelolco and the shore of the dike built)."""
        return self.neighbours(self.capital(people).key, dikes)

    # --- drawing -------------------------------------------------------------------------

    def shape(self, key: str) -> Shape:
        return self._shapes[self.region(key).key]

    def dike_path(self, link: Link) -> tuple[Point, ...]:
        """The line a dike is drawn along (from Tenochtitlan to its shore)."""
        (pair,) = self._built([link])
        return self._dike_paths[pair]

    # --- moving --------------------------------------------------------------------------

    def _steps_from(self, key: str, dikes: set[Link], may_cross_lake: Predicate) -> Iterator[tuple[str, ...]]:
        """Every way to enter one next land region from land region `key`: by land (a route of
        one region) or through a chain of crossable lake zones and a landing (zones..., shore)."""
        for near in sorted(self.neighbours(key, dikes)):
            yield (near,)
        start = [z for z in sorted(self.region(key).lakes) if may_cross_lake(z)]
        stack = [(z,) for z in reversed(start)]
        while stack:
            zones = stack.pop()
            for shore in sorted(self.shores(zones[-1]) - {key}):
                yield (*zones, shore)
            for onward in sorted(self._lake[zones[-1]] - set(zones), reverse=True):
                if may_cross_lake(onward):
                    stack.append((*zones, onward))

    def paths(self, start: str, steps: int = ARMY_STEPS, *, stop_at: Predicate = _never,
              may_cross_lake: Predicate = _never, dikes: Dikes = ()) -> Iterator[tuple[str, ...]]:
        """Every route an army may take from `start` (14.3): up to `steps` land regions entered,
        stopping on the first one where `stop_at` holds (neutral or enemy land), through lake
        zones only where `may_cross_lake` holds (own boats there, and the controller consents or
        nobody controls it). A route lists every region passed, lake zones included, and ends on
        land; crossing lake zones costs no step, landing enters a territory. No region twice."""
        built = self._built(dikes)
        self.region(start)

        def extend(route: tuple[str, ...], left: int) -> Iterator[tuple[str, ...]]:
            for leg in self._steps_from(route[-1], built, may_cross_lake):
                if set(leg) & set(route):
                    continue
                longer = route + leg
                yield longer
                if left > 1 and not stop_at(leg[-1]):
                    yield from extend(longer, left - 1)

        yield from extend((start,), steps)

    def reachable(self, start: str, steps: int = ARMY_STEPS, *, stop_at: Predicate = _never,
                  may_cross_lake: Predicate = _never, dikes: Dikes = ()) -> frozenset[str]:
        """The land regions where a move from `start` may end (see paths; `start` not included)."""
        built = self._built(dikes)
        best: dict[str, int] = {start: steps}  # the most steps left on arriving anywhere
        queue = deque([start])
        while queue:
            here = queue.popleft()
            left = best[here]
            if left <= 0 or (here != start and stop_at(here)):
                continue
            for leg in self._steps_from(here, built, may_cross_lake):
                there = leg[-1]
                if best.get(there, -1) < left - 1:
                    best[there] = left - 1
                    queue.append(there)
        return frozenset(best) - {start}

    def is_path(self, route: Iterable[str], steps: int = ARMY_STEPS, *, stop_at: Predicate = _never,
                may_cross_lake: Predicate = _never, dikes: Dikes = ()) -> bool:
        """Whether `route` (as paths gives them: start, regions and lake zones passed, the end)
        is a legal move."""
        route = tuple(route)
        if len(route) < 2 or len(set(route)) != len(route) or any(k not in self.regions for k in route):
            return False
        if self.regions[route[0]].is_lake:
            return False
        built = self._built(dikes)
        entered = 0
        for i in range(1, len(route)):
            here, there = route[i - 1], route[i]
            a, b = self.regions[here], self.regions[there]
            if b.is_lake:
                ok = (there in a.lakes if not a.is_lake else there in self._lake[here]) and may_cross_lake(there)
            elif a.is_lake:
                ok = here in b.lakes
            else:
                ok = there in self.neighbours(here, built)
            if not ok:
                return False
            if not b.is_lake:
                entered += 1
                if entered > steps or (i < len(route) - 1 and stop_at(there)):
                    return False
        return not self.regions[route[-1]].is_lake

    def connected(self, start: str, goal: str, *, through: Predicate,
                  dikes: Dikes = ()) -> bool:
        """Whether a continuous chain of regions (land or lake zones) joins `start` to `goal`
        with every region between them satisfying `through` (14.6 the Reserve's chain of the
        player's territories and lake zones; 14.11 a retreat's chain of boats)."""
        self.region(goal)
        built = self._built(dikes)
        seen = {start}
        queue = deque([start])
        while queue:
            for there in self.touching(queue.popleft(), built) - seen:
                if there == goal:
                    return True
                seen.add(there)
                if through(there):
                    queue.append(there)
        return start == goal


# --- loading ------------------------------------------------------------------------------

def _fail(what: str) -> SetupError:
    return SetupError(f"map.json: {what}")


def _points(raw: Any, where: str) -> tuple[Point, ...]:
    if not isinstance(raw, list) or len(raw) < 2 or not all(
            isinstance(p, list) and len(p) == 2 and all(isinstance(c, (int, float)) for c in p) for p in raw):
        raise _fail(f"{where} needs a list of [x, y] points")
    return tuple((float(x), float(y)) for x, y in raw)


def _region(raw: Mapping[str, Any]) -> tuple[Region, Shape, list[str]]:
    key = raw.get("key")
    if not isinstance(key, str) or not key:
        raise _fail(f"a region without a key: {raw!r:.80}")
    kind, terrain, people = raw.get("kind"), raw.get("terrain"), raw.get("people")
    if kind not in KINDS:
        raise _fail(f"region {key}: kind {kind!r} is not one of {KINDS}")
    if terrain not in TERRAINS or (kind == "lake" and terrain):
        raise _fail(f"region {key}: terrain {terrain!r} is not one of {TERRAINS}")
    if (people is not None) != (kind == "capital") or (people is not None and people not in PEOPLES):
        raise _fail(f"region {key}: only a capital has a people, one of {PEOPLES} (got {people!r})")
    if raw.get("chinampas") and terrain != "marsh":
        raise _fail(f"region {key}: chinampas are treated as marshes (4.0), so its terrain is marsh")
    number = raw.get("number")
    if not isinstance(number, int) or isinstance(number, bool) or number < 1:
        raise _fail(f"region {key}: number {number!r} is not a positive whole number")
    lakes = () if kind == "lake" else tuple(raw.get("lakes") or ())
    links = raw.get("zones" if kind == "lake" else "neighbours") or []
    points = _points(raw.get("shape"), f"region {key}: shape")
    label = _points([raw.get("label"), raw.get("label")], f"region {key}: label")[0]
    region = Region(key=key, number=number, name=str(raw.get("name") or key), kind=kind, terrain=terrain,
                    people=people, lakes=lakes, chinampas=bool(raw.get("chinampas")))
    return region, Shape(points, label), list(links)


def _symmetric(links: Mapping[str, frozenset[str]], keys: Iterable[str], what: str) -> None:
    known = set(keys)
    for key, near in links.items():
        for other in near:
            if other not in known or other == key:
                raise _fail(f"region {key}: {what} {other!r} is not another region of that kind")
            if key not in links.get(other, frozenset()):
                raise _fail(f"{what}: {key} lists {other} but {other} does not list {key}")


def load_map(data: Mapping[str, Any], players: int) -> Geography:
    """The Geography for `players` (3 or 4) from map.json's content; a SetupError names any mistake."""
    if players not in (3, 4):
        raise SetupError(f"Azteca is for 3 or 4 players, not {players}")
    regions: dict[str, Region] = {}
    shapes: dict[str, Shape] = {}
    links: dict[str, list[str]] = {}
    for raw in data.get("regions") or []:
        region, shape, near = _region(raw)
        if region.key in regions:
            raise _fail(f"region {region.key} appears twice")
        regions[region.key], shapes[region.key], links[region.key] = region, shape, near
    zones = [k for k, r in regions.items() if r.is_lake]
    land = [k for k, r in regions.items() if not r.is_lake]
    for key in land:
        for zone in regions[key].lakes:
            if zone not in zones:
                raise _fail(f"region {key}: lake {zone!r} is not a lake zone")
    land_links = {k: frozenset(links[k]) for k in land}
    lake_links = {k: frozenset(links[k]) for k in zones}
    _symmetric(land_links, land, "neighbour")
    _symmetric(lake_links, zones, "lake zone")
    dikes, dike_paths = [], {}
    for raw in data.get("dikes") or []:
        pair = (raw.get("from"), raw.get("to"))
        if pair[0] != "tenochtitlan" or pair[1] not in land or pair[1] in land_links["tenochtitlan"]:
            raise _fail(f"dike {pair!r}: a dike joins Tenochtitlan to a shore it does not border (13.3)")
        dikes.append(pair)
        dike_paths[pair] = _points(raw.get("path"), f"dike {pair!r}: path")
    if players == 3:
        regions, shapes, land_links, dikes = _three_players(data.get("three_players") or {}, regions, shapes,
                                                            land_links)
    numbers = [(r.is_lake, r.number) for r in regions.values()]
    if len(numbers) != len(set(numbers)):
        raise _fail("two regions of the same kind share a number")
    box = data.get("view_box")
    if not (isinstance(box, list) and len(box) == 4 and all(isinstance(v, (int, float)) for v in box)):
        raise _fail("view_box needs [x, y, width, height]")
    return Geography(players, regions, land_links, lake_links, tuple(dikes), shapes,
                     {d: dike_paths[d] for d in dikes}, tuple(float(v) for v in box), str(data.get("title") or ""))


def _three_players(rules: Mapping[str, Any], regions: dict[str, Region], shapes: dict[str, Shape],
                   land_links: dict[str, frozenset[str]]) -> tuple[dict, dict, dict, list]:
    """Section 16: the Aztecs out, Tenochtitlan merged into Tlatelolco as one marsh territory,
    the outer valleys out of play, no dikes."""
    merge = rules.get("merge") or {}
    keep, gone = merge.get("key"), merge.get("absorbs")
    if keep not in regions or gone not in regions:
        raise _fail("three_players.merge needs the key of the merged territory and the one it absorbs")
    out = set(rules.get("out_of_play") or ()) | {gone}
    if out - set(regions):
        raise _fail(f"three_players.out_of_play names unknown regions {sorted(out - set(regions))}")
    merged = regions[keep]
    lakes = tuple(sorted(set(merged.lakes) | set(regions[gone].lakes)))
    regions = {k: r for k, r in regions.items() if k not in out}
    regions[keep] = Region(key=keep, number=merged.number, name=str(merge.get("name") or merged.name),
                           kind=merged.kind, terrain=merge.get("terrain", merged.terrain), people=None,
                           lakes=lakes, chinampas=merged.chinampas)
    (x0, y0), (x1, y1) = shapes[keep].label, shapes[gone].label
    shapes = {k: s for k, s in shapes.items() if k in regions}
    shapes[keep] = Shape(_points(merge.get("shape"), "three_players.merge.shape"), ((x0 + x1) / 2, (y0 + y1) / 2))
    land_links = {k: frozenset(n - out) for k, n in land_links.items() if k in regions}
    return regions, shapes, land_links, []


def _packaged() -> dict[str, Any]:
    return json.loads(resources.files("engine.azteca").joinpath("data", "map.json").read_text("utf-8"))


@lru_cache(maxsize=None)
def geography(players: int) -> Geography:
    """The packaged map for 4 players (the full board) or 3 (section 16)."""
    return load_map(_packaged(), players)
