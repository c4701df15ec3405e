"""Boards: the packaged default board, the generator, validation and lookups."""
from __future__ import annotations

import copy
import json
import re
from collections import Counter, deque
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable

import pytest
from hypothesis import given, settings, strategies as st

from engine.aztlan.board import MAX_POINTS, MAX_TERRITORIES, TERRAIN_TYPES, Board, BoardError, load_board
from engine.aztlan.boardgen import LAKE_NAMES, TERRITORY_NAMES, board_json, generate_board
from engine.aztlan.data import packaged_board

DEFAULT_FILE = Path(__file__).resolve().parents[2] / "engine" / "aztlan" / "boards" / "default.json"
SEEDS = (1, 2, 7, 164, "aztlan", "pbem")


@lru_cache(maxsize=None)
def _generated(seed: int | str) -> str:
    return json.dumps(generate_board(seed))


def generated(seed: int | str) -> dict[str, Any]:
    """A fresh copy of a generated board (generating costs ~0.1 s, so it is cached)."""
    return json.loads(_generated(seed))


# --- requirements every generated board (and the default board) meets ---------

def _cross(o: tuple[float, float], a: tuple[float, float], b: tuple[float, float]) -> float:
    return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])


def _segments_cross(p1, p2, q1, q2) -> bool:
    d1, d2 = _cross(q1, q2, p1), _cross(q1, q2, p2)
    d3, d4 = _cross(p1, p2, q1), _cross(p1, p2, q2)
    return (d1 > 0) != (d2 > 0) and (d3 > 0) != (d4 > 0) and 0 not in (d1, d2, d3, d4)


def _is_simple(polygon: tuple[tuple[float, float], ...]) -> bool:
    n = len(polygon)
    if len(set(polygon)) != n:
        return False
    sides = [(polygon[i], polygon[(i + 1) % n]) for i in range(n)]
    return not any(_segments_cross(*sides[i], *sides[j])
                   for i in range(n) for j in range(i + 2, n) if (i, j) != (0, n - 1))


def _inside(point: tuple[float, float], polygon: tuple[tuple[float, float], ...]) -> bool:
    x, y = point
    inside = False
    for (ax, ay), (bx, by) in zip(polygon, polygon[1:] + polygon[:1]):
        if (ay > y) != (by > y) and x < ax + (y - ay) * (bx - ax) / (by - ay):
            inside = not inside
    return inside


def _coastal(board: Board) -> set[int]:
    """Check the geometry agrees with the adjacency; return the ids of coastal territories.

    All polygons run the same way round, so a border shared by two polygons appears
    in both, once in each direction; a side found in no other polygon is coast.
    """
    owners: dict[tuple, tuple[str, int]] = {}
    shapes = [(("territory", t.id), t.polygon) for t in board.territories]
    shapes += [(("lake", lake.id), lake.polygon) for lake in board.lakes]
    for owner, polygon in shapes:
        for side in zip(polygon, polygon[1:] + polygon[:1]):
            assert side not in owners, f"{owner} and {owners[side]} overlap"
            owners[side] = owner
    coastal = set()
    for owner, polygon in shapes:
        across = {owners.get((b, a)) for a, b in zip(polygon, polygon[1:] + polygon[:1])}
        kind, ident = owner
        if kind == "territory":
            territory = board.territories[board.index_of[ident]]
            assert {i for k, i in across - {None} if k == "territory"} == set(territory.neighbours)
            assert {i for k, i in across - {None} if k == "lake"} == {
                lake.id for lake in board.lakes if ident in lake.shores}
            if None in across:
                coastal.add(ident)
        else:
            assert None not in across, f"lake {ident} touches the sea"
            shores = next(lake.shores for lake in board.lakes if lake.id == ident)
            assert {i for _, i in across} == set(shores)
    return coastal


def assert_meets_requirements(board: Board) -> None:
    assert len(board.territories) == 30
    assert Counter(board.type_of) == {kind: 6 for kind in TERRAIN_TYPES}
    assert len(board.lakes) >= 2
    for shores in board.lake_shores:
        assert len(shores) >= 3
        assert len({board.type_of[i] for i in shores}) >= 3, "a lake's shore should mix types"
    for i, near in enumerate(board.adjacent):
        assert all(i in board.adjacent[j] for j in near)
    reached, queue = {0}, deque([0])
    while queue:
        for j in board.adjacent[queue.popleft()]:
            if j not in reached:
                reached.add(j)
                queue.append(j)
    assert len(reached) == 30
    same = sum(board.type_of[i] == board.type_of[j] for i, near in enumerate(board.adjacent)
               for j in near if i < j)
    assert same <= 1

    assert board.width == board.height == 1000
    assert all(t.polygon and t.label for t in board.territories)
    assert all(lake.polygon for lake in board.lakes)
    for shape in [t.polygon for t in board.territories] + [lake.polygon for lake in board.lakes]:
        assert _is_simple(shape)
    assert all(_inside(t.label, t.polygon) for t in board.territories)
    coastal = _coastal(board)
    assert 0 < len(coastal) < 30
    for t in board.territories:
        low = 2 if t.id in coastal else 4
        assert low <= len(t.neighbours) <= 6, (t.id, t.neighbours)
    assert all(t.name in TERRITORY_NAMES for t in board.territories)


# --- the default board ----------------------------------------------------------

def test_default_board_meets_requirements():
    board = packaged_board("default")
    assert board.name == "default"
    assert_meets_requirements(board)
    assert board == load_board(json.loads(DEFAULT_FILE.read_text("utf-8")))


# --- the generator --------------------------------------------------------------

@pytest.mark.parametrize("seed", SEEDS)
def test_generated_boards_meet_requirements(seed):
    assert_meets_requirements(load_board(generated(seed)))


def test_generator_is_deterministic_and_seeds_differ():
    assert generate_board(7) == generated(7)
    assert generated(1) != generated(2)
    assert generated("aztlan") != generated("pbem")
    assert generate_board(1, name="mine", title="Mine")["name"] == "mine"


def test_name_lists_are_usable():
    for names in (TERRITORY_NAMES, LAKE_NAMES):
        assert len(set(names)) == len(names)
        assert not any(name.isdigit() for name in names)
    assert len(TERRITORY_NAMES) >= 60


def test_board_json_is_the_same_board():
    data = generated(2)
    assert json.loads(board_json(data)) == data


# --- validation -------------------------------------------------------------------

def tiny() -> dict[str, Any]:
    return {
        "format": "aztlan-board/1", "name": "tiny", "title": "Tiny", "width": 100, "height": 100,
        "territories": [
            {"id": 1, "name": "Tollan", "type": "city", "neighbours": [2, 3],
             "polygon": [[0, 0], [50, 0], [25, 40]], "label": [25, 10]},
            {"id": 2, "name": "Toluca", "type": "desert", "neighbours": [1, 3]},
            {"id": 3, "name": "Ixtlán", "type": "jungle", "neighbours": [1, 2]},
        ],
        "lakes": [{"id": 1, "name": "Lake Small", "shores": [1, 2],
                   "polygon": [[60, 60], [90, 60], [75, 90]]}],
    }


def _set(path: str, value: Any) -> Callable[[dict], None]:
    """A change to the tiny board: set (or, with value DELETE, remove) a field by path."""
    def change(board: dict) -> None:
        *parents, last = [int(p) if p.isdigit() else p for p in path.split(".")]
        target = board
        for key in parents:
            target = target[key]
        if value is DELETE:
            del target[last]
        else:
            target[last] = copy.deepcopy(value)
    return change


DELETE = object()


def _two_islands(board: dict) -> None:
    board["territories"] = [
        {"id": 1, "name": "Tollan", "type": "city", "neighbours": [2]},
        {"id": 2, "name": "Toluca", "type": "desert", "neighbours": [1]},
        {"id": 3, "name": "Ixtlán", "type": "jungle", "neighbours": [4]},
        {"id": 4, "name": "Ocotlan", "type": "fields", "neighbours": [3]},
    ]
    board["lakes"] = []


def _many(count: int, key: str) -> Callable[[dict], None]:
    def change(board: dict) -> None:
        if key == "territories":
            board["territories"] = [{"id": i, "name": f"T{i}", "type": "city",
                                     "neighbours": [i - 1, i + 1][i == 1:]} for i in range(1, count + 1)]
        else:
            board["lakes"] = [{"id": i, "name": f"L{i}", "shores": [1, 2]} for i in range(1, count + 1)]
    return change


BAD = [
    # the board itself
    (lambda b: b.clear(), "board: missing field 'format'"),
    (_set("format", "aztlan-board/2"), "board: format must be 'aztlan-board/1', got 'aztlan-board/2'"),
    (_set("format", 1), "board: field 'format' must be a string, got number 1"),
    (_set("name", DELETE), "board: missing field 'name'"),
    (_set("name", "My Board"), "board: name 'My Board' must be 1 to 40 of a-z, 0-9 and '-'"),
    (_set("title", DELETE), "board: missing field 'title'"),
    (_set("title", 5), "board: field 'title' must be a string, got number 5"),
    (_set("title", " "), "board: title must be 1 to 100 characters"),
    (_set("colour", "red"), "board: unknown field 'colour'"),
    (_set("height", DELETE), "board: give both 'width' and 'height', or neither"),
    (_set("width", -5), "board: width and height must be more than 0"),
    (_set("width", "wide"), "board: field 'width' must be a number, got string \"wide\""),
    (_set("territories", DELETE), "board: missing field 'territories'"),
    (_set("territories", {}), "board: field 'territories' must be a list, got object"),
    (_set("territories", []), "board: has no territories"),
    (_many(MAX_TERRITORIES + 1, "territories"), "board: has 201 territories, at most 200 allowed"),
    (_set("lakes", "none"), "board: field 'lakes' must be a list"),
    (_many(51, "lakes"), "board: has 51 lakes, at most 50 allowed"),
    # a territory's fields
    (_set("territories.1", [2]), "territories[1]: must be an object, got list"),
    (_set("territories.1.id", DELETE), "territories[1]: missing field 'id'"),
    (_set("territories.1.id", "2"), "territories[1]: field 'id' must be an integer, got string \"2\""),
    (_set("territories.1.id", True), "territories[1]: field 'id' must be an integer, got boolean"),
    (_set("territories.1.id", 0), "territories[1]: id must be from 1 to 99999, got number 0"),
    (_set("territories.1.id", 1),
     "territories[1]: duplicate territory id 1 (also used by territory 1 (Tollan))"),
    (_set("territories.1.name", DELETE), "territory 2: missing field 'name'"),
    (_set("territories.1.name", "TOLLAN"),
     "territory 2: duplicate territory name 'TOLLAN' (same as territory 1"),
    (_set("territories.1.name", "ixtlan"),
     "territory 3: duplicate territory name 'Ixtlán' (same as territory 2 (ixtlan), ignoring case"),
    (_set("territories.1.name", "12"), "territory 2: name '12' is a number"),
    (_set("territories.1.name", ""), "territory 2: empty name"),
    (_set("territories.1.name", "   "), "territory 2: empty name"),
    (_set("territories.1.name", "x" * 41),
     "territory 2: name is 41 characters long, at most 40 allowed"),
    (_set("territories.1.name", " Toluca"),
     "territory 2: name ' Toluca' has leading or trailing spaces"),
    (_set("territories.1.name", "Tol\nuca"),
     "territory 2: name 'Tol\\nuca' contains control characters"),
    (_set("territories.1.name", "Toluca, Mexico"),
     "territory 2: name 'Toluca, Mexico' contains one of , ; >"),
    (_set("territories.1.neighbors", [1, 3]), "territory 2 (Toluca): unknown field 'neighbors'"),
    (_set("territories.1.type", DELETE), "territory 2 (Toluca): missing field 'type'"),
    (_set("territories.1.type", "forest"),
     "territory 2 (Toluca): unknown type 'forest' (known: desert, fields"),
    (_set("territories.1.neighbours", DELETE), "territory 2 (Toluca): missing field 'neighbours'"),
    (_set("territories.1.neighbours", 1), "territory 2 (Toluca): field 'neighbours' must be a list"),
    (_set("territories.1.neighbours", [1, "3"]),
     "territory 2 (Toluca): 'neighbours' must list territory ids"),
    (_set("territories.1.neighbours", [1, 0]),
     "territory 2 (Toluca): 'neighbours' must list territory ids (integers from 1 to 99999), got number 0"),
    (_set("territories.1.neighbours", list(range(1, 203))),
     "territory 2 (Toluca): 'neighbours' lists 202 territories, more than the 200 allowed"),
    (_set("territories.1.neighbours", [1, 3, 1]),
     "territory 2 (Toluca): 'neighbours' lists territory 1 twice"),
    # borders
    (_set("territories.1.neighbours", [1, 2, 3]), "territory 2 (Toluca): borders itself"),
    (_set("territories.1.neighbours", [1, 3, 9]),
     "territory 2 (Toluca): neighbour 9 is not a territory"),
    (_set("territories.0.neighbours", [2]),
     "territory 3 (Ixtlán): lists territory 1 (Tollan) as a neighbour, but 1 does not list 3"),
    (_two_islands, "board: not reachable over land from territory 1 (Tollan): "
                   "territory 3 (Ixtlán), territory 4 (Ocotlan)"),
    # lakes
    (_set("lakes.0", "lake"), "lakes[0]: must be an object, got string"),
    (_set("lakes.0.id", DELETE), "lakes[0]: missing field 'id'"),
    (_set("lakes.0.name", "7"), "lake 1: name '7' is a number"),
    (_set("lakes.0.shores", [1]), "lake 1 (Lake Small): has 1 shore territories, needs at least 2"),
    (_set("lakes.0.shores", DELETE), "lake 1 (Lake Small): missing field 'shores'"),
    (_set("lakes.0.shores", [1, 9]), "lake 1 (Lake Small): shore 9 is not a territory"),
    (_set("lakes.0.shores", [1, 2, 1]), "lake 1 (Lake Small): 'shores' lists territory 1 twice"),
    (_set("lakes.0.depth", 3), "lake 1 (Lake Small): unknown field 'depth'"),
    (lambda b: b["lakes"].append({"id": 1, "name": "Lake Other", "shores": [2, 3]}),
     "lakes[1]: duplicate lake id 1 (also used by lake 1 (Lake Small))"),
    (lambda b: b["lakes"].append({"id": 2, "name": "lake small", "shores": [2, 3]}),
     "lake 2: duplicate lake name 'lake small' (same as lake 1 (Lake Small)"),
    # geometry
    (_set("territories.0.polygon", [[0, 0], [1, 1]]),
     "territory 1 (Tollan): polygon has 2 points, needs 3 to 1000"),
    (_set("territories.0.polygon", [[0, 0]] * (MAX_POINTS + 1)),
     "territory 1 (Tollan): polygon has 1001 points"),
    (_set("territories.0.polygon", [[0, 0], [1, "a"], [2, 0]]),
     "territory 1 (Tollan): polygon point 2 must be [x, y] with two numbers, got list [1, \"a\"]"),
    (_set("territories.0.polygon", [[0, 0], [1], [2, 0]]),
     "territory 1 (Tollan): polygon point 2 must be [x, y]"),
    (_set("territories.0.polygon", [[0, 0], [float("nan"), 1], [2, 0]]),
     "polygon point 2 must be [x, y]"),
    (_set("territories.0.polygon", "square"), "territory 1 (Tollan): field 'polygon' must be a list"),
    (_set("territories.0.label", [120, 5]),
     "territory 1 (Tollan): label (120, 5) lies outside the 100 x 100 drawing space"),
    (_set("territories.0.label", "middle"),
     "territory 1 (Tollan): label must be [x, y] with two numbers"),
    (_set("lakes.0.polygon", [[60, 60], [90, 60]]), "lake 1 (Lake Small): polygon has 2 points"),
    (_set("lakes.0.polygon", [[60, 60], [90, 60], [75, 190]]),
     "lake 1 (Lake Small): polygon point 3 (75, 190) lies outside the 100 x 100 drawing space"),
    (lambda b: (b.pop("width"), b.pop("height")),
     "territory 1 (Tollan): has a polygon but the board has no 'width' and 'height'"),
]


@pytest.mark.parametrize("change, message", BAD, ids=[m[:60] for _, m in BAD])
def test_validation_errors(change, message):
    board = tiny()
    load_board(copy.deepcopy(board))  # the unchanged board is fine
    change(board)
    with pytest.raises(BoardError, match=re.escape(message)):
        load_board(board)


JUNK = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=6),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12)
PLACES = ("format", "name", "title", "width", "territories", "territories.0", "territories.0.id",
          "territories.0.name", "territories.0.type", "territories.0.neighbours",
          "territories.0.neighbours.0", "territories.0.polygon", "territories.0.polygon.0",
          "territories.0.label", "lakes", "lakes.0", "lakes.0.id", "lakes.0.shores", "lakes.0.polygon")


@settings(max_examples=60, deadline=None)
@given(place=st.sampled_from(PLACES), junk=JUNK)
def test_junk_anywhere_is_refused_with_a_board_error(place, junk):
    board = tiny()
    _set(place, junk)(board)
    try:
        load_board(board)
    except BoardError:
        pass


@settings(max_examples=30, deadline=None)
@given(junk=JUNK)
def test_junk_board_is_refused_with_a_board_error(junk):
    with pytest.raises(BoardError):
        load_board(junk)


def test_huge_numbers_do_not_break_messages():
    board = tiny()
    board["territories"][0]["id"] = 10 ** 5000
    with pytest.raises(BoardError, match=r"territories\[0\]: id must be from 1 to 99999, got number \.\.\."):
        load_board(board)
    with pytest.raises(BoardError, match="no territory number that large"):
        load_board(tiny()).territory(10 ** 5000)


def test_not_an_object():
    with pytest.raises(BoardError, match="board: must be a JSON object, got list"):
        load_board([])


def test_geometry_and_lakes_are_optional_and_comments_ignored():
    board = tiny()
    board.pop("width"), board.pop("height"), board.pop("lakes")
    for item in board["territories"]:
        item.pop("polygon", None), item.pop("label", None)
    board["_comment"] = "fields starting with _ are ignored"
    loaded = load_board(board)
    assert loaded.width is None and loaded.lakes == ()
    assert loaded.territories[0].polygon is None


def test_derived_tables():
    board = load_board(tiny())
    assert board.index_of == {1: 0, 2: 1, 3: 2}
    assert board.adjacent == ((1, 2), (0, 2), (0, 1))
    assert board.type_of == ("city", "desert", "jungle")
    assert board.lake_shores == (frozenset({0, 1}),)
    assert board.territories[0].polygon == ((0.0, 0.0), (50.0, 0.0), (25.0, 40.0))


# --- lookups ------------------------------------------------------------------------

@pytest.mark.parametrize("ref, index", [
    (1, 0), ("3", 2), (" 2 ", 1), ("Tollan", 0), ("tOLLAN", 0), ("ixtlan", 2), ("IXTLÁN", 2),
    ("ixt", 2), ("tolu", 1), ("Toll", 0),
])
def test_territory_lookup(ref, index):
    assert load_board(tiny()).territory(ref) == index


@pytest.mark.parametrize("ref, message", [
    ("tol", "territory 'tol' is ambiguous: Tollan or Toluca?"),
    ("Tollam", "no territory 'Tollam': did you mean Tollan or Toluca?"),
    ("Zapotlan", "no territory 'Zapotlan'"),
    (9, "no territory number 9"),
    ("99", "no territory number 99"),
    ("1" * 50, "no territory number 1111"),
    ("  ", "no territory given"),
    (True, "a territory is given by number or name"),
])
def test_territory_lookup_errors(ref, message):
    with pytest.raises(BoardError, match=re.escape(message)):
        load_board(tiny()).territory(ref)


def test_long_ambiguity_lists_are_cut_short():
    board = packaged_board("default")
    with pytest.raises(BoardError, match=r"territory 't' is ambiguous: (\w+, ){5}\w+ or \d+ more\?"):
        board.territory("t")


def test_exact_name_beats_longer_names():
    board = tiny()
    board["territories"][1]["name"] = "Tollantzinco"
    assert load_board(board).territory("tollan") == 0


# --- round trip -------------------------------------------------------------------------

def test_to_dict_round_trips():
    for data in (tiny(), json.loads(DEFAULT_FILE.read_text("utf-8"))):
        board = load_board(data)
        assert board.to_dict() == data
        assert load_board(board.to_dict()) == board
        assert load_board(json.loads(json.dumps(board.to_dict()))) == board
