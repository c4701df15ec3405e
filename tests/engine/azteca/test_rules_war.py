"""The Flower War (phase 7, 14.0-14.15), one rule case a test (DATC style; readings in
docs/rules-azteca.md, "The Flower War").  The cases play on the real map (the movement helpers
are the map's): Toltecs in Colhuacan (next to Xochimilco and Tizapan, harbours on zones 2 and
4), Chichimecs in Texcoco, Tepanecs in Azcapotzalco.  Positions are set directly; dice are
scripted per colour ("L" a lance, "-" a blank; white faces as numbers), and a scripted colour
that runs out shows blanks (white: 1, no mobilisation)."""
from __future__ import annotations

import pytest

from engine.azteca import war
from engine.azteca.components import LANCE
from engine.azteca.game import setup_from_record
from engine.azteca.state import AztecaState
from engine.core import IllegalOrderError

SEATS = ("aztecs", "toltecs", "chichimecs", "tepanecs")


class Scripted:
    def __init__(self, **faces: str):
        self.faces = {colour: list(script) for colour, script in faces.items()}

    def roll(self, colour: str) -> str:
        left = self.faces.get(colour) or ["1" if colour == "white" else "-"]
        mark = left.pop(0)
        return LANCE if mark == "L" else "blank" if mark == "-" else mark


@pytest.fixture
def dice(monkeypatch):
    """Every battle of the case rolls these dice."""
    scripted = Scripted()
    monkeypatch.setattr(war, "EditionDice", lambda faces, rng: scripted)
    return scripted


def board(armies: dict[str, dict[str, tuple[str, int, int]]] = {}, owner: dict[str, str] = {},
          reserve: dict[str, tuple[int, int]] = {}, boats: dict[str, dict[str, int]] = {}) -> AztecaState:
    """A 4-player game set directly in phase 7: armies seat -> letter -> (where, warriors,
    knights); no other army, empty Reserves unless given, no boats unless given."""
    state = AztecaState(setup_from_record({"game": "azteca", "seed": 7, "players": list(SEATS)}))
    state.owed, state.phase, state.markers_revealed = {}, "war", True
    for s, seat in enumerate(SEATS):
        person = state.people[s]
        person.chart = {box: [0, 0] for box in ("A", "B", "C", "R")}
        person.chart["R"] = list(reserve.get(seat, (0, 0)))
        person.generals = {letter: None for letter in "ABC"}
        for letter, (where, warriors, jaguars) in armies.get(seat, {}).items():
            person.generals[letter] = where
            person.chart[letter] = [warriors, jaguars]
        person.boats = dict(boats.get(seat, {}))
    for territory, seat in owner.items():
        state.owner[territory] = SEATS.index(seat)
    return state


def turn(state: AztecaState, seat: str, plans: dict[str, str] | None = None) -> AztecaState:
    """Standing orders given, then a movement marker of `seat` drawn."""
    state.plans = {SEATS.index(who): state.parse(text)[0] for who, text in (plans or {}).items()}
    state.war_markers = [SEATS.index(seat)]
    state._draw_marker()
    assert state.owed == {SEATS.index(seat): "march"}
    return state


def order(state: AztecaState, seat: str, text: str) -> None:
    for parsed in state.parse(text):
        state.apply(seat, parsed)


def moves(state: AztecaState, seat: str, army: str = "A") -> list[str]:
    return state.legal(SEATS.index(seat))["moves"][army]


def where(state: AztecaState, seat: str, army: str = "A") -> str | None:
    return state.people[SEATS.index(seat)].generals[army]


def events(state: AztecaState, kind: str) -> list[dict]:
    return [e for e in state.view(None)["events"] if e["type"] == kind]


def test_armies_move_up_to_three_territories():
    """14.3: "Armies move up to 3 territories." Colhuacan to Coatlinchan through Toltec land is
    3; Texcoco beyond it would be a fourth."""
    state = turn(board({"toltecs": {"A": ("colhuacan", 2, 0)}},
                       {"xochimilco": "toltecs", "chalco": "toltecs", "coatlinchan": "toltecs"}), "toltecs")
    assert "coatlinchan" in moves(state, "toltecs") and "texcoco" not in moves(state, "toltecs")
    with pytest.raises(IllegalOrderError):
        order(state, "toltecs", "move A texcoco")


def test_an_army_stops_on_entering_neutral_land():
    """14.3: "they must stop as soon as they enter a neutral or enemy territory"."""
    state = turn(board({"toltecs": {"A": ("colhuacan", 2, 0)}}), "toltecs")
    assert moves(state, "toltecs") == ["tizapan", "xochimilco"]


def test_a_lake_zone_is_crossed_only_with_own_boats_there():
    """14.3: "An army can move through a lake zone if boats of the same color are present."
    With a boat on zone 4 the Toltecs land at Chalco straight from Colhuacan."""
    without = turn(board({"toltecs": {"A": ("colhuacan", 2, 0)}}, boats={"chichimecs": {"lake-4": 1}}), "toltecs")
    with_boat = turn(board({"toltecs": {"A": ("colhuacan", 2, 0)}}, boats={"toltecs": {"lake-4": 1}}), "toltecs")
    assert "chalco" not in moves(without, "toltecs") and "chalco" in moves(with_boat, "toltecs")


def test_the_controller_of_a_lake_zone_may_refuse_the_crossing():
    """14.3: "The player who controls a lake zone can prevent crossing of an army; if there is no
    control crossing is free." pbem: the controller's standing `allow`."""
    def game(allow: str) -> AztecaState:
        state = board({"toltecs": {"A": ("colhuacan", 2, 0)}}, boats={"toltecs": {"lake-4": 1},
                                                                     "chichimecs": {"lake-4": 2}})
        state.lake_control["lake-4"] = SEATS.index("chichimecs")
        return turn(state, "toltecs", {"chichimecs": f"plan allow {allow}"})
    assert "chalco" not in moves(game("none"), "toltecs")
    assert "chalco" in moves(game("toltecs"), "toltecs")


def test_an_army_that_moved_waits_until_next_turn():
    """14.2: "When moved, an army must wait the next turn before it can move again"."""
    state = turn(board({"toltecs": {"A": ("colhuacan", 2, 0), "B": ("colhuacan", 1, 0)}},
                       {"xochimilco": "toltecs"}), "toltecs")
    state.war_markers.append(SEATS.index("toltecs"))  # his second marker comes next
    order(state, "toltecs", "move A xochimilco")
    assert list(state.legal(SEATS.index("toltecs"))["moves"]) == ["B"]
    with pytest.raises(IllegalOrderError):
        order(state, "toltecs", "move A colhuacan")


def test_one_marker_per_army_is_drawn():
    """14.2: "For each army, they receive a Movement marker ... All 'Army Movement' markers must
    be drawn"; a seat with no army has none."""
    state = board({"toltecs": {"A": ("colhuacan", 2, 0), "B": ("colhuacan", 1, 0)},
                   "tepanecs": {"C": ("azcapotzalco", 1, 0)}})
    state._ask_all("plan")
    for seat in SEATS:
        order(state, seat, "plan none")
    assert events(state, "war-markers")[0]["markers"] == {"aztecs": 0, "toltecs": 2, "chichimecs": 0, "tepanecs": 1}
    assert len(state.war_markers) == 2 and list(state.owed.values()) == ["march"]


def test_only_the_first_declarer_intercepts(dice):
    """14.4: "Only the first player who has declared an interception can realize it." pbem: the
    first standing interception in seat order from the mover's left (Chichimecs before Tepanecs
    for a Toltec move)."""
    state = turn(board({"toltecs": {"A": ("colhuacan", 3, 0)}, "chichimecs": {"A": ("xochimilco", 1, 0)},
                        "tepanecs": {"A": ("coyoacan", 1, 0)}},
                       {"xochimilco": "chichimecs", "coyoacan": "tepanecs"}),
                 "toltecs", {"chichimecs": "plan intercept A, retreat 9", "tepanecs": "plan intercept A, retreat 9",
                             "toltecs": "plan retreat 9, losses warriors, promote no"})
    order(state, "toltecs", "move A tizapan")
    assert [(e["seat"], e["army"]) for e in events(state, "interception")] == [("chichimecs", "A")]


def test_an_interceptor_on_neutral_land_returns_to_its_start(dice):
    """14.4: "An army that intercepts on a neutral territory must, once the battle is resolved,
    retreat to its starting territory"; the intercepted army that loses goes back to its land."""
    dice.faces["yellow"] = list("L-")
    state = turn(board({"toltecs": {"A": ("colhuacan", 1, 0)}, "chichimecs": {"A": ("xochimilco", 4, 0)}},
                       {"xochimilco": "chichimecs"}),
                 "toltecs", {"chichimecs": "plan intercept A, losses warriors, promote no",
                             "toltecs": "plan losses warriors"})
    order(state, "toltecs", "move A tizapan")
    assert where(state, "chichimecs") == "xochimilco" and where(state, "toltecs") is None
    assert "tizapan" not in state.owner


def test_a_winning_intercepted_army_finishes_its_move(dice):
    """14.4: "An army that was intercepted and that wins the battle can finish its movement
    normally." The interceptor retreats after the first round; the Toltecs go on to Chalco."""
    state = turn(board({"toltecs": {"A": ("colhuacan", 3, 0)}, "chichimecs": {"A": ("tizapan", 1, 0)}},
                       {"xochimilco": "toltecs", "chalco": "toltecs", "tizapan": "chichimecs"}),
                 "toltecs", {"chichimecs": "plan intercept A, retreat 9", "toltecs": "plan retreat 0, promote no"})
    order(state, "toltecs", "move A xochimilco chalco")
    assert events(state, "interception")[0]["at"] == "xochimilco"
    assert where(state, "toltecs") == "chalco" and where(state, "chichimecs") == "tizapan"


def test_armies_on_one_territory_reorganise_and_an_emptied_army_is_destroyed():
    """14.5: "Whenever armies are located on the same territory, they can be reorganized ... A
    player that empties voluntarily his army when reorganizing destroys it"."""
    state = turn(board({"toltecs": {"A": ("xochimilco", 2, 0), "B": ("xochimilco", 1, 1)}},
                       {"xochimilco": "toltecs"}), "toltecs")
    order(state, "toltecs", "reorganise A 3w 1j, B 0w")
    person = state.people[SEATS.index("toltecs")]
    assert person.chart["A"] == [3, 1] and person.generals["B"] is None
    assert state.owed == {SEATS.index("toltecs"): "march"}  # still his turn to move


def test_reorganising_needs_the_boxes_together_and_four_counters_at_most():
    """14.5: only armies together (an army in the capital with the Reserve), or met by a move
    (the cases below); 14.1: "An army can never contain more than 4 counters". Army A
    in Tlacopan and army B in Colhuacan cannot meet this turn."""
    state = turn(board({"toltecs": {"A": ("tlacopan", 2, 0), "B": ("colhuacan", 3, 0)}},
                       {"tlacopan": "toltecs"}, reserve={"toltecs": (2, 0)}), "toltecs")
    for text in ("reorganise A 1w, B 4w", "reorganise B 5w, R 0w"):
        with pytest.raises(IllegalOrderError):
            order(state, "toltecs", text)
    order(state, "toltecs", "reorganise B 4w, R 1w")


def test_a_broken_chain_keeps_the_reserve_at_home(dice):
    """14.6: the Reserve "can only intervene in an attacked city to the condition that it can
    trace a continuous chain of territories or lake zones belonging to the player". Chalco is
    cut off from Colhuacan (Xochimilco neutral) unless Toltec boats hold zone 4."""
    def attacked(boats: dict) -> AztecaState:
        state = turn(board({"chichimecs": {"A": ("coatlinchan", 2, 0)}},
                           {"chalco": "toltecs", "coatlinchan": "chichimecs"}, reserve={"toltecs": (2, 0)},
                           boats={"toltecs": boats}), "chichimecs", {"chichimecs": "plan promote no"})
        order(state, "chichimecs", "move A chalco")
        return state
    cut = attacked({})
    assert cut.owner["chalco"] == SEATS.index("chichimecs") and not cut.waiting() == [SEATS.index("toltecs")]
    joined = attacked({"lake-4": 1})
    assert joined.owed == {SEATS.index("toltecs"): "reserve"}


def test_an_army_with_nowhere_to_go_must_fight(dice):
    """14.11: "he must have an adjacent territory belonging to him or a continuous chain of boats
    ... A player that cannot retreat must fight to the very end." Toltec army B in Chalco has
    neither; with a boat on zone 4 it may retreat to Colhuacan."""
    def round_fought(boats: dict) -> AztecaState:
        state = turn(board({"toltecs": {"B": ("chalco", 2, 0)}, "chichimecs": {"A": ("coatlinchan", 2, 0)}},
                           {"chalco": "toltecs", "coatlinchan": "chichimecs"}, boats={"toltecs": boats}),
                     "chichimecs", {"chichimecs": "plan promote no", "toltecs": "plan reserve 0"})
        order(state, "chichimecs", "move A chalco")
        return state
    cornered = round_fought({})
    assert cornered.owed == {SEATS.index("chichimecs"): "retreat"}
    free = round_fought({"lake-4": 1})
    assert free.owed == {SEATS.index("chichimecs"): "retreat", SEATS.index("toltecs"): "retreat"}
    assert free.legal(SEATS.index("toltecs"))["orders"] == ["retreat none", "retreat B"]


def test_a_plundered_capital_gives_half_its_points_and_all_its_tributes(dice):
    """14.15: "he takes half of the Sacrifice points (rounded up) of the defender, as well as all
    his Tributes. Then the attacker must retreat for a capital can never be conquered"."""
    state = board({"toltecs": {"A": ("tlacopan", 2, 0)}}, {"tlacopan": "toltecs", "tenayuca": "tepanecs"})
    tepanecs, toltecs = state.people[SEATS.index("tepanecs")], state.people[SEATS.index("toltecs")]
    tepanecs.sacrifice, tepanecs.tributes, toltecs.sacrifice, toltecs.tributes = 5, 6, 0, 1
    turn(state, "toltecs", {"toltecs": "plan promote no"})
    order(state, "toltecs", "move A azcapotzalco")
    order(state, "tepanecs", "reserve none")  # asked all the same: the Reserve is face down
    assert (tepanecs.sacrifice, tepanecs.tributes, toltecs.sacrifice, toltecs.tributes) == (2, 0, 3, 7)
    assert state.owner["azcapotzalco"] == SEATS.index("tepanecs") and where(state, "toltecs") == "tlacopan"


def test_a_player_wiped_out_in_his_last_territory_gets_free_troops(dice):
    """14.15: "If the capital is the last territory of a player and that all his troops are
    captured while defending it, the player ... will receive for free 1 General as well as 3
    warriors and 1 Jaguar knight on the next turn"."""
    dice.faces["yellow"] = list("L-")
    state = turn(board({"toltecs": {"A": ("tlacopan", 0, 4)}}, {"tlacopan": "toltecs"},
                       reserve={"tepanecs": (1, 0)}), "toltecs", {"toltecs": "plan promote no",
                                                                   "tepanecs": "plan reserve 4, losses warriors"})
    order(state, "toltecs", "move A azcapotzalco")
    assert state.revive == {SEATS.index("tepanecs")}
    state._free_troops()
    tepanecs = state.people[SEATS.index("tepanecs")]
    assert tepanecs.generals["A"] == "azcapotzalco" and tepanecs.chart["A"] == [3, 1]


def test_a_conquest_removes_another_players_pochteca(dice):
    """12.0 / 14.7: a pochteca on Espionage stands on the neutral; an enemy army that conquers the
    territory removes it (pbem reading: it leaves the board with the territory's independence)."""
    dice.faces["yellow"] = list("-LL")  # Tizapan's marsh die, then the Toltecs' round
    state = turn(board({"toltecs": {"A": ("colhuacan", 0, 4), "B": ("colhuacan", 1, 0)}}), "toltecs",
                 {"toltecs": "plan promote no, losses warriors"})
    state.war_markers.append(SEATS.index("toltecs"))  # the war goes on (spies leave when it ends)
    state.spies = {SEATS.index("chichimecs"): {"B": "tizapan"}}
    order(state, "toltecs", "move A tizapan")
    assert state.owner.get("tizapan") == SEATS.index("toltecs")
    assert state.spies[SEATS.index("chichimecs")] == {}
    assert events(state, "pochteca-removed")[0]["pochteca"] == "B"


def test_an_army_crossing_a_lake_zone_is_intercepted_from_a_harbour_with_boats(dice):
    """14.4: "An army can intercept on a lake zone only if at least one boat of the same color is
    present and if the player controls this zone or no other player controls it." The Tepanecs in
    Coyoacan (harbour on zone 2) meet a Toltec army crossing zone 2 only with a boat there."""
    def crossing(tepanec_boats: dict) -> AztecaState:
        state = turn(board({"toltecs": {"A": ("colhuacan", 3, 0)}, "tepanecs": {"A": ("coyoacan", 1, 0)}},
                           {"tlatelolco": "toltecs", "coyoacan": "tepanecs"},
                           boats={"toltecs": {"lake-2": 1}, "tepanecs": tepanec_boats}),
                     "toltecs", {"tepanecs": "plan intercept A, retreat 9", "toltecs": "plan retreat 0, promote no"})
        order(state, "toltecs", "move A lake-2 tlatelolco")
        return state
    assert not events(crossing({}), "interception")
    met = crossing({"lake-2": 1})
    assert events(met, "interception")[0]["at"] == "lake-2" and where(met, "toltecs") == "tlatelolco"


def test_a_conquered_city_changes_marker_and_loses_its_assimilation(dice):
    """14.7: "If the territory has already a marker from another player, it is replaced by a marker
    belonging to the victor." pbem: the new marker is a plain City (not assimilated)."""
    state = turn(board({"chichimecs": {"A": ("coatlinchan", 2, 0)}},
                       {"chalco": "toltecs", "coatlinchan": "chichimecs"}), "chichimecs")
    state.assimilated.add("chalco")
    order(state, "chichimecs", "move A chalco")
    assert state.owner["chalco"] == SEATS.index("chichimecs") and "chalco" not in state.assimilated
    assert where(state, "chichimecs") == "chalco"


def test_several_defending_armies_fight_one_after_another(dice):
    """14.7: "There is a battle when 2 enemy armies meet." pbem: two Toltec armies in Chalco fight
    the attacker in turn, A first; the attacker beats A and then meets B (Chalco is a mountain:
    the Toltecs' terrain die comes first, a blank)."""
    dice.faces["yellow"] = list("-L-")
    state = turn(board({"toltecs": {"A": ("chalco", 1, 0), "B": ("chalco", 2, 0)},
                        "chichimecs": {"A": ("coatlinchan", 0, 4)}},
                       {"chalco": "toltecs", "coatlinchan": "chichimecs"}),
                 "chichimecs", {"chichimecs": "plan promote no, losses warriors", "toltecs": "plan losses warriors"})
    order(state, "chichimecs", "move A chalco")
    assert where(state, "toltecs", "A") is None
    assert [e["defending_army"] for e in events(state, "battle")] == ["A", "B"]


def test_a_reorganisation_stays_secret_from_the_other_seats():
    """14.1: counters stay "face down so that their combat force is unknown": two twin games
    whose Toltecs reorganise differently look the same to every other seat."""
    twins = []
    for text in ("reorganise A 3w, B 0w 1j", "reorganise A 1w 1j, B 2w"):
        state = turn(board({"toltecs": {"A": ("xochimilco", 2, 0), "B": ("xochimilco", 1, 1)}},
                           {"xochimilco": "toltecs"}), "toltecs")
        order(state, "toltecs", text)
        twins.append(state)
    for seat in ("aztecs", "chichimecs", "tepanecs", None):
        assert twins[0].view(seat) == twins[1].view(seat)
    assert twins[0].view("toltecs") != twins[1].view("toltecs")


def test_a_raid_is_never_intercepted(dice):
    """14.4: "A Raid can never be intercepted." The Toltecs play a Raid card with their move past
    a Chichimec army that intercepts anything else."""
    state = turn(board({"toltecs": {"A": ("colhuacan", 3, 0)}, "chichimecs": {"A": ("xochimilco", 1, 0)}},
                       {"xochimilco": "chichimecs"}),
                 "toltecs", {"chichimecs": "plan intercept A, retreat 9", "toltecs": "plan retreat 9, losses warriors"})
    state.people[SEATS.index("toltecs")].hand = ["raid"]
    order(state, "toltecs", "move A tizapan raid")
    assert not events(state, "interception") and events(state, "battle")[0]["at"] == "tizapan"
    assert state.people[SEATS.index("toltecs")].hand == [] and "raid" in state.discards


def test_a_raid_needs_its_card_and_foreign_land():
    """8.0: a card is played from the hand; the edition's Raid is "a surprise attack on a territory
    you do not control"."""
    state = turn(board({"toltecs": {"A": ("colhuacan", 3, 0)}}, {"xochimilco": "toltecs"}), "toltecs")
    with pytest.raises(IllegalOrderError):
        order(state, "toltecs", "move A tizapan raid")
    state.people[SEATS.index("toltecs")].hand = ["raid"]
    with pytest.raises(IllegalOrderError):
        order(state, "toltecs", "move A xochimilco raid")


def test_a_capital_plundered_by_a_raid_loses_half_its_points_only(dice):
    """14.15: "If a capital is plundered by a Raid, the defender of the capital loses half of his
    Sacrifice points." pbem: nothing else (his Tributes stay, the raider gains no points)."""
    state = board({"toltecs": {"A": ("tlacopan", 2, 0)}}, {"tlacopan": "toltecs"})
    tepanecs, toltecs = state.people[SEATS.index("tepanecs")], state.people[SEATS.index("toltecs")]
    tepanecs.sacrifice, tepanecs.tributes, toltecs.sacrifice, toltecs.hand = 5, 6, 0, ["raid"]
    turn(state, "toltecs", {"toltecs": "plan promote no", "tepanecs": "plan reserve 0"})
    order(state, "toltecs", "move A azcapotzalco raid")
    assert (tepanecs.sacrifice, tepanecs.tributes, toltecs.sacrifice) == (2, 6, 0)


def test_a_neighbour_whose_reserve_reaches_may_be_cousin(dice):
    """14.14: "Any player adjacent to a neutral territory attacked by another player can declare
    himself cousin ... the territory adjacent to the neutral territory being attacked must be
    connected to his capital." The Toltecs (Xochimilco, next to their capital) are asked; the
    Tepanecs, with a Reserve but no land next to Tizapan, are not."""
    state = turn(board({"chichimecs": {"A": ("coyoacan", 2, 0)}}, {"coyoacan": "chichimecs", "xochimilco": "toltecs"},
                       reserve={"toltecs": (1, 0), "tepanecs": (2, 0)}), "chichimecs")
    order(state, "chichimecs", "move A tizapan")
    assert state.owed == {SEATS.index("toltecs"): "cousin"}
    assert state.legal(SEATS.index("toltecs"))["orders"] == ["cousin none", "cousin warrior"]


def test_a_neighbour_with_an_empty_reserve_is_asked_as_cousin_too(dice):
    """14.1: an army's counters stay face down on its owner's chart, so whether a Reserve is
    empty is secret.  14.14's neighbour is asked whatever his Reserve holds (with nothing in it
    he may only answer 'cousin none'): the other seats and spectators see the same game either way."""
    def attack(reserve: tuple[int, int]) -> AztecaState:
        state = turn(board({"chichimecs": {"A": ("coyoacan", 2, 0)}}, {"coyoacan": "chichimecs", "xochimilco": "toltecs"},
                           reserve={"toltecs": reserve}), "chichimecs")
        order(state, "chichimecs", "move A tizapan")
        return state
    empty, full = attack((0, 0)), attack((1, 0))
    assert empty.owed == full.owed == {SEATS.index("toltecs"): "cousin"}
    for reader in ("aztecs", "chichimecs", "tepanecs", None):
        assert empty.view(reader) == full.view(reader)
    assert empty.legal(SEATS.index("toltecs"))["orders"] == ["cousin none"]


def test_the_attackers_spy_cancels_the_mobilisation_roll(dice):
    """14.13: "A pochteca in Espionage mission cancels the mobilization roll." pbem: the attacker's
    own spy on the attacked territory."""
    def attack(spies: dict) -> AztecaState:
        state = turn(board({"toltecs": {"A": ("colhuacan", 2, 0)}}), "toltecs", {"toltecs": "plan retreat 9"})
        state.war_markers.append(SEATS.index("toltecs"))  # the war (and the spy) goes on
        state.spies = spies
        order(state, "toltecs", "move A tizapan")
        return state
    assert events(attack({}), "battle-mobilisation")
    assert not events(attack({SEATS.index("toltecs"): {"A": "tizapan"}}), "battle-mobilisation")


def test_an_army_reorganises_with_an_army_it_crosses():
    """14.5: "An army that crosses its capital or a territory containing an army of his color can
    be reorganized." Army A leaves Colhuacan through Xochimilco, where army B stands,
    and takes a Jaguar knight from it on the way to Chalco."""
    state = turn(board({"toltecs": {"A": ("colhuacan", 2, 0), "B": ("xochimilco", 1, 1)}},
                       {"xochimilco": "toltecs", "chalco": "toltecs"}), "toltecs")
    order(state, "toltecs", "reorganise A 2w 1j, B 1w")
    person = state.people[SEATS.index("toltecs")]
    assert person.chart["A"] == [2, 0]  # kept until the move crosses Xochimilco
    order(state, "toltecs", "move A xochimilco chalco")
    assert person.chart["A"] == [2, 1] and person.chart["B"] == [1, 0] and where(state, "toltecs") == "chalco"


def test_an_army_crossing_its_capital_reorganises_with_the_reserve():
    """14.5: "An army that crosses its capital or a territory containing an army of his color can
    be reorganized." Army B goes from Xochimilco through Colhuacan to Tizapan and leaves
    a warrior in the Reserve as it crosses the capital."""
    state = turn(board({"toltecs": {"B": ("xochimilco", 3, 0)}}, {"xochimilco": "toltecs"},
                       reserve={"toltecs": (0, 1)}), "toltecs", {"toltecs": "plan retreat 9"})
    order(state, "toltecs", "reorganise B 2w, R 1w 1j")
    order(state, "toltecs", "move B colhuacan tizapan")
    assert state.people[SEATS.index("toltecs")].chart["R"] == [1, 1]
    assert [e["boxes"] for e in events(state, "reorganised")] == [["B", "R"]]


def test_a_move_that_does_not_cross_the_other_army_is_refused():
    """14.5: "An army that crosses its capital or a territory containing an army of his color can
    be reorganized." A reorganisation kept for the move binds it: a route that misses
    Xochimilco is refused, and nothing changes."""
    state = turn(board({"toltecs": {"A": ("colhuacan", 2, 0), "B": ("xochimilco", 1, 1)}},
                       {"xochimilco": "toltecs"}), "toltecs")
    order(state, "toltecs", "reorganise A 2w 1j, B 1w")
    with pytest.raises(IllegalOrderError, match="crosses where those boxes stand"):
        order(state, "toltecs", "move A tizapan")
    assert state.owed == {SEATS.index("toltecs"): "march"} and where(state, "toltecs") == "colhuacan"


def test_boxes_no_move_can_bring_together_do_not_reorganise():
    """14.5: "An army that crosses its capital or a territory containing an army of his color can
    be reorganized." Army B in Chalco cannot reach army A in Tlacopan this turn, nor A
    reach Chalco: refused."""
    state = turn(board({"toltecs": {"A": ("tlacopan", 2, 0), "B": ("chalco", 1, 1)}},
                       {"tlacopan": "toltecs", "chalco": "toltecs"}), "toltecs")
    with pytest.raises(IllegalOrderError, match="14.5"):
        order(state, "toltecs", "reorganise A 2w 1j, B 1w")


def test_a_kept_reorganisation_lapses_when_the_player_passes():
    """14.5: "An army that crosses its capital or a territory containing an army of his color can
    be reorganized." With no move nothing is crossed: the reorganisation lapses, told to
    its player alone."""
    state = turn(board({"toltecs": {"A": ("colhuacan", 2, 0), "B": ("xochimilco", 1, 1)}},
                       {"xochimilco": "toltecs"}), "toltecs")
    order(state, "toltecs", "reorganise A 2w 1j, B 1w")
    assert state.view("toltecs")["me"]["en_route"] == ["reorganise A 2w 1j, B 1w"]
    order(state, "toltecs", "pass")
    assert state.people[SEATS.index("toltecs")].chart["B"] == [1, 1]
    mine = [e for e in state.view("toltecs")["events"] if e["type"] == "my-reorganise-dropped"]
    assert mine and not events(state, "my-reorganise-dropped")


def test_a_reorganisation_kept_for_the_move_asks_no_new_question():
    """14.5 and 14.1 (counters face down): a reorganisation kept for the move is secret, and the
    seat still owes its move: the question stays the one asked (`decision_line`, which the
    service's deadline follows), so a deadline every reader sees does not tell that it was
    given, nor can a seat push its deadline back with reorganisation after reorganisation."""
    state = turn(board({"toltecs": {"A": ("colhuacan", 2, 0), "B": ("xochimilco", 1, 1)}},
                       {"xochimilco": "toltecs"}), "toltecs")
    asked = state.decision_line()
    order(state, "toltecs", "reorganise A 2w 1j, B 1w")
    order(state, "toltecs", "reorganise A 1w 1j, B 2w")
    assert state.decision_line() == asked and state.owed == {SEATS.index("toltecs"): "march"}
    order(state, "toltecs", "pass")
    assert state.decision_line() == len(state.order_log())


def test_an_army_emptied_on_the_way_is_destroyed_where_it_meets():
    """14.5: "An army that crosses its capital or a territory containing an army of his color can
    be reorganized." and "A player that empties voluntarily his army when reorganizing
    destroys it": army A gives all to B in Xochimilco and its move ends there."""
    state = turn(board({"toltecs": {"A": ("colhuacan", 1, 0), "B": ("xochimilco", 1, 1)}},
                       {"xochimilco": "toltecs", "chalco": "toltecs"}), "toltecs")
    order(state, "toltecs", "reorganise A 0w, B 2w 1j")
    order(state, "toltecs", "move A xochimilco chalco")
    person = state.people[SEATS.index("toltecs")]
    assert person.generals["A"] is None and person.chart["B"] == [2, 1]
