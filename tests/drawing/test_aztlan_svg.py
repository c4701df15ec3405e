"""The Aztlán board drawing (pbem/drawing/aztlan.py): structure, pawns, escaping."""
from __future__ import annotations

import re
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

_ROOT = str(Path(__file__).resolve().parents[2])
if _ROOT not in sys.path:  # however pytest is started
    sys.path.insert(0, _ROOT)

import pytest  # noqa: E402

from engine.aztlan.board import Board, Lake, Territory, load_board  # noqa: E402
from engine.aztlan.bots import RandomBot  # noqa: E402
from engine.aztlan.data import packaged_board  # noqa: E402
from engine.aztlan.game import GAME  # noqa: E402
from pbem.games.aztlan.drawing import TERRAIN_COLOURS, board_svg, pawn_colours  # noqa: E402

SVG = "{http://www.w3.org/2000/svg}"
BOARD = packaged_board("default")
VIEW = {
    "pawns": {"3": {"quetzal": 2, "serpent": 1}, "7": {"ocelot": 4}, "12": {"coyote": 11}},
    "peoples": [{"people": p} for p in ("quetzal", "coyote", "serpent", "ocelot")],
    "phase": "conflict",
    "conflicts": [{"territory": 3, "resolved": False}, {"territory": 7, "resolved": True}],
}


def parse(svg: str) -> ET.Element:
    root = ET.fromstring(svg)
    assert root.tag == f"{SVG}svg"
    return root


def territories(root: ET.Element) -> list[ET.Element]:
    return [el for el in root.iter() if el.get("data-territory") is not None]


def pawns_at(root: ET.Element, territory: int) -> dict[str, int]:
    """people -> count from the pawn markers drawn for one territory."""
    groups = [g for g in root.iter(f"{SVG}g") if g.get("data-at") == str(territory)]
    if not groups:
        return {}
    (group,) = groups
    out = {}
    for pawn in group.iter(f"{SVG}g"):
        if pawn.get("data-people") is None:
            continue
        text = "".join(pawn.find(f"{SVG}text").itertext())
        title = pawn.find(f"{SVG}title").text
        assert text == pawn.get("data-count")
        assert title == f"{pawn.get('data-people')}: {text}"
        out[pawn.get("data-people")] = int(text)
    return out


def all_text(root: ET.Element) -> str:
    return "\n".join("".join(el.itertext()) for el in root.iter() if el.tag in (f"{SVG}text", f"{SVG}title"))


def mid_game(players: list[str], orders: int, seed: int = 1):
    state = GAME.new_game({"players": players, "seed": seed})
    bots = {seat: RandomBot(seed=i) for i, seat in enumerate(state.seats)}
    for _ in range(orders):
        decisions = state.decisions()
        if not decisions:
            break
        seat = decisions[0].seat
        state.apply(seat, bots[seat].order(state, state.seats.index(seat)))
    return state


# --- structure ------------------------------------------------------------------------

def test_parses_with_one_clickable_element_per_territory():
    root = parse(board_svg(BOARD, VIEW, clickable=True))
    assert root.get("viewBox").startswith("0 0 1000 ")
    found = territories(root)
    assert [int(el.get("data-territory")) for el in found] == [t.id for t in BOARD.territories]
    for el, t in zip(found, BOARD.territories):
        assert el.get("class") == "territory"
        assert el.get("tabindex") == "0"
        assert el.get("role") == "button"
        assert el.get("aria-label").startswith(f"Territory {t.id}, {t.name}, ")
        assert el.get("d", "").startswith("M")
        tip = el.find(f"{SVG}title").text
        assert tip.startswith(f"{t.id} {t.name}") and t.type in tip


def test_titles_name_type_and_pawns_without_clickable():
    root = parse(board_svg(BOARD, VIEW))
    assert territories(root) == []
    assert not [el for el in root.iter() if el.get("class") == "territory"]
    tips = [el.find(f"{SVG}title").text for el in root.iter(f"{SVG}path")
            if el.find(f"{SVG}title") is not None]
    tip3 = next(t for t in tips if t.startswith("3 Michapan"))
    assert "mountains" in tip3 and "quetzal 2" in tip3 and "serpent 1" in tip3 and "coexistence" in tip3
    assert any(t.startswith("30 Chapoltzinco") and "no pawns" in t for t in tips)


def test_labels_and_lakes_drawn():
    svg = board_svg(BOARD, None)
    root = parse(svg)
    text = all_text(root)
    for t in BOARD.territories:
        assert t.name in text
    for lake in BOARD.lakes:
        assert lake.name in text
        lake_paths = [el for el in root.iter(f"{SVG}path")
                      if (el.find(f"{SVG}title") is not None
                          and el.find(f"{SVG}title").text.startswith(lake.name))]
        assert len(lake_paths) == 1
        assert lake_paths[0].get("fill").startswith("url(#az-water")
    italic = [el for el in root.iter() if el.get("font-style") == "italic"]
    assert len(italic) == len(BOARD.lakes)
    for el, lake in zip(italic, BOARD.lakes):  # a long name may be on two lines
        lines = [" ".join(t.itertext()) for t in el.iter(f"{SVG}text")]
        assert " ".join(lines[:len(lines) // 2]) == lake.name
    # No view: no pawns.
    assert not [g for g in root.iter(f"{SVG}g") if g.get("data-people")]


def test_terrain_fills_use_in_document_patterns():
    root = parse(board_svg(BOARD))
    ids = {el.get("id") for el in root.iter() if el.get("id")}
    for kind in ("desert", "fields", "jungle", "mountains", "city"):
        assert f"az-{kind}" in ids
    tips = {el.find(f"{SVG}title").text.split(" ")[0]: el.get("fill") for el in root.iter(f"{SVG}path")
            if el.find(f"{SVG}title") is not None}
    for t in BOARD.territories:
        assert tips[str(t.id)] == f"url(#az-{t.type})"


def test_the_print_version_has_flat_fills_and_no_halos_and_the_same_map():
    """A PDF's board (for_print): each terrain, the lakes and the paper in a flat colour,
    no pattern or gradient, labels without their halo strokes; the same territories, names,
    pawns, outlines and legend as on screen."""
    screen, printed = board_svg(BOARD, VIEW, highlight=[12]), board_svg(BOARD, VIEW, highlight=[12], for_print=True)
    root = parse(printed)
    assert "url(" not in printed and root.find(f".//{SVG}pattern") is None
    assert root.find(f".//{SVG}radialGradient") is None
    tips = {el.find(f"{SVG}title").text.split(" ")[0]: el.get("fill") for el in root.iter(f"{SVG}path")
            if el.find(f"{SVG}title") is not None}
    for t in BOARD.territories:
        assert tips[str(t.id)] == TERRAIN_COLOURS[t.type]
    on_screen = parse(screen)

    def halos(drawing: ET.Element) -> list[ET.Element]:  # the stroked text behind a label
        return [g for g in drawing.iter(f"{SVG}g") if g.get("stroke") and g.find(f"{SVG}text") is not None]

    assert halos(on_screen) and not halos(root)
    haloed = {id(text) for g in halos(on_screen) for text in g.iter(f"{SVG}text")}
    words = ["".join(text.itertext()) for text in on_screen.iter(f"{SVG}text") if id(text) not in haloed]
    assert words == ["".join(text.itertext()) for text in root.iter(f"{SVG}text")]
    for marker in ('data-highlight="12"', 'data-conflict="3"', 'data-shared="3"', "Coexistence", "Conflict"):
        assert marker in printed


def test_legend_and_caption():
    root = parse(board_svg(BOARD, VIEW, title="Game 7 — Age 2"))
    text = all_text(root)
    for word in ("Desert", "Terraced fields", "Jungle", "Mountains", "City",
                 "Quetzal", "Coyote", "Serpent", "Ocelot", "Coexistence", "Conflict", "Game 7 — Age 2"):
        assert word in text


def test_width_sets_size_and_id_prefix_changes_all_ids():
    svg = board_svg(BOARD, VIEW, width=600, id_prefix="m2")
    root = parse(svg)
    assert root.get("width") == "600"
    ids = [el.get("id") for el in root.iter() if el.get("id")]
    assert ids and all(i.startswith("m2-") for i in ids)
    assert len(ids) == len(set(ids))
    for ref in re.findall(r"url\(#([^)]*)\)", svg):
        assert ref in ids
    with pytest.raises(ValueError):
        board_svg(BOARD, id_prefix='x" onload="alert(1)')


# --- pawns ----------------------------------------------------------------------------

def test_pawn_counts_of_a_known_view():
    root = parse(board_svg(BOARD, VIEW))
    assert pawns_at(root, 3) == {"quetzal": 2, "serpent": 1}
    assert pawns_at(root, 7) == {"ocelot": 4}
    assert pawns_at(root, 12) == {"coyote": 11}
    assert pawns_at(root, 1) == {}


def test_coexistence_shows_every_people_side_by_side():
    root = parse(board_svg(BOARD, VIEW))
    (group,) = [g for g in root.iter(f"{SVG}g") if g.get("data-at") == "3"]
    markers = [g for g in group.iter(f"{SVG}g") if g.get("data-people")]
    assert [m.get("data-people") for m in markers] == ["quetzal", "serpent"]
    centres = [next(m.iter(f"{SVG}text")) for m in markers]
    (x1, y1), (x2, y2) = [(float(c.get("x")), float(c.get("y"))) for c in centres]
    assert abs(x1 - x2) >= 30 or abs(y1 - y2) >= 30  # two discs of radius 15 that do not overlap
    # The shared territory gets its tray marker; a lone people does not.
    assert [el.get("data-shared") for el in root.iter() if el.get("data-shared")] == ["3"]


def test_pawns_of_a_played_game_all_appear():
    state = mid_game(["ocelot", "serpent", "quetzal"], 60)
    view = state.view("ocelot")
    assert view["pawns"] and any(len(p) > 1 for p in view["pawns"].values())
    root = parse(board_svg(state.board, view, clickable=True))
    for t in state.board.territories:
        assert pawns_at(root, t.id) == view["pawns"].get(str(t.id), {})
    spectator = parse(board_svg(state.board, state.view(None)))
    assert sum(len(pawns_at(spectator, t.id)) for t in state.board.territories) == \
        sum(len(p) for p in view["pawns"].values())


def test_two_player_factions_get_two_colour_pawns():
    state = mid_game(["coyote", "serpent"], 30, seed=3)
    view = state.view(None)
    root = parse(board_svg(state.board, view))
    colours = pawn_colours()
    markers = [g for g in root.iter(f"{SVG}g") if g.get("data-people") == "coyote-quetzal"]
    assert markers
    fills = {p.get("fill") for p in markers[0].iter(f"{SVG}path")}
    assert {colours["coyote"], colours["quetzal"]} <= fills
    assert "Coyote + Quetzal" in all_text(root)


def test_open_conflicts_and_highlight_are_outlined():
    root = parse(board_svg(BOARD, VIEW, highlight=[5, 12, 999]))
    assert [el.get("data-conflict") for el in root.iter() if el.get("data-conflict")] == ["3"]
    assert [el.get("data-highlight") for el in root.iter() if el.get("data-highlight")] == ["5", "12"]
    plain = parse(board_svg(BOARD, None))
    assert not [el for el in plain.iter() if el.get("data-conflict") or el.get("data-highlight")]
    assert "Highlighted" not in all_text(plain)


def test_pawn_colours():
    colours = pawn_colours()
    for people in ("quetzal", "coyote", "serpent", "ocelot", "coyote-quetzal", "ocelot-serpent"):
        assert re.fullmatch(r"#[0-9a-f]{6}", colours[people])
    assert len({colours[t] for t in ("quetzal", "coyote", "serpent", "ocelot")}) == 4


# --- safety ---------------------------------------------------------------------------

HOSTILE = ["<script>alert(1)</script>", "\"'><img src=file:///etc/passwd>", "url(http://x)"]


def hostile_board() -> Board:
    """Names the loader would refuse (',;>' are forbidden), built directly."""
    squares = [((0, 0), (50, 0), (50, 50), (0, 50)), ((50, 0), (100, 0), (100, 50), (50, 50)),
               ((0, 50), (50, 50), (50, 100), (0, 100))]
    territories = tuple(Territory(i + 1, name, kind, neighbours, tuple(map(tuple, square)))
                        for i, (name, kind, neighbours, square) in enumerate(zip(
                            HOSTILE, ("city", "desert", "jungle"), ((2, 3), (1,), (1,)), squares)))
    lake = Lake(1, HOSTILE[0] + " lake", (2, 3), ((55, 55), (95, 55), (95, 95), (55, 95)))
    return Board("hostile", HOSTILE[1], 100.0, 100.0, territories, (lake,))


def test_hostile_names_come_out_as_text():
    board = hostile_board()
    view = {"pawns": {"1": {HOSTILE[0]: 2, "quetzal": 1}, "2": {HOSTILE[1]: 1}},
            "peoples": [{"people": HOSTILE[2]}]}
    for clickable in (False, True):
        svg = board_svg(board, view, clickable=clickable, title=HOSTILE[2], highlight=[1])
        root = parse(svg)
        tags = {el.tag.split("}")[-1] for el in root.iter()}
        assert not tags & {"script", "img", "image", "a", "foreignObject", "iframe", "use"}
        assert "<script" not in svg and "<img" not in svg
        assert svg.count("http:") == 1 and 'xmlns="http://www.w3.org/2000/svg"' in svg
        assert "file:" not in svg
        assert all(ref.startswith("#") for ref in re.findall(r"url\(([^)]*)\)", svg))
        for el in root.iter():
            for name, value in el.attrib.items():
                assert not name.lower().startswith("on")
                assert "href" not in name and name != "src"
                if not name.startswith(("data-", "aria-")):  # those hold names as plain text
                    assert "http:" not in value and "file:" not in value and "<" not in value
        text = all_text(root)
        for name in HOSTILE:
            assert name in text
        assert pawns_at(root, 1) == {"quetzal": 1, HOSTILE[0]: 2}
        if clickable:
            labels = [el.get("aria-label") for el in territories(root)]
            assert labels[0].startswith(f"Territory 1, {HOSTILE[0]}, ")


def test_no_external_references_on_the_default_board():
    state = mid_game(["ocelot", "serpent", "quetzal", "coyote"], 80, seed=2)
    svg = board_svg(state.board, state.view("serpent"), clickable=True, highlight=[1, 2], title="x")
    parse(svg)
    assert svg.count("http") == 1  # the SVG namespace
    assert "href" not in svg and "@import" not in svg and "<image" not in svg
    assert all(ref.startswith("#") for ref in re.findall(r"url\(([^)]*)\)", svg))


# --- determinism and refusals ---------------------------------------------------------

def test_same_input_same_output():
    first = board_svg(BOARD, VIEW, clickable=True, highlight=[4, 2], title="T")
    again = board_svg(BOARD, {**VIEW, "pawns": dict(reversed(list(VIEW["pawns"].items())))},
                      clickable=True, highlight=(2, 4), title="T")
    assert first == again == board_svg(BOARD, VIEW, clickable=True, highlight=[4, 2], title="T")


def test_board_without_geometry_is_refused():
    board = load_board({"format": "aztlan-board/1", "name": "flat", "title": "Flat",
                        "territories": [{"id": 1, "name": "A", "type": "city", "neighbours": [2]},
                                        {"id": 2, "name": "B", "type": "desert", "neighbours": [1]}]})
    with pytest.raises(ValueError, match="board has no geometry to draw"):
        board_svg(board)
    with pytest.raises(ValueError, match="board has no geometry to draw"):
        board_svg(board, {"pawns": {}}, clickable=True)


def test_board_with_partial_geometry_is_refused():
    board = hostile_board()
    t = board.territories
    partial = Board("partial", "P", 100.0, 100.0,
                    (t[0], t[1], Territory(3, "C", "jungle", (1,), None)), ())
    with pytest.raises(ValueError, match="board has no geometry to draw"):
        board_svg(partial)
