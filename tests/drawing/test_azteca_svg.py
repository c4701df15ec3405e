"""The Azteca board drawing (pbem/games/azteca/drawing.py): well-formed SVG with one shape per
region of the 3- or 4-player map, and every piece a sample view puts on it."""
from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from engine.azteca.geography import geography
from pbem.games.azteca.drawing import board_svg

NS = {"svg": "http://www.w3.org/2000/svg"}

FOUR = {
    "players": 4, "tlatoani": "toltecs",
    "seats": [
        {"seat": "aztecs", "name": "Ana", "capital": "tenochtitlan",
         "generals": {"A": "tenochtitlan", "B": "tlatelolco", "C": None},
         "boats": {"lake-2": 2, "tenochtitlan": 1}, "pochtecas": {"A": "coyoacan"}},
        {"seat": "toltecs", "name": "Bo", "capital": "colhuacan",
         "generals": {"A": "colhuacan", "B": "xochimilco", "C": "colhuacan"}, "boats": {"lake-4": 1}, "pochtecas": 2},
        {"seat": "chichimecs", "name": "Cy", "capital": "texcoco",
         "generals": {"A": "texcoco", "B": "texcoco", "C": "coatlinchan"}, "boats": {"lake-3": 3}, "pochtecas": 0},
        {"seat": "tepanecs", "name": "Di", "capital": "azcapotzalco",
         "generals": {"A": "tlacopan", "B": "toluca", "C": "azcapotzalco"}, "boats": {"azcapotzalco": 1},
         "pochtecas": 1},
    ],
    "cities": {"tlatelolco": "aztecs", "xochimilco": "toltecs", "coatlinchan": "chichimecs", "tlacopan": "tepanecs",
               "toluca": "tepanecs"},
    "assimilated": ["xochimilco"],
    "markers": {"coyoacan": 2, "chalco": 1, "xaltocan": None, "teotihuacan": 0},
    "dikes": ["tlacopan"],
    "lake_control": {"lake-3": "chichimecs", "lake-2": None},
    "gods": {"quetzalcoatl": 2, "tezcatlipoca": 1},
}
THREE = {"players": 3, "seats": FOUR["seats"][1:], "cities": {"tlatelolco": "toltecs"},
         "markers": {"tlatelolco": 1}, "gods": {"quetzalcoatl": 0, "tezcatlipoca": 0}}


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def titles(root: ET.Element, cls: str) -> list[str]:
    return [g.findtext("svg:title", "", NS) for g in root.iter("{http://www.w3.org/2000/svg}g")
            if cls in (g.get("class") or "").split()]


@pytest.mark.parametrize("view, players", [(FOUR, 4), (THREE, 3)], ids=["4 players", "3 players"])
def test_one_clickable_shape_per_region(view, players):
    root = parse(board_svg(view, clickable=True))
    picked = [g.get("data-territory") for g in root.iter() if g.get("data-territory")]
    assert sorted(picked) == sorted(geography(players).regions)


def test_the_pieces_of_the_view_are_drawn():
    root = parse(board_svg(FOUR))
    generals = [t for t in titles(root, "piece") if " general " in t]
    assert len(generals) == 11  # 12 generals, one killed
    assert "Aztecs general B" in generals and "Tepanecs general B" in generals
    assert sorted(titles(root, "marker")) == ["population marker 0", "population marker 1",
                                              "population marker 2", "population marker ?"]
    cities = titles(root, "city")
    assert "assimilated city of the Toltecs" in cities and len(cities) == 5
    boats = titles(root, "boat")
    assert "2 Aztecs boat(s) in zone 2" in boats and "3 Chichimecs boat(s) in zone 3" in boats
    assert "1 Tepanecs boat(s) in harbour" in boats and len(boats) == 5
    assert sorted(t for t in titles(root, "piece") if "pochteca" in t) == [
        "Aztecs pochteca A", "Tepanecs pochteca 1", "Toltecs pochteca 2"]
    assert titles(root, "dike") == ["dike Tenochtitlan to Tlacopan"]
    assert len(titles(root, "junction")) == 2
    assert titles(root, "quetzalcoatl") == ["Quetzalcoatl, step 2 of 5"]
    assert titles(root, "tezcatlipoca") == ["Tezcatlipoca, step 1 of 4 down"]
    assert len(titles(root, "capital")) == 4
    assert "held by the Chichimecs" in board_svg(FOUR)


def test_three_players_draws_section_16():
    svg = board_svg(THREE)
    root = parse(svg)
    assert "Tenochtitlan-Tlatelolco" in svg
    assert sorted(titles(root, "out-of-play")) == sorted(
        f"{name}: out of play with 3 players" for name in ("Tula", "Toluca", "Tlaxcala", "Oaxtepec"))
    assert titles(root, "dike") == [] and titles(root, "junction") == []
    assert len(titles(root, "capital")) == 3
    assert titles(root, "marker") == ["population marker 1"]


def test_only_the_regions_offered_are_clickable_and_highlighted():
    root = parse(board_svg(FOUR, clickable=["chalco", "lake-2"], highlight=["chalco", "nowhere"]))
    assert sorted(g.get("data-territory") for g in root.iter() if g.get("data-territory")) == ["chalco", "lake-2"]
    assert [p.get("data-highlight") for p in root.iter() if p.get("data-highlight")] == ["chalco"]
    assert root.get("role") == "group"
    assert parse(board_svg(FOUR)).get("role") == "img"


def test_text_from_the_view_is_escaped():
    hostile = dict(FOUR, seats=[dict(FOUR["seats"][0], name='<script>alert("x")</script> javascript:url(')],
                   tlatoani="<b>", markers={"coyoacan": "<i>", "<nowhere>": 1})
    svg = board_svg(hostile, title="A & B <c>")
    root = parse(svg)
    assert "<script>" not in svg and "javascript:" not in svg and "url(" not in svg.replace("url(#az-", "")
    assert "Aztecs: <script>alert(\"x\")</script> javascript:url(" in "".join(root.itertext())
    assert titles(root, "marker") == ["population marker <i>"]


def test_same_view_same_drawing_and_sizes():
    assert board_svg(FOUR, width=600) == board_svg(FOUR, width=600)
    root = parse(board_svg(FOUR, width=600, id_prefix="g2"))
    assert root.get("width") == "600" and root.get("class") == "g2-map"
    with pytest.raises(ValueError):
        board_svg(FOUR, id_prefix="1 bad")


def test_the_engines_pochtecas_on_missions_and_spies_are_drawn_where_they_stand():
    """The engine's view keeps the count in the capital in "pochtecas" and those on the board in
    "envoys" (phase 5) and "spies" (until phase 7); an expedition is off the map."""
    seat = {"seat": "toltecs", "name": "Bo", "capital": "colhuacan", "generals": {}, "boats": {},
            "pochtecas": 1, "envoys": {"A": "chalco", "B": "exp"}, "spies": {"C": "tula"}}
    root = parse(board_svg({**FOUR, "seats": [seat]}))
    assert sorted(t for t in titles(root, "piece") if "pochteca" in t) == [
        "Toltecs pochteca 1", "Toltecs pochteca A", "Toltecs pochteca C"]


def test_the_flower_wars_catastrophes_reinforcements_and_lent_boats_are_drawn():
    """A natural catastrophe's region (on land or a lake zone) carries a warning sign; the
    Reinforcements troops that stayed stand where they are, in their people's colour, with their
    counts; leave to use boats is written in the lake zone it is for; the legend explains the
    new marks only when there are some."""
    view = {**FOUR, "war": {"catastrophes": ["chalco", "lake-2"],
                            "reinforcements": {"coyoacan": {"toltecs": [2, 1]}}},
            "boat_loans": [{"lender": "chichimecs", "borrower": "aztecs", "zone": "lake-3"}]}
    root = parse(board_svg(view))
    assert len(titles(root, "catastrophe")) == 2
    assert titles(root, "reinforcements") == ["Reinforcements of the Toltecs: 2 warrior(s), 1 jaguar(s)"]
    assert titles(root, "loan") == ["Chichimecs boats lent to the Aztecs in zone 3"]
    legend = "".join(root.itertext())
    assert "natural catastrophe" in legend and "Reinforcements that stayed" in legend
    plain = parse(board_svg(FOUR))
    assert titles(plain, "catastrophe") == titles(plain, "reinforcements") == titles(plain, "loan") == []
    assert "Reinforcements that stayed" not in "".join(plain.itertext())


def test_the_war_marks_of_a_real_games_view_are_drawn():
    """The engine's own view (engine/azteca/views.py) gives the war's marks in the shape the
    drawing reads: a state with a catastrophe and Reinforcements staying, as the cards leave them."""
    from engine.azteca import GAME
    from engine.azteca.battle import Force
    state = GAME.new_game({"game": "azteca", "seed": 3, "players": GAME.seating(3, 4)})
    state.catastrophes.add("chalco")
    state.garrisons["coyoacan"] = {"toltecs": Force(2, 1)}
    root = parse(board_svg(state.view(None)))
    assert len(titles(root, "catastrophe")) == 1
    assert titles(root, "reinforcements") == ["Reinforcements of the Toltecs: 2 warrior(s), 1 jaguar(s)"]
