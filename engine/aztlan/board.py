"""Aztlán boards: the JSON board format, its loader and validator.

The printed board is not public, so a board is data (docs/boards.md).  `load_board`
checks everything the engine relies on and returns an immutable `Board` with
index-based lookup tables precomputed for the rules engine.  Reading packaged
board files is engine/aztlan/data.py's job; this module does no I/O.
"""
from __future__ import annotations

import difflib
import json
import math
import re
import unicodedata
from collections import deque
from dataclasses import dataclass, field
from typing import Any, NoReturn

FORMAT = "aztlan-board/1"
TERRAIN_TYPES = ("desert", "fields", "jungle", "mountains", "city")

# Caps that refuse hostile or absurd input before any real work is done.
MAX_TERRITORIES = 200
MAX_LAKES = 50
MAX_ID = 99_999
MAX_NAME = 40
MAX_TITLE = 100
MAX_POINTS = 1_000  # per polygon
MAX_SIZE = 100_000.0  # width and height of the drawing space

_BOARD_NAME = re.compile(r"[a-z0-9-]+")
# Orders split words on whitespace, ',' and ';' and read '>' as "to": a name
# holding one of these could never be typed in an order.
_FORBIDDEN_IN_NAME = set(",;>")

Point = tuple[float, float]


class BoardError(ValueError):
    """A board that cannot be used, or a territory reference that matches nothing."""


@dataclass(frozen=True, slots=True)
class Territory:
    id: int
    name: str
    type: str
    neighbours: tuple[int, ...]  # land borders only, by territory id
    polygon: tuple[Point, ...] | None = None
    label: Point | None = None


@dataclass(frozen=True, slots=True)
class Lake:
    id: int
    name: str
    shores: tuple[int, ...]  # territory ids
    polygon: tuple[Point, ...] | None = None


def name_key(name: str) -> str:
    """The form names are compared in: no accents, case-folded, single spaces."""
    decomposed = unicodedata.normalize("NFKD", name)
    bare = "".join(c for c in decomposed if not unicodedata.combining(c))
    return " ".join(bare.casefold().split())


@dataclass(frozen=True)
class Board:
    name: str
    title: str
    width: float | None
    height: float | None
    territories: tuple[Territory, ...]  # in file order; a territory's index is its position
    lakes: tuple[Lake, ...] = ()
    # Derived tables for the engine, which works with indices rather than ids.
    index_of: dict[int, int] = field(init=False, repr=False, compare=False)
    ids: tuple[int, ...] = field(init=False, repr=False, compare=False)  # by index
    adjacent: tuple[tuple[int, ...], ...] = field(init=False, repr=False, compare=False)
    type_of: tuple[str, ...] = field(init=False, repr=False, compare=False)
    lake_shores: tuple[frozenset[int], ...] = field(init=False, repr=False, compare=False)
    _keys: tuple[str, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        index_of = {t.id: i for i, t in enumerate(self.territories)}
        derived = {
            "index_of": index_of,
            "ids": tuple(t.id for t in self.territories),
            "adjacent": tuple(tuple(index_of[n] for n in t.neighbours) for t in self.territories),
            "type_of": tuple(t.type for t in self.territories),
            "lake_shores": tuple(frozenset(index_of[s] for s in lake.shores) for lake in self.lakes),
            "_keys": tuple(name_key(t.name) for t in self.territories),
        }
        for key, value in derived.items():
            object.__setattr__(self, key, value)

    def territory(self, ref: int | str) -> int:
        """The index of a territory given by id (int or digits) or by name.

        Names match without regard to case or accents, and an unambiguous prefix is
        enough ("tlal" for "Tlalocan"); an exact name wins over longer names it prefixes.
        """
        if isinstance(ref, str) and ref.strip().isdecimal():
            digits = ref.strip()
            if len(digits) > len(str(MAX_ID)):
                raise BoardError(f"no territory number {digits[:20]}")
            ref = int(digits)
        if isinstance(ref, int) and not isinstance(ref, bool):
            if ref in self.index_of:
                return self.index_of[ref]
            raise BoardError(f"no territory number {ref if abs(ref) <= MAX_ID else 'that large'}")
        if not isinstance(ref, str):
            raise BoardError(f"a territory is given by number or name, not {ref!r}")
        key = name_key(ref)
        if not key:
            raise BoardError("no territory given (empty name)")
        if key in self._keys:
            return self._keys.index(key)
        matches = [i for i, k in enumerate(self._keys) if k.startswith(key)]
        if len(matches) == 1:
            return matches[0]
        if matches:
            names = [self.territories[i].name for i in matches]
            raise BoardError(f"territory {ref.strip()!r} is ambiguous: {_or_list(names)}?")
        close = difflib.get_close_matches(key, self._keys, n=3, cutoff=0.6)
        if close:
            names = [self.territories[self._keys.index(k)].name for k in close]
            raise BoardError(f"no territory {ref.strip()!r}: did you mean {_or_list(names)}?")
        raise BoardError(f"no territory {ref.strip()!r}")

    def to_dict(self) -> dict[str, Any]:
        """The JSON form; `load_board(board.to_dict()) == board`."""
        out: dict[str, Any] = {"format": FORMAT, "name": self.name, "title": self.title}
        if self.width is not None and self.height is not None:
            out["width"], out["height"] = _num(self.width), _num(self.height)
        out["territories"] = []
        for t in self.territories:
            item: dict[str, Any] = {"id": t.id, "name": t.name, "type": t.type,
                                    "neighbours": list(t.neighbours)}
            if t.polygon is not None:
                item["polygon"] = _points_out(t.polygon)
            if t.label is not None:
                item["label"] = [_num(t.label[0]), _num(t.label[1])]
            out["territories"].append(item)
        out["lakes"] = []
        for lake in self.lakes:
            item = {"id": lake.id, "name": lake.name, "shores": list(lake.shores)}
            if lake.polygon is not None:
                item["polygon"] = _points_out(lake.polygon)
            out["lakes"].append(item)
        return out


def _or_list(names: list[str], limit: int = 6) -> str:
    if len(names) > limit:
        return f"{', '.join(names[:limit])} or {len(names) - limit} more"
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} or {names[-1]}"


def _num(x: float) -> int | float:
    return int(x) if float(x).is_integer() else x


def _points_out(points: tuple[Point, ...]) -> list[list[int | float]]:
    return [[_num(x), _num(y)] for x, y in points]


# --- loading and validation -------------------------------------------------

def _fail(where: str, message: str) -> NoReturn:
    raise BoardError(f"{where}: {message}")


def _show(value: Any) -> str:
    """A short description of a bad value for an error message."""
    kind = {bool: "boolean", int: "number", float: "number", str: "string", list: "list",
            tuple: "list", dict: "object", type(None): "null"}.get(type(value), type(value).__name__)
    try:
        text = json.dumps(value, ensure_ascii=False, default=str) if kind != "object" else "{...}"
    except ValueError:  # an integer too long to print (Python refuses past 4300 digits)
        text = "..."
    return f"{kind} {text[:30] + '...' if len(text) > 30 else text}"


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_number(value: Any) -> bool:
    return (isinstance(value, (int, float)) and not isinstance(value, bool)
            and math.isfinite(value))


_EXPECT = {
    "an integer": _is_int,
    "a number": _is_number,
    "a string": lambda v: isinstance(v, str),
    "a list": lambda v: isinstance(v, (list, tuple)),
    "an object": lambda v: isinstance(v, dict),
}


def _get(obj: dict[str, Any], key: str, expect: str, where: str, *, required: bool = True) -> Any:
    if key not in obj:
        if required:
            _fail(where, f"missing field '{key}'")
        return None
    value = obj[key]
    if not _EXPECT[expect](value):
        _fail(where, f"field '{key}' must be {expect}, got {_show(value)}")
    return value


def _check_keys(obj: dict[str, Any], allowed: tuple[str, ...], where: str) -> None:
    """Refuse unknown fields (a typo such as 'neighbors' would else pass silently).

    Fields starting with '_' are ignored, so a file can carry comments.
    """
    for key in obj:
        if not isinstance(key, str):
            _fail(where, f"field names must be strings, got {_show(key)}")
        if key not in allowed and not key.startswith("_"):
            _fail(where, f"unknown field '{key[:40]}' (known: {', '.join(allowed)})")


def _check_name(name: str, where: str) -> None:
    if not name.strip():
        _fail(where, "empty name")
    if len(name) > MAX_NAME:
        _fail(where, f"name is {len(name)} characters long, at most {MAX_NAME} allowed")
    if name != name.strip():
        _fail(where, f"name {name!r} has leading or trailing spaces")
    if any(unicodedata.category(c).startswith("C") for c in name):
        _fail(where, f"name {name!r} contains control characters")
    if _FORBIDDEN_IN_NAME & set(name):
        _fail(where, f"name {name!r} contains one of , ; > (orders use them as separators)")
    if name_key(name).replace(" ", "").isdecimal():
        _fail(where, f"name {name!r} is a number (orders could not tell it from a territory number)")


def _id(obj: dict[str, Any], where: str, seen: dict[int, str], what: str) -> int:
    ident = _get(obj, "id", "an integer", where)
    if not 1 <= ident <= MAX_ID:
        _fail(where, f"id must be from 1 to {MAX_ID}, got {_show(ident)}")
    if ident in seen:
        _fail(where, f"duplicate {what} id {ident} (also used by {seen[ident]})")
    return ident


def _name(obj: dict[str, Any], where: str, seen: dict[str, str], what: str) -> str:
    name = _get(obj, "name", "a string", where)
    _check_name(name, where)
    key = name_key(name)
    if key in seen:
        _fail(where, f"duplicate {what} name {name!r} (same as {seen[key]}, ignoring case and accents)")
    return name


def _ids(obj: dict[str, Any], key: str, where: str) -> tuple[int, ...]:
    values = _get(obj, key, "a list", where)
    if len(values) > MAX_TERRITORIES:
        _fail(where, f"'{key}' lists {len(values)} territories, more than the {MAX_TERRITORIES} allowed")
    for value in values:
        if not (_is_int(value) and 1 <= value <= MAX_ID):
            _fail(where, f"'{key}' must list territory ids (integers from 1 to {MAX_ID}), "
                         f"got {_show(value)}")
    duplicates = sorted({v for v in values if values.count(v) > 1})
    if duplicates:
        _fail(where, f"'{key}' lists territory {duplicates[0]} twice")
    return tuple(values)


class _Space:
    """The drawing space; every polygon and label must lie inside it."""

    def __init__(self, width: float | None, height: float | None):
        self.width, self.height = width, height

    def point(self, value: Any, where: str, what: str) -> Point:
        if not (isinstance(value, (list, tuple)) and len(value) == 2 and all(map(_is_number, value))):
            _fail(where, f"{what} must be [x, y] with two numbers, got {_show(value)}")
        if self.width is None or self.height is None:
            _fail(where, f"has a {what.split()[0]} but the board has no 'width' and 'height'")
        x, y = float(value[0]), float(value[1])
        if not (0 <= x <= self.width and 0 <= y <= self.height):
            _fail(where, f"{what} ({_num(x)}, {_num(y)}) lies outside the "
                         f"{_num(self.width)} x {_num(self.height)} drawing space")
        return x, y

    def polygon(self, obj: dict[str, Any], where: str) -> tuple[Point, ...] | None:
        if obj.get("polygon") is None:  # absent or null: no geometry
            return None
        points = _get(obj, "polygon", "a list", where)
        if not 3 <= len(points) <= MAX_POINTS:
            _fail(where, f"polygon has {len(points)} points, needs 3 to {MAX_POINTS}")
        return tuple(self.point(p, where, f"polygon point {i + 1}") for i, p in enumerate(points))


def _territory(raw: Any, i: int, space: _Space, ids: dict[int, str], names: dict[str, str]) -> Territory:
    where = f"territories[{i}]"
    if not isinstance(raw, dict):
        _fail(where, f"must be an object, got {_show(raw)}")
    ident = _id(raw, where, ids, "territory")
    where = f"territory {ident}"
    name = _name(raw, where, names, "territory")
    where = f"territory {ident} ({name})"
    _check_keys(raw, ("id", "name", "type", "neighbours", "polygon", "label"), where)
    kind = _get(raw, "type", "a string", where)
    if kind not in TERRAIN_TYPES:
        _fail(where, f"unknown type {kind[:40]!r} (known: {', '.join(TERRAIN_TYPES)})")
    neighbours = _ids(raw, "neighbours", where)
    if ident in neighbours:
        _fail(where, "borders itself (its own id is in 'neighbours')")
    polygon = space.polygon(raw, where)
    label = raw.get("label")
    if label is not None:
        label = space.point(label, where, "label")
    ids[ident] = f"territory {ident} ({name})"
    names[name_key(name)] = f"territory {ident} ({name})"
    return Territory(ident, name, kind, neighbours, polygon, label)


def _check_borders(territories: list[Territory], label: dict[int, str]) -> None:
    listed = {t.id: set(t.neighbours) for t in territories}
    for t in territories:
        for n in t.neighbours:
            if n not in listed:
                _fail(label[t.id], f"neighbour {n} is not a territory")
            if t.id not in listed[n]:
                _fail(label[t.id], f"lists {label[n]} as a neighbour, but {n} does not list {t.id} "
                                   "(borders must be listed on both sides)")
    # The land must be one piece: every territory reachable from the first.
    start = territories[0].id
    reached, queue = {start}, deque([start])
    while queue:
        for n in listed[queue.popleft()]:
            if n not in reached:
                reached.add(n)
                queue.append(n)
    lost = [label[t.id] for t in territories if t.id not in reached]
    if lost:
        shown = ", ".join(lost[:10]) + (f" and {len(lost) - 10} more" if len(lost) > 10 else "")
        raise BoardError(f"board: not reachable over land from {label[start]}: {shown}")


def _lake(raw: Any, i: int, space: _Space, ids: dict[int, str], names: dict[str, str],
          territory_label: dict[int, str]) -> Lake:
    where = f"lakes[{i}]"
    if not isinstance(raw, dict):
        _fail(where, f"must be an object, got {_show(raw)}")
    ident = _id(raw, where, ids, "lake")
    where = f"lake {ident}"
    name = _name(raw, where, names, "lake")
    where = f"lake {ident} ({name})"
    _check_keys(raw, ("id", "name", "shores", "polygon"), where)
    shores = _ids(raw, "shores", where)
    if len(shores) < 2:
        _fail(where, f"has {len(shores)} shore territories, needs at least 2")
    for shore in shores:
        if shore not in territory_label:
            _fail(where, f"shore {shore} is not a territory")
    polygon = space.polygon(raw, where)
    ids[ident] = f"lake {ident} ({name})"
    names[name_key(name)] = f"lake {ident} ({name})"
    return Lake(ident, name, shores, polygon)


def load_board(data: Any) -> Board:
    """Validate a board given as a JSON object; raise BoardError saying what is wrong."""
    where = "board"
    if not isinstance(data, dict):
        _fail(where, f"must be a JSON object, got {_show(data)}")
    _check_keys(data, ("format", "name", "title", "width", "height", "territories", "lakes"), where)
    tag = _get(data, "format", "a string", where)
    if tag != FORMAT:
        _fail(where, f"format must be {FORMAT!r}, got {tag[:40]!r}")
    name = _get(data, "name", "a string", where)
    if not (_BOARD_NAME.fullmatch(name) and len(name) <= MAX_NAME):
        _fail(where, f"name {name[:50]!r} must be 1 to {MAX_NAME} of a-z, 0-9 and '-'")
    title = _get(data, "title", "a string", where)
    if not title.strip() or len(title) > MAX_TITLE:
        _fail(where, f"title must be 1 to {MAX_TITLE} characters")
    width = _get(data, "width", "a number", where, required=False)
    height = _get(data, "height", "a number", where, required=False)
    if (width is None) != (height is None):
        _fail(where, "give both 'width' and 'height', or neither")
    if width is not None and not (0 < width <= MAX_SIZE and 0 < height <= MAX_SIZE):
        _fail(where, f"width and height must be more than 0 and at most {_num(MAX_SIZE)}")
    space = _Space(None if width is None else float(width), None if height is None else float(height))

    raw_territories = _get(data, "territories", "a list", where)
    if not raw_territories:
        _fail(where, "has no territories")
    if len(raw_territories) > MAX_TERRITORIES:
        _fail(where, f"has {len(raw_territories)} territories, at most {MAX_TERRITORIES} allowed")
    ids: dict[int, str] = {}
    names: dict[str, str] = {}
    territories = [_territory(raw, i, space, ids, names) for i, raw in enumerate(raw_territories)]
    _check_borders(territories, ids)

    raw_lakes = _get(data, "lakes", "a list", where, required=False) or []
    if len(raw_lakes) > MAX_LAKES:
        _fail(where, f"has {len(raw_lakes)} lakes, at most {MAX_LAKES} allowed")
    lake_ids: dict[int, str] = {}
    lake_names: dict[str, str] = {}
    lakes = [_lake(raw, i, space, lake_ids, lake_names, ids) for i, raw in enumerate(raw_lakes)]
    return Board(name, title, space.width, space.height, tuple(territories), tuple(lakes))
