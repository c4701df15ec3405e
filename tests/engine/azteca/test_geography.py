"""Azteca's map (engine/azteca/geography.py, data/map.json): one test per geographic fact the
rules give, the rule text as its docstring, then sanity checks of the graph and its drawing,
then the movement helpers of the Flower War."""
from __future__ import annotations

import copy
from collections import deque

import pytest

from engine.azteca.geography import _packaged, geography, load_map
from engine.core import SetupError

FULL = geography(4)
THREE = geography(3)
OTHERS = ("toltecs", "chichimecs", "tepanecs")


def keys(regions) -> set[str]:
    return {r.key for r in regions}


def edges(points) -> set[frozenset]:
    return {frozenset((points[i], points[(i + 1) % len(points)])) for i in range(len(points))}


def touching(geo, key: str) -> set[str]:
    """The regions whose drawn outline shares a border segment with `key`'s."""
    mine = edges(geo.shape(key).points)
    return {other for other in geo.regions if other != key and mine & edges(geo.shape(other).points)}


def component(start: str, links) -> set[str]:
    seen, queue = {start}, deque([start])
    while queue:
        for there in links(queue.popleft()) - seen:
            seen.add(there)
            queue.append(there)
    return seen


# --- the facts of the rules -------------------------------------------------------------------

def test_thirteen_valley_territories_take_population_markers():
    """5.1: "players each draw, before the first turn, one of the 13 Population markers ... places it
    face down on one of the 13 territories of the Mexico valley; the player cannot place it on a
    capital or an exterior valley (Tula, Toluca, Oaxtepec and Tlaxcala), nor on a lake.\""""
    valley = FULL.valley()
    assert len(valley) == 13
    assert all(r.kind == "valley" and r.people is None for r in valley)
    assert not keys(valley) & (keys(FULL.capitals()) | keys(FULL.outer()) | keys(FULL.lakes()))


def test_valley_territories_are_numbered_for_pochteca_orders():
    """12.0: "As each territory is characterized by a number, it suffices to make the letter correspond
    with the number of its destination and to write, for example, A11 or B7.\""""
    assert sorted(r.number for r in FULL.valley()) == list(range(1, 14))
    numbers = [r.number for r in FULL.land()]
    assert len(numbers) == len(set(numbers))
    for region in FULL.land():
        assert FULL.by_number(region.number) == region


def test_the_four_peoples_have_their_capitals():
    """2.0: "one of the four major peoples of the valley of Mexico (Aztecs, Toltecs, Chichimecs and
    Tepanecs)"; 20.0: "TENOCHTITLAN ... Aztec capital", "AZCAPOTZALCO: ... captured by the Tepanecs",
    "TEXCOCO: capital of Acolhuas, Chichimec tribe", "COLHUACAN: ... Toltec city\""""
    assert {p: FULL.capital(p).name for p in ("aztecs", "tepanecs", "chichimecs", "toltecs")} == {
        "aztecs": "Tenochtitlan", "tepanecs": "Azcapotzalco", "chichimecs": "Texcoco", "toltecs": "Colhuacan"}
    assert len(FULL.capitals()) == 4


@pytest.mark.parametrize("people", OTHERS)
def test_each_capital_has_two_adjacent_territories(people):
    """5.1: "He cannot place it on one of the two territories adjacent to his capital either, unless
    he cannot do otherwise.\""""
    near = FULL.adjacent_to_capital(people)
    assert len(near) == 2
    assert all(FULL.regions[k].kind == "valley" for k in near)


@pytest.mark.parametrize("dike", FULL.dike_links())
def test_the_dike_determines_the_aztec_adjacent_territories(dike):
    """5.1: "For the Aztec player, the dike determines the adjacent territories." (Reading: Tlatelolco,
    on Tenochtitlan's island, and the shore the dike joins.)"""
    assert FULL.adjacent_to_capital("aztecs", [dike]) == {"tlatelolco", dike[1]}
    assert FULL.adjacent_to_capital("aztecs", [dike[1]]) == {"tlatelolco", dike[1]}  # the shore alone
    assert FULL.adjacent_to_capital("aztecs") == {"tlatelolco"}


def test_tenochtitlan_stands_on_an_island_of_the_lake():
    """20.0: "TENOCHTITLAN: ... Aztec capital founded in 1325 on an island of the Texcoco lake." Without
    a dike only Tlatelolco, on the same island, borders it by land."""
    assert FULL.neighbours("tenochtitlan") == {"tlatelolco"}
    assert FULL.neighbours("tlatelolco") == {"tenochtitlan"}
    assert FULL.region("tenochtitlan").harbour and FULL.region("tlatelolco").harbour


def test_three_dike_junctions_join_the_island_to_the_coast():
    """5.0: "The Aztec player further receives a dike that is immediately placed on one of the 3
    following junctions"; 13.3: "Dikes allow the Aztec player to connect his island to the coast.\""""
    links = FULL.dike_links()
    assert len(links) == 3 and len(set(links)) == 3
    for island, shore in links:
        assert island == "tenochtitlan"
        assert FULL.region(shore).kind == "valley" and FULL.region(shore).harbour
        assert shore in FULL.neighbours("tenochtitlan", [(island, shore)])
        assert "tenochtitlan" in FULL.neighbours(shore, [(shore, island)])
        assert shore not in FULL.neighbours("tenochtitlan")


def test_tizapan_is_a_neutral_marsh_a_dike_reaches():
    """13.3: "If the Aztec player places a dike connecting Tenochtitlan and Tizapan, the NEUTRAL territory
    Tizapan no longer benefits from a yellow defense die due to the marsh when attacking through the
    dike.\""""
    tizapan = FULL.region("tizapan")
    assert tizapan.kind == "valley" and tizapan.terrain == "marsh" and tizapan.people is None
    assert ("tenochtitlan", "tizapan") in FULL.dike_links()


def test_the_outer_valleys():
    """4.0: "as well as the exterior valleys of Tula, Toluca, Tlaxcala and Oaxtepec.\""""
    assert {r.name for r in FULL.outer()} == {"Tula", "Toluca", "Tlaxcala", "Oaxtepec"}
    assert all(not r.harbour for r in FULL.outer())


def test_tula_borders_toluca():
    """4.0: "Note that the valley of Tula continues under the pyramid and borders the valley of Toluca.\""""
    assert "toluca" in FULL.neighbours("tula") and "tula" in FULL.neighbours("toluca")


def test_three_outer_valleys_have_mountains():
    """14.12: "Three of them (Toluca, Tlaxcala And Oaxtepec) benefit from a bonus in defense due to their
    chain of mountains.\""""
    assert {r.name for r in FULL.outer() if r.terrain == "mountain"} == {"Toluca", "Tlaxcala", "Oaxtepec"}
    assert FULL.region("tula").terrain is None


def test_the_lake_is_split_into_four_numbered_zones():
    """4.0: "The central lake is split into four lake zones"; 13.0: "There are 4 numbered lake zones.\""""
    assert [(r.key, r.number) for r in FULL.lakes()] == [(f"lake-{n}", n) for n in range(1, 5)]
    assert all(FULL.by_number(n, lake=True).is_lake for n in range(1, 5))


@pytest.mark.parametrize("geo", [FULL, THREE], ids=["4 players", "3 players"])
def test_every_city_state_on_the_lake_has_a_harbour(geo):
    """4.0: "all the city-states that border the lake possess a harbor. One can thus debark in any
    coastal city-state." Every land region whose drawn border runs along a lake zone lists that zone."""
    for region in geo.land():
        drawn = {k for k in touching(geo, region.key) if geo.regions[k].is_lake}
        assert set(region.lakes) == drawn, region.key
    for zone in geo.lakes():
        assert geo.shores(zone.key) == {r.key for r in geo.land() if zone.key in r.lakes}
        assert len(geo.shores(zone.key)) >= 3


def test_there_are_mountains_and_marshes_in_the_valley():
    """4.0: "There are two types of relief, mountains and marshes, which provide a defensive bonus.\""""
    terrains = {r.terrain for r in FULL.valley()}
    assert {"mountain", "marsh"} <= terrains


def test_chinampas_are_marshes():
    """4.0: "The chinampas (or floating gardens) are treated as marshes.\""""
    gardens = [r for r in FULL.land() if r.chinampas]
    assert {r.name for r in gardens} == {"Xochimilco", "Xaltocan"}
    assert all(r.terrain == "marsh" for r in gardens)


# --- section 16: three players ------------------------------------------------------------------

def test_three_players_the_aztecs_are_out():
    """16.0: "With 3 players, the Aztec player is taken out of game.\""""
    assert {r.people for r in THREE.capitals()} == set(OTHERS)
    with pytest.raises(KeyError):
        THREE.capital("aztecs")
    for people in OTHERS:
        assert THREE.adjacent_to_capital(people) == FULL.adjacent_to_capital(people)


def test_three_players_tenochtitlan_and_tlatelolco_are_one_marsh_territory():
    """16.0: "Tlalolco and Tenochtitlan form a unique territory considered a marsh.\""""
    assert "tenochtitlan" not in THREE.regions
    merged = THREE.region("tlatelolco")
    assert merged.terrain == "marsh" and merged.kind == "valley"
    assert "Tenochtitlan" in merged.name and "Tlatelolco" in merged.name
    assert set(merged.lakes) == {"lake-2", "lake-3"}
    assert THREE.neighbours("tlatelolco") == frozenset()


def test_three_players_a_population_marker_goes_on_the_common_territory():
    """16.0: "A population marker is placed on this common territory." The 13 markers still find 13
    territories."""
    assert "tlatelolco" in keys(THREE.valley())
    assert len(THREE.valley()) == 13


def test_three_players_the_outer_valleys_are_out_of_play():
    """16.0: "The 4 valleys, TULA, TOLUCA, TLAXCALA and OAXTEPEC, are not taken into account in the game,
    no player can enter these lands.\""""
    assert THREE.outer() == []
    gone = {"tula", "toluca", "tlaxcala", "oaxtepec"}
    assert not gone & set(THREE.regions)
    assert not any(gone & THREE.neighbours(r.key) for r in THREE.land())
    assert not gone & THREE.reachable("azcapotzalco", steps=9)


def test_three_players_no_dikes():
    """16.0: "The rules for dikes are not used.\""""
    assert THREE.dike_links() == ()
    with pytest.raises(ValueError):
        THREE.neighbours("tlatelolco", [("tenochtitlan", "tlacopan")])


# --- sanity of the graph and its drawing ------------------------------------------------------

@pytest.mark.parametrize("geo", [FULL, THREE], ids=["4 players", "3 players"])
def test_the_drawing_agrees_with_the_graph(geo):
    """Two regions border each other exactly where their outlines share a border segment, so what a
    player sees on the map is what the engine plays."""
    for key, region in geo.regions.items():
        drawn = touching(geo, key)
        if region.is_lake:
            assert drawn == set(geo.lake_neighbours(key)) | geo.shores(key), key
        else:
            assert drawn == set(geo.neighbours(key)) | set(region.lakes), key
    x0, y0, width, height = geo.view_box
    for key in geo.regions:
        assert all(x0 <= x <= x0 + width and y0 <= y <= y0 + height for x, y in geo.shape(key).points), key


@pytest.mark.parametrize("geo", [FULL, THREE], ids=["4 players", "3 players"])
def test_the_mainland_is_one_piece_and_the_lake_joins_everything(geo):
    mainland = {r.key for r in geo.land()} - {"tenochtitlan", "tlatelolco"}
    start = next(iter(mainland))
    assert component(start, geo.neighbours) == mainland

    assert component(start, geo.touching) == set(geo.regions)


@pytest.mark.parametrize("dike", FULL.dike_links())
def test_any_dike_joins_the_island_to_the_mainland(dike):
    land = {r.key for r in FULL.land()}
    assert component("tenochtitlan", lambda k: FULL.neighbours(k, [dike])) == land


def test_the_lake_zones_form_a_chain():
    """Zumpango-Xaltocan (1) opens on Texcoco (3), which opens on the Lake of Mexico (2), which opens
    on Xochimilco-Chalco (4) through the Mexicaltzingo channel."""
    assert {z.key: set(FULL.lake_neighbours(z.key)) for z in FULL.lakes()} == {
        "lake-1": {"lake-3"}, "lake-2": {"lake-3", "lake-4"}, "lake-3": {"lake-1", "lake-2"},
        "lake-4": {"lake-2"}}


def test_every_valley_territory_and_capital_has_a_harbour():
    """A reading of this map, not a rule: boats reach every territory of the valley."""
    assert all(r.harbour for r in FULL.valley() + FULL.capitals())


@pytest.mark.parametrize("change, message", [
    (lambda d: d["regions"][0]["neighbours"].append("chalco"), "does not list"),
    (lambda d: d["regions"][0].update(terrain=None), "chinampas"),
    (lambda d: d["regions"][0].update(kind="castle"), "kind"),
    (lambda d: d["regions"][0]["lakes"].append("lake-9"), "not a lake zone"),
    (lambda d: d["dikes"].append({"from": "tenochtitlan", "to": "tlatelolco", "path": [[0, 0], [1, 1]]}),
     "dike"),
    (lambda d: d["regions"][1].update(number=1), "share a number"),
])
def test_a_broken_map_file_is_refused_with_the_reason(change, message):
    data = copy.deepcopy(_packaged())
    change(data)
    with pytest.raises(SetupError, match=message):
        load_map(data, 4)


def test_only_three_or_four_players():
    with pytest.raises(SetupError):
        load_map(_packaged(), 2)


# --- moving: 14.3 movement, 14.6 the Reserve, 14.11 retreat -----------------------------------

def owner(*own: str):
    """stop_at for a player owning `own`: every other land region is neutral or enemy."""
    return lambda key: key not in own


def test_an_army_moves_up_to_three_territories_over_its_own_land():
    """14.3: "Armies move up to 3 territories." (Azcapotzalco -> Tlacopan -> Coyoacan -> Tizapan.)"""
    mine = owner("azcapotzalco", "tlacopan", "coyoacan", "tizapan", "xochimilco")
    ends = FULL.reachable("azcapotzalco", stop_at=mine)
    assert {"tlacopan", "coyoacan", "tizapan", "xochimilco"} <= ends
    assert "colhuacan" not in ends  # a fourth territory
    assert FULL.is_path(("azcapotzalco", "tlacopan", "coyoacan", "tizapan"), stop_at=mine)
    assert not FULL.is_path(("azcapotzalco", "tlacopan", "coyoacan", "tizapan", "colhuacan"), stop_at=mine)


def test_an_army_stops_on_entering_neutral_or_enemy_land():
    """14.3: "However, they must stop as soon as they enter a neutral or enemy territory.\""""
    ends = FULL.reachable("azcapotzalco", stop_at=owner("azcapotzalco"))
    assert ends == {"tenayuca", "tlacopan"}
    assert not FULL.is_path(("azcapotzalco", "tlacopan", "coyoacan"), stop_at=owner("azcapotzalco"))


def test_an_army_crosses_a_lake_zone_only_where_allowed():
    """14.3: "An army can move through a lake zone if boats of the same color are present. The player who
    controls a lake zone can prevent crossing.\""""
    mine = owner("azcapotzalco")
    assert "tenochtitlan" not in FULL.reachable("azcapotzalco", stop_at=mine)
    ends = FULL.reachable("azcapotzalco", stop_at=mine, may_cross_lake={"lake-2"}.__contains__)
    assert {"tenochtitlan", "colhuacan", "iztapalapa", "ecatepec"} <= ends
    assert "texcoco" not in ends  # lake 3 may not be crossed
    route = ("azcapotzalco", "lake-2", "lake-3", "texcoco")
    assert not FULL.is_path(route, may_cross_lake={"lake-2"}.__contains__)
    assert FULL.is_path(route, may_cross_lake={"lake-2", "lake-3"}.__contains__)
    assert not FULL.is_path(("azcapotzalco", "lake-2"), may_cross_lake=lambda zone: True)  # must end on land
    assert not FULL.is_path(("lake-2", "tlacopan"), may_cross_lake=lambda zone: True)  # and start on it


def test_a_lake_crossing_counts_the_landing_as_one_territory():
    """Reading of 14.3 ("An army must always stop its movement on a territory"): zones crossed cost no
    step; the landing enters one territory."""
    routes = set(FULL.paths("texcoco", steps=1, may_cross_lake=lambda zone: True))
    assert ("texcoco", "lake-3", "lake-2", "lake-4", "xochimilco") in routes
    assert all(not FULL.regions[route[-1]].is_lake for route in routes)
    assert {route[-1] for route in routes} == FULL.reachable("texcoco", steps=1, may_cross_lake=lambda z: True)


def test_paths_and_reachable_agree():
    mine = owner("texcoco", "coatlinchan", "iztapalapa")
    cross = {"lake-3", "lake-4"}.__contains__
    routes = list(FULL.paths("texcoco", stop_at=mine, may_cross_lake=cross))
    assert {r[-1] for r in routes} == FULL.reachable("texcoco", stop_at=mine, may_cross_lake=cross)
    assert all(FULL.is_path(r, stop_at=mine, may_cross_lake=cross) for r in routes)


def test_the_dike_is_a_land_link_for_every_army():
    """13.3: "Dikes allow the Aztec player to connect his island to the coast and to use it as a ground
    link ... The other players can use them to attack the Aztec player\""""
    dike = ("tenochtitlan", "tlacopan")
    assert "tenochtitlan" in FULL.reachable("azcapotzalco", stop_at=owner("azcapotzalco", "tlacopan"),
                                            dikes=[dike])
    assert "tenochtitlan" not in FULL.reachable("azcapotzalco", stop_at=owner("azcapotzalco", "tlacopan"))


def test_the_reserve_needs_a_continuous_chain():
    """14.6: "it can only intervene in an attacked city to the condition that it can trace a continuous
    chain of territories or lake zones belonging to the player to this city.\""""
    mine = {"colhuacan", "xochimilco", "chalco", "coatlinchan"}
    assert FULL.connected("colhuacan", "coatlinchan", through=mine.__contains__)
    assert not FULL.connected("colhuacan", "tenayuca", through=mine.__contains__)
    assert FULL.connected("colhuacan", "tenayuca", through=(mine | {"lake-2"}).__contains__)


def test_a_retreat_by_a_chain_of_boats():
    """14.11: "he must have an adjacent territory belonging to him or a continuous chain of boats that
    allow him to retreat to one of his territories.\""""
    boats = {"lake-3", "lake-2"}.__contains__
    assert FULL.connected("texcoco", "tizapan", through=boats)
    assert not FULL.connected("texcoco", "xochimilco", through=boats)


def test_an_army_intercepts_on_adjacent_ground_or_lake():
    """14.4: "An army, even if it already moved, can intercept an enemy army that is crossing or stops in
    an adjacent territory (ground or lake).\""""
    assert FULL.touching("texcoco") == {"teotihuacan", "coatlinchan", "lake-3"}
    assert FULL.touching("lake-4") == {"lake-2", "colhuacan", "xochimilco", "chalco", "iztapalapa"}
    assert "tizapan" in FULL.touching("tenochtitlan", [("tenochtitlan", "tizapan")])
