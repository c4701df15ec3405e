"""A seeded generator of original Aztlán boards (the printed board is not public).

The land is a disc of small hexagonal cells.  Two small clusters of cells become
lakes; the rest is grown into 30 compact territories from well-spread seeds.  A
layout is kept only if every territory has a sensible number of land neighbours.
Types (6 of each) are then placed by local search so that neighbours, and the
shores of one lake, rarely share a type.  Finally the shared cell corners are
jittered, the borders smoothed and the whole land gently warped, so the map
looks hand-drawn while neighbouring polygons still share their borders exactly.

Everything depends only on `random.Random(seed)`, so a seed always gives the
same board.
"""
from __future__ import annotations

import json
import math
import random
from typing import Any

from engine.aztlan.board import FORMAT, TERRAIN_TYPES

# Original names built from Nahuatl words (-tlan, -pan, -co: "place of";
# tepe: hill; atl: water; cuauh: eagle; ocelo: jaguar; xochi: flower...).
TERRITORY_NAMES = (
    "Ocelotlan", "Cuauhtzinco", "Coatepetl", "Itztlalpan", "Mixcoapan", "Citlaltepec",
    "Tochtlan", "Mazatzinco", "Quetzalapan", "Tecolotlan", "Huitzilac", "Chalchiuhco",
    "Zacatepec", "Iztaccalco", "Popocatlan", "Teocalpan", "Nopaltzinco", "Ollintepec",
    "Atlauhco", "Tlalocan", "Xiuhcoac", "Ehecatlan", "Tezcapan", "Amatlán",
    "Ahuehuetlan", "Ixtlahuacan", "Tonatiuhco", "Tlapallan", "Coyotepec", "Ayotzinco",
    "Temazcalco", "Michapan", "Yohualtepec", "Chicomoztoc", "Tecpantlan", "Ozomatlan",
    "Cipactlan", "Xalapan", "Tlacuilco", "Malinaltepec", "Huehuetlan", "Calpolco",
    "Tozcatlan", "Ocotlán", "Texcaltitlan", "Papaloapan", "Quiahuiztlan", "Tzompanco",
    "Acocolco", "Zoquiapan", "Tlachco", "Cuicatlán", "Itzcuintlan", "Nexapan",
    "Tlilancalco", "Chapoltzinco", "Iztapan", "Metzatlan", "Tecuanipan", "Xochimilpan",
)
LAKE_NAMES = (
    "Lake Tezcatl", "Lake Chalchiuhatl", "Lake Meztliapan", "Lake Citlalatl",
    "Lake Quetzalatl", "Lake Ayauhcalli", "Lake Xalatl", "Lake Atezcapan",
)

PER_TYPE = 6
LAKES = 2
TERRITORIES = PER_TYPE * len(TERRAIN_TYPES)
MIN_DEGREE, MIN_INTERIOR_DEGREE, MAX_DEGREE = 2, 4, 6

SIZE = 1000  # width and height of the drawing space
LAND_RADIUS = 460.0  # the land's greatest radius in the drawing space
DISC = 12.6  # the land's radius in cell units (a cell's corner radius is 1): ~200 cells
JITTER = 0.25  # how far a cell corner may move, in cell units
SMOOTHING = 3  # passes of border smoothing
WIGGLE = 0.12  # how far the middle of a border side may bulge, as a share of its length
MAX_ATTEMPTS = 500
RELAX = 1  # rounds of Lloyd's relaxation of the territory seeds

Cell = tuple[int, int]  # axial hex coordinates (q, r)
Key = tuple[int, int]  # a cell corner on the integer lattice (x * 2/sqrt3, y * 2)
Vec = tuple[float, float]

# Corners of a pointy-top hexagon, in order round the cell, on the corner lattice,
# and the axial step to the cell across each side (corner i to corner i + 1).
_CORNERS = ((0, 2), (1, 1), (1, -1), (0, -2), (-1, -1), (-1, 1))
_SIDES = ((0, 1), (1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1))
_ROOT3 = math.sqrt(3.0)


def _centre(cell: Cell) -> Vec:
    q, r = cell
    return _ROOT3 * (q + r / 2), 1.5 * r


def _corners(cell: Cell) -> list[Key]:
    q, r = cell
    return [(2 * q + r + dx, 3 * r + dy) for dx, dy in _CORNERS]


def _make_disc() -> tuple[list[Cell], dict[Cell, list[Cell]]]:
    span = int(DISC) + 2
    cells = [(q, r) for r in range(-span, span + 1) for q in range(-2 * span, 2 * span + 1)
             if math.hypot(*_centre((q, r))) <= DISC]
    inside = set(cells)
    near = {c: [(c[0] + dq, c[1] + dr) for dq, dr in _SIDES if (c[0] + dq, c[1] + dr) in inside]
            for c in cells}
    return cells, near


_CELLS, _NEAR = _make_disc()
_COAST_CELLS = frozenset(c for c in _CELLS if len(_NEAR[c]) < 6)


def _distance(a: Cell, b: Cell) -> float:
    (ax, ay), (bx, by) = _centre(a), _centre(b)
    return math.hypot(ax - bx, ay - by)


# --- layout: which cell belongs to which territory or lake ------------------

class _Layout:
    """Owners of cells: 0..TERRITORIES-1 are territories, then the lakes."""

    def __init__(self, owner: dict[Cell, int]):
        self.owner = owner
        regions = TERRITORIES + LAKES
        self.cells: list[list[Cell]] = [[] for _ in range(regions)]
        for cell in _CELLS:
            self.cells[owner[cell]].append(cell)
        self.touch: list[set[int]] = [set() for _ in range(regions)]
        for cell in _CELLS:
            for other in _NEAR[cell]:
                if owner[other] != owner[cell]:
                    self.touch[owner[cell]].add(owner[other])
        self.adjacent = [{o for o in self.touch[t] if o < TERRITORIES} for t in range(TERRITORIES)]
        self.shores = [sorted(self.touch[TERRITORIES + k]) for k in range(LAKES)]
        self.coastal = [any(c in _COAST_CELLS for c in self.cells[t]) for t in range(TERRITORIES)]

    def acceptable(self) -> bool:
        for t in range(TERRITORIES):
            low = MIN_DEGREE if self.coastal[t] else MIN_INTERIOR_DEGREE
            if not low <= len(self.adjacent[t]) <= MAX_DEGREE:
                return False
        if any(len(shore) < 3 for shore in self.shores):
            return False
        # A region enclosing another would need a polygon with a hole.
        return all(len(_outlines(self, r)) == 1 for r in range(TERRITORIES + LAKES))


def _place_lakes(rng: random.Random, owner: dict[Cell, int]) -> None:
    """Small compact lakes well inland, on roughly opposite sides of the centre."""
    angle = rng.random() * math.tau
    for k in range(LAKES):
        angle += math.tau / LAKES + rng.uniform(-0.5, 0.5)
        reach = rng.uniform(0.3, 0.55) * DISC
        spot = (reach * math.cos(angle), reach * math.sin(angle))
        centre = min(_CELLS, key=lambda c: math.dist(_centre(c), spot))
        lake = TERRITORIES + k
        owner[centre] = lake
        size, cells = rng.randint(4, 6), [centre]
        while len(cells) < size:
            options = [n for c in cells for n in _NEAR[c] if n not in owner
                       and n not in _COAST_CELLS
                       and all(owner.get(m, lake) == lake for m in _NEAR[n])]
            if not options:
                break
            # Favour cells touching the lake twice: round lakes, not snakes.
            best = max(sorted(options),
                       key=lambda n: sum(owner.get(m) == lake for m in _NEAR[n]) + rng.random())
            owner[best] = lake
            cells.append(best)


def _place_seeds(rng: random.Random, owner: dict[Cell, int]) -> list[Cell]:
    """Mitchell's best-candidate sampling: seeds spread out but not on a grid."""
    free = [c for c in _CELLS if c not in owner]
    seeds: list[Cell] = []
    for t in range(TERRITORIES):
        candidates = rng.sample(free, 10)
        best = max(candidates, key=lambda c: min((_distance(c, s) for s in seeds), default=0.0))
        seeds.append(best)
        free.remove(best)
        owner[best] = t
    return seeds


def _grow(rng: random.Random, owner: dict[Cell, int], seeds: list[Cell]) -> None:
    """Grow the territories one cell at a time, the smallest first, keeping them compact."""
    size = [1] * TERRITORIES
    cells: list[list[Cell]] = [[s] for s in seeds]
    stuck: set[int] = set()
    while len(owner) < len(_CELLS):
        growing = [t for t in range(TERRITORIES) if t not in stuck]
        smallest = min(size[t] for t in growing)
        t = rng.choice([t for t in growing if size[t] == smallest])
        frontier = {n for c in cells[t] for n in _NEAR[c] if n not in owner}
        if not frontier:
            stuck.add(t)
            continue

        def score(n: Cell) -> float:
            hugs = sum(owner.get(m) == t for m in _NEAR[n])
            return hugs - 0.35 * _distance(n, seeds[t]) + 0.8 * rng.random()

        best = max(sorted(frontier), key=score)
        owner[best] = t
        cells[t].append(best)
        size[t] += 1


def _layout(rng: random.Random) -> _Layout:
    for _ in range(MAX_ATTEMPTS):
        lakes: dict[Cell, int] = {}
        _place_lakes(rng, lakes)
        owner = dict(lakes)
        seeds = _place_seeds(rng, owner)
        _grow(rng, owner, seeds)
        for _ in range(RELAX):  # Lloyd's relaxation: even, compact territories
            seeds = _centroid_cells(owner)
            owner = dict(lakes)
            owner.update((s, t) for t, s in enumerate(seeds))
            _grow(rng, owner, seeds)
        layout = _Layout(owner)
        if layout.acceptable():
            return layout
    raise RuntimeError("no acceptable board layout found")  # not seen in practice


def _centroid_cells(owner: dict[Cell, int]) -> list[Cell]:
    """For each territory, its cell nearest the middle of its cells."""
    cells: list[list[Cell]] = [[] for _ in range(TERRITORIES)]
    for cell, t in owner.items():
        if t < TERRITORIES:
            cells[t].append(cell)
    middles = []
    for group in cells:
        mx = sum(_centre(c)[0] for c in group) / len(group)
        my = sum(_centre(c)[1] for c in group) / len(group)
        middles.append(min(sorted(group), key=lambda c: math.dist(_centre(c), (mx, my))))
    return middles


def _outlines(layout: _Layout, region: int) -> list[list[Key]]:
    """The boundary loops of a region, as corner keys in order."""
    owner = layout.owner
    step: dict[Key, Key] = {}
    for cell in layout.cells[region]:
        corners = _corners(cell)
        for i, cell_next in enumerate(_across(cell)):
            if owner.get(cell_next) != region:
                step[corners[i]] = corners[(i + 1) % 6]
    loops = []
    while step:
        start = min(step)
        loop, at = [start], step.pop(start)
        while at != start:
            loop.append(at)
            at = step.pop(at)
        loops.append(loop)
    return loops


def _across(cell: Cell) -> list[Cell]:
    """The cell (maybe outside the land) across each side of a cell, in corner order."""
    q, r = cell
    return [(q + dq, r + dr) for dq, dr in _SIDES]


# --- types -------------------------------------------------------------------

def _assign_types(rng: random.Random, layout: _Layout) -> list[str]:
    """6 of each type, with as few same-type neighbours as local search can find.

    Costs: neighbours over land 100, two shores of one lake 20 (Rafts and Canoes
    joins them), two steps apart 1 (spread types over the whole map), and an
    uneven share of coastal territories per type.
    """
    weight: list[dict[int, int]] = [{} for _ in range(TERRITORIES)]

    def add(a: int, b: int, w: int) -> None:
        weight[a][b] = weight[a].get(b, 0) + w
        weight[b][a] = weight[b].get(a, 0) + w

    for a in range(TERRITORIES):
        for b in layout.adjacent[a]:
            if a < b:
                add(a, b, 100)
        two_steps = {c for b in layout.adjacent[a] for c in layout.adjacent[b]} - layout.adjacent[a]
        for c in two_steps:
            if a < c:
                add(a, c, 1)
    for shore in layout.shores:
        for i, a in enumerate(shore):
            for b in shore[i + 1:]:
                add(a, b, 20)

    kinds = len(TERRAIN_TYPES)
    types = [t % kinds for t in range(TERRITORIES)]
    rng.shuffle(types)
    coastal = layout.coastal
    on_coast = [sum(1 for t in range(TERRITORIES) if coastal[t] and types[t] == k) for k in range(kinds)]

    def delta(i: int, j: int) -> float:
        ti, tj = types[i], types[j]
        d = 0.0
        for n, w in weight[i].items():
            if n != j:
                d += w * ((types[n] == tj) - (types[n] == ti))
        for n, w in weight[j].items():
            if n != i:
                d += w * ((types[n] == ti) - (types[n] == tj))
        if coastal[i] != coastal[j]:  # one coastal place changes type
            gain, lose = (tj, ti) if coastal[i] else (ti, tj)
            d += 5 * ((on_coast[gain] + 1) ** 2 + (on_coast[lose] - 1) ** 2
                      - on_coast[gain] ** 2 - on_coast[lose] ** 2)
        return d

    steps = 6000
    for s in range(steps):
        temperature = 20.0 * (1 - s / steps) + 0.05
        i, j = rng.randrange(TERRITORIES), rng.randrange(TERRITORIES)
        if types[i] == types[j]:
            continue
        d = delta(i, j)
        if d <= 0 or rng.random() < math.exp(-d / temperature):
            if coastal[i] != coastal[j]:
                gain, lose = (types[j], types[i]) if coastal[i] else (types[i], types[j])
                on_coast[gain] += 1
                on_coast[lose] -= 1
            types[i], types[j] = types[j], types[i]
    return [TERRAIN_TYPES[k] for k in types]


# --- geometry ----------------------------------------------------------------

def _border_links(layout: _Layout) -> dict[Key, set[Key]]:
    """For each corner on a border (between owners, or land and sea), the corners it joins."""
    links: dict[Key, set[Key]] = {}
    for cell in _CELLS:
        corners = _corners(cell)
        for i, across in enumerate(_across(cell)):
            if layout.owner.get(across) != layout.owner[cell]:
                a, b = corners[i], corners[(i + 1) % 6]
                links.setdefault(a, set()).add(b)
                links.setdefault(b, set()).add(a)
    return links


def _corner_positions(rng: random.Random, layout: _Layout) -> dict[Key, Vec]:
    """Corner positions in the drawing space: jittered, smoothed, warped, rounded."""
    keys = sorted({key for cell in _CELLS for key in _corners(cell)})
    pos: dict[Key, Vec] = {}
    for key in keys:
        angle, reach = rng.random() * math.tau, JITTER * math.sqrt(rng.random())
        pos[key] = (key[0] * _ROOT3 / 2 + reach * math.cos(angle), key[1] / 2 + reach * math.sin(angle))

    # Smooth each border between two owners; corners where three meet stay put,
    # so both sides of a border keep sharing exactly the same points.
    links = [(key, tuple(sorted(ends))) for key, ends in sorted(_border_links(layout).items())
             if len(ends) == 2]
    for _ in range(SMOOTHING):
        moved = dict(pos)
        for key, (a, b) in links:
            (x, y), (ax, ay), (bx, by) = pos[key], pos[a], pos[b]
            moved[key] = (0.5 * x + 0.25 * (ax + bx), 0.5 * y + 0.25 * (ay + by))
        pos = moved

    # A gentle warp by a few random waves makes the coast an irregular round island.
    waves = [(k, rng.uniform(0.03, 0.06) / math.sqrt(k), rng.random() * math.tau) for k in (2, 3, 5, 7)]
    for key, (x, y) in pos.items():
        angle, radius = math.atan2(y, x), math.hypot(x, y)
        bulge = 1 + sum(a * math.sin(k * angle + phase) for k, a, phase in waves) * (radius / DISC) ** 2
        pos[key] = (x * bulge, y * bulge)
    scale = LAND_RADIUS / max(math.hypot(x, y) for x, y in pos.values())
    return {key: (round(SIZE / 2 + x * scale, 1), round(SIZE / 2 + y * scale, 1))
            for key, (x, y) in pos.items()}


def _wiggles(rng: random.Random, layout: _Layout, pos: dict[Key, Vec]) -> dict[tuple[Key, Key], Vec]:
    """A point near the middle of every border side, pushed sideways a little.

    Keyed by the side's two corners (sorted), so both neighbours draw the same curve.
    """
    sides = sorted({(a, b) for a, ends in _border_links(layout).items() for b in ends if a < b})
    out = {}
    for a, b in sides:
        (ax, ay), (bx, by) = pos[a], pos[b]
        push = rng.uniform(-WIGGLE, WIGGLE)  # times the side's length, along its normal
        out[a, b] = (round((ax + bx) / 2 - (by - ay) * push, 1),
                     round((ay + by) / 2 + (bx - ax) * push, 1))
    return out


def _outline(loop: list[Key], pos: dict[Key, Vec], wiggles: dict[tuple[Key, Key], Vec]) -> list[Vec]:
    points = []
    for a, b in zip(loop, loop[1:] + loop[:1]):
        points += [pos[a], wiggles[min(a, b), max(a, b)]]
    return points


def _inside(point: Vec, polygon: list[Vec]) -> bool:
    x, y = point
    inside = False
    for (ax, ay), (bx, by) in zip(polygon, polygon[1:] + polygon[:1]):
        if (ay > y) != (by > y) and x < ax + (y - ay) * (bx - ax) / (by - ay):
            inside = not inside
    return inside


def _clearance(point: Vec, polygon: list[Vec]) -> float:
    """Distance from a point to the nearest side of a polygon."""
    x, y = point
    best = math.inf
    for (ax, ay), (bx, by) in zip(polygon, polygon[1:] + polygon[:1]):
        dx, dy = bx - ax, by - ay
        t = max(0.0, min(1.0, ((x - ax) * dx + (y - ay) * dy) / (dx * dx + dy * dy or 1.0)))
        best = min(best, math.hypot(x - ax - t * dx, y - ay - t * dy))
    return best


def _label(cells: list[Cell], polygon: list[Vec], pos: dict[Key, Vec]) -> Vec:
    """The point deepest inside the territory among its cell centres and their midpoints."""
    centres = {c: (sum(pos[k][0] for k in _corners(c)) / 6, sum(pos[k][1] for k in _corners(c)) / 6)
               for c in cells}
    candidates = list(centres.values()) + [
        ((centres[a][0] + centres[b][0]) / 2, (centres[a][1] + centres[b][1]) / 2)
        for a in cells for b in _NEAR[a] if b in centres and a < b]
    best = max((p for p in candidates if _inside(p, polygon)),
               key=lambda p: _clearance(p, polygon))
    return round(best[0], 1), round(best[1], 1)


def generate_board(seed: int | str, *, name: str = "generated",
                   title: str = "The Land of Aztlán") -> dict[str, Any]:
    """A new board in the aztlan-board/1 format: 30 territories, 6 of each type, 2 lakes.

    The same seed always gives the same board.
    """
    rng = random.Random(seed)
    layout = _layout(rng)
    types = _assign_types(rng, layout)
    pos = _corner_positions(rng, layout)
    wiggles = _wiggles(rng, layout, pos)
    outlines = [_outline(_outlines(layout, region)[0], pos, wiggles)
                for region in range(TERRITORIES + LAKES)]
    labels = [_label(layout.cells[t], outlines[t], pos) for t in range(TERRITORIES)]

    # Number territories in reading order (bands from the top, left to right) so
    # that a number is easy to find on the map.
    band = SIZE / 7
    order = sorted(range(TERRITORIES), key=lambda t: (int(labels[t][1] // band), labels[t][0]))
    ident = {t: i + 1 for i, t in enumerate(order)}
    names = rng.sample(TERRITORY_NAMES, TERRITORIES)
    lake_names = rng.sample(LAKE_NAMES, LAKES)
    lake_order = sorted(range(LAKES), key=lambda k: min(y for _, y in outlines[TERRITORIES + k]))
    return {
        "format": FORMAT,
        "name": name,
        "title": title,
        "width": SIZE,
        "height": SIZE,
        "territories": [
            {"id": ident[t], "name": names[i], "type": types[t],
             "neighbours": sorted(ident[n] for n in layout.adjacent[t]),
             "polygon": [list(p) for p in outlines[t]], "label": list(labels[t])}
            for i, t in enumerate(order)],
        "lakes": [
            {"id": i + 1, "name": lake_names[i],
             "shores": sorted(ident[t] for t in layout.shores[k]),
             "polygon": [list(p) for p in outlines[TERRITORIES + k]]}
            for i, k in enumerate(lake_order)],
    }


def board_json(data: dict[str, Any]) -> str:
    """A board as JSON text that stays readable: one line per territory, its polygon on the next."""
    def line(value: Any) -> str:
        return json.dumps(value, ensure_ascii=False)

    head = {k: v for k, v in data.items() if k not in ("territories", "lakes")}
    out = ["{"] + [f"  {line(k)}: {line(v)}," for k, v in head.items()]
    for key in ("territories", "lakes"):
        items = []
        for item in data.get(key, []):
            polygon = item.get("polygon")
            rest = {k: v for k, v in item.items() if k != "polygon"}
            text = line(rest)
            if polygon is not None:
                text = f"{text[:-1]},\n     \"polygon\": {line(polygon)}}}"
            items.append("    " + text)
        out.append(f"  {line(key)}: [\n" + ",\n".join(items) + "\n  ],")
    out[-1] = out[-1].rstrip(",")
    return "\n".join(out) + "\n}\n"
