"""The Flower War's Azteca cards (8.0, 14.6, 14.13 and the edition's assumed texts), one rule case
a test (DATC style; readings in docs/rules-azteca.md, "Playing cards").  The positions are set as
in test_rules_war.py (the real map: Toltecs in Colhuacan, next to Xochimilco and to Tizapan, a
marsh whose defence die is the first yellow face a case scripts).  A seat that is not moving
gives its play beside its standing orders (`give`)."""
from __future__ import annotations

import dataclasses

import pytest

from engine.azteca.game import setup_from_record
from engine.azteca.state import AztecaState
from engine.core import IllegalOrderError
from tests.engine.azteca.azteca_support import to_phase
from tests.engine.azteca.test_rules_war import SEATS, board, dice, events, order, turn, where  # noqa: F401

def hold(state: AztecaState, seat: str, *cards: str) -> AztecaState:
    state.people[SEATS.index(seat)].hand = list(cards)
    return state


def give(state: AztecaState, seat: str, text: str) -> AztecaState:
    """The seat gives a play beside the standing orders it owes (the orders themselves are set by
    `turn`)."""
    state.owed = {SEATS.index(seat): "plan"}
    order(state, seat, text)
    state.owed = {}
    return state


def real_game() -> AztecaState:
    return AztecaState(setup_from_record({"game": "azteca", "seed": 7, "players": list(SEATS)}))


def mine(state: AztecaState, seat: str, kind: str) -> list[dict]:
    return [e for e in state.view(seat)["events"] if e["type"] == kind]


def toltecs_attack_tizapan(army=(2, 0), plans=None, cards=None, mover_plays=()) -> AztecaState:
    """Toltec army A in Colhuacan attacks neutral Tizapan; `cards` seat -> (card, play text) given
    before the war; `mover_plays` the Toltecs' plays given with their move (their cards held)."""
    state = board({"toltecs": {"A": ("colhuacan", *army), "B": ("colhuacan", 1, 0)}})
    hold(state, "toltecs", *(text.split()[1] for text in mover_plays))
    for seat, (card, text) in (cards or {}).items():
        give(hold(state, seat, card), seat, text)
    turn(state, "toltecs", {"toltecs": "plan retreat 9, losses warriors, promote no", **(plans or {})})
    state.war_markers.append(SEATS.index("toltecs"))  # a second Toltec marker: the war goes on
    for text in mover_plays:
        order(state, "toltecs", text)
    order(state, "toltecs", "move A tizapan")
    return state


# ---- Reinforcements (14.13) -------------------------------------------------------------------

def test_reinforcements_join_the_attacked_neutral(dice):
    """14.13: "During an attack of a neutral territory, each of the players announces whether he
    plays a 'Reinforcements' card. When all these cards have been played, the neutral player
    performs a mobilization roll." pbem: the Chichimecs' play naming Tizapan is played as the
    battle there begins, and its warrior joins the neutral."""
    state = toltecs_attack_tizapan(cards={"chichimecs": ("reinforcements", "play reinforcements tizapan")})
    assert [(e["seat"], e["card"], e["target"]) for e in events(state, "card-played")] == \
        [("chichimecs", "reinforcements", "tizapan")]
    assert events(state, "battle-reinforcements")[0] == {**events(state, "battle-reinforcements")[0],
                                                         "seat": "chichimecs", "side": "defender", "counters": 1}
    assert events(state, "battle-round")[0]["defender"]["points"] == 4  # 1 warrior + 1 Jaguar knight + 1


def test_reinforcements_are_captured_last(dice):
    """14.13: "The extra troops brought in with the 'Reinforcements' cards are the last to be
    captured." The Toltecs' one lance takes a neutral warrior, not the card's."""
    dice.faces["yellow"] = list("-L-")  # Tizapan's die, then the Toltecs' round (4 Jaguar knights: strong)
    state = toltecs_attack_tizapan(army=(0, 4), cards={"chichimecs": ("reinforcements",
                                                                      "play reinforcements tizapan")})
    assert [e["lost"] for e in events(state, "battle-losses") if e["side"] == "defender"][0] == ["neutral:warrior"]


def test_reinforcements_that_win_stay_until_the_end_of_the_turn(dice):
    """14.13: "If they win the battle, they remain on the territory until the end of the turn."
    The Toltecs withdraw after a round; when their army B attacks Tizapan again the Chichimec
    warrior defends it without a second card."""
    state = toltecs_attack_tizapan(cards={"chichimecs": ("reinforcements", "play reinforcements tizapan")})
    assert state.view(None)["war"]["reinforcements"] == {"tizapan": {"chichimecs": [1, 0]}}
    order(state, "toltecs", "move B tizapan")
    assert len(events(state, "battle-reinforcements")) == 2 and len(events(state, "card-played")) == 1
    state.war_markers = []
    state._moved_on()  # the last marker: the phase ends
    assert state.garrisons == {}


def test_the_attackers_reinforcements_join_the_neutral_by_default(dice):
    """14.13 speaks of the neutral's troops throughout ("unlike the reinforcement troops they do
    not remain on the territory"): pbem's default sends every card's troops to the neutral, the
    attacker's own too."""
    state = toltecs_attack_tizapan(mover_plays=["play reinforcements tizapan"])
    assert events(state, "battle-reinforcements")[0]["side"] == "defender"


def test_the_option_own_side_lets_the_attackers_card_join_his_army(dice):
    """The edition's text ("1 warrior joins the side you choose"), as the option `reinforcements`
    "own-side": the attacker's card joins his army; the Chichimecs' joins the neutral."""
    state = board({"toltecs": {"A": ("colhuacan", 2, 0)}})
    state.setup = dataclasses.replace(state.setup, options={**state.setup.options, "reinforcements": "own-side"})
    give(hold(state, "chichimecs", "reinforcements"), "chichimecs", "play reinforcements tizapan")
    hold(state, "toltecs", "reinforcements")
    turn(state, "toltecs", {"toltecs": "plan retreat 9, promote no"})
    order(state, "toltecs", "play reinforcements tizapan")
    order(state, "toltecs", "move A tizapan")
    assert [(e["seat"], e["side"]) for e in events(state, "battle-reinforcements")] == \
        [("toltecs", "attacker"), ("chichimecs", "defender")]


def test_reinforcements_name_a_neutral_territory():
    """14.13: "During an attack of a neutral territory": a city of a player is refused, and a
    play naming nothing too."""
    state = hold(board({"toltecs": {"A": ("colhuacan", 2, 0)}}, {"xochimilco": "chichimecs"}),
                 "toltecs", "reinforcements")
    turn(state, "toltecs")
    for text in ("play reinforcements xochimilco", "play reinforcements colhuacan", "play reinforcements"):
        with pytest.raises(IllegalOrderError, match="Reinforcements names one of"):
            order(state, "toltecs", text)
    assert state.people[SEATS.index("toltecs")].plays == []


def test_a_play_waiting_for_a_battle_is_secret_until_it_is_played():
    """8.0: "Cards can be played during a player's turn or during the turn of another player,
    but always during the specified phase." pbem: a play naming a battle waits, known to its player alone, until the
    battle begins; twin games with and without it look the same to every other seat."""
    twins = []
    for text in ("play reinforcements tizapan", None):
        state = hold(board({"toltecs": {"A": ("colhuacan", 2, 0)}}), "chichimecs", "reinforcements")
        if text:
            give(state, "chichimecs", text)
        twins.append(turn(state, "toltecs"))
    assert twins[0].view("chichimecs")["me"]["plays"] == ["play reinforcements tizapan"]
    for seat in ("aztecs", "toltecs", "tepanecs", None):
        assert twins[0].view(seat) == twins[1].view(seat)


def test_a_play_whose_battle_never_comes_lapses_with_the_phase(dice):
    """8.0: "Cards can be played during a player's turn or during the turn of another player,
    but always during the specified phase." Nobody attacks Xochimilco this turn: when the Flower War ends the play
    lapses, the card stays in the hand and only its player is told."""
    state = give(hold(board({"toltecs": {"A": ("colhuacan", 2, 0)}}), "chichimecs", "reinforcements"),
                 "chichimecs", "play reinforcements xochimilco")
    turn(state, "toltecs")
    order(state, "toltecs", "pass")
    chichimecs = state.people[SEATS.index("chichimecs")]
    assert chichimecs.plays == [] and chichimecs.hand == ["reinforcements"]
    assert mine(state, "chichimecs", "my-play-dropped") and not events(state, "my-play-dropped")


# ---- Heroic Battle (14.6) ---------------------------------------------------------------------

def test_heroic_battle_forbids_every_retreat(dice):
    """14.6: "The Reserve can always retreat after the first combat round (except 'Heroic Battle'
    card)"; the edition: "neither side may retreat ... it is fought to the end". The Toltecs,
    whose standing orders would leave after a round, fight until their army is gone."""
    dice.faces["yellow"] = list("-" + "----" + "LL")  # the die, two blank rounds, then two lances
    state = toltecs_attack_tizapan(mover_plays=["play heroic-battle tizapan"])
    assert not events(state, "battle-retreat")
    assert events(state, "battle-over")[0]["rounds"] == 3 and where(state, "toltecs") is None


def test_heroic_battle_played_by_a_player_not_fighting_waits(dice):
    """The edition's Heroic Battle is for "one battle" of its player: the Tepanecs, who do not
    fight at Tizapan, keep their play waiting and the Toltecs may withdraw."""
    state = toltecs_attack_tizapan(cards={"tepanecs": ("heroic-battle", "play heroic-battle tizapan")})
    assert events(state, "battle-retreat") and not events(state, "card-played")
    assert [p.card for p in state.people[SEATS.index("tepanecs")].plays] == ["heroic-battle"]


def test_heroic_battle_not_twice_in_a_row():
    """8.0: "It is forbidden to play twice the same card consecutively, except Raid cards.\""""
    state = hold(board({"toltecs": {"A": ("colhuacan", 2, 0)}}), "toltecs", "heroic-battle")
    state.people[SEATS.index("toltecs")].last_card = "heroic-battle"
    turn(state, "toltecs")
    with pytest.raises(IllegalOrderError, match="twice the same card"):
        order(state, "toltecs", "play heroic-battle tizapan")


# ---- Uitzilpochtli ------------------------------------------------------------------------------

def test_uitzilpochtli_rolls_yellow_in_the_first_round(dice):
    """The edition's Uitzilpochtli: "in the first round of one battle you fight your side rolls
    yellow dice whatever its strength". The Toltecs' 1 warrior against the neutral's 3 points
    rolls yellow in the first round."""
    state = toltecs_attack_tizapan(army=(1, 0), cards={"toltecs": ("uitzilpochtli", "play uitzilpochtli tizapan")})
    first = events(state, "battle-round")[0]
    assert first["attacker"]["colour"] == "yellow" and first["defender"]["colour"] == "yellow"


def test_without_uitzilpochtli_the_weak_side_rolls_red(dice):
    """14.7: "The strongest player rolls 2 yellow dice, the other player rolls 2 red dice.\""""
    state = toltecs_attack_tizapan(army=(1, 0))
    assert events(state, "battle-round")[0]["attacker"]["colour"] == "red"


def test_uitzilpochtli_names_a_region():
    """The edition's Uitzilpochtli is for a battle: the play names where (land or lake zone)."""
    state = turn(hold(board({"toltecs": {"A": ("colhuacan", 2, 0)}}), "toltecs", "uitzilpochtli"), "toltecs")
    with pytest.raises(IllegalOrderError, match="names one of"):
        order(state, "toltecs", "play uitzilpochtli atlantis")
    order(state, "toltecs", "play uitzilpochtli lake-2")
    assert [p.target for p in state.people[SEATS.index("toltecs")].plays] == ["lake-2"]


# ---- Quimichtin ---------------------------------------------------------------------------------

def test_quimichtin_shows_an_army_to_its_player_alone():
    """14.1: counters lie "face down ... so that their combat force is unknown"; the edition's
    Quimichtin: "look at the organisation box of one army of another player". The Toltecs look
    at Chichimec army A; the play is public, what they saw is theirs."""
    state = hold(board({"toltecs": {"A": ("colhuacan", 2, 0)}, "chichimecs": {"A": ("texcoco", 1, 2)}}),
                 "toltecs", "quimichtin")
    turn(state, "toltecs")
    order(state, "toltecs", "play quimichtin chichimecs-a")
    assert events(state, "card-played")[0]["target"] == "chichimecs-a"
    assert [(e["seat"], e["army"], e["warriors"], e["jaguars"]) for e in mine(state, "toltecs", "my-spied")] == \
        [("chichimecs", "A", 1, 2)]
    assert not mine(state, "chichimecs", "my-spied") and not events(state, "my-spied")


def test_quimichtin_looks_at_another_players_army_on_the_board():
    """The edition's Quimichtin: "one army of another player (or his Reserve)": not one's own, not
    a dead general's."""
    state = hold(board({"toltecs": {"A": ("colhuacan", 2, 0)}, "chichimecs": {"A": ("texcoco", 1, 2)}}),
                 "toltecs", "quimichtin")
    turn(state, "toltecs")
    for text in ("play quimichtin toltecs-a", "play quimichtin chichimecs-b"):
        with pytest.raises(IllegalOrderError, match="Quimichtin names one of"):
            order(state, "toltecs", text)
    order(state, "toltecs", "play quimichtin chichimecs-r")
    assert mine(state, "toltecs", "my-spied")[0]["army"] == "R"


def test_a_flower_war_card_given_earlier_waits_for_the_phase():
    """8.0: "always during the specified phase": Quimichtin given with the purchases is played
    when the Flower War's standing orders are revealed."""
    state = to_phase(real_game(), "purchase")
    s = state.seats.index("aztecs")
    state.people[s].hand = ["quimichtin"]
    order(state, "aztecs", "play quimichtin toltecs-a")
    assert state.people[s].hand == ["quimichtin"]
    to_phase(state, "war", {"plan": "plan none"})
    while state.phase == "war" and all(kind == "plan" for kind in state.owed.values()):
        order(state, state.seats[state.waiting()[0]], "plan none")
    assert [e["seat"] for e in state.view("aztecs")["events"] if e["type"] == "my-spied"] == ["toltecs"]


def test_a_flower_war_card_is_refused_once_the_war_is_over():
    """8.0: "always during the specified phase": in phase 8 a phase-7 card is refused."""
    state = to_phase(real_game(), "judgement")
    state.people[0].hand = ["catastrophe"]
    with pytest.raises(IllegalOrderError, match="phase 7, which is over"):
        order(state, state.seats[0], "play catastrophe tizapan")


# ---- Natural Catastrophe (14.6) -----------------------------------------------------------------

def test_a_catastrophe_breaks_the_reserves_chain(dice):
    """14.6: the Reserve's chain "is broken by natural catastrophes". Toltec boats on zone 4 join
    Chalco to Colhuacan; the Chichimecs strike zone 4 and the Reserve cannot come."""
    state = turn(hold(board({"chichimecs": {"A": ("coatlinchan", 2, 0)}},
                            {"chalco": "toltecs", "coatlinchan": "chichimecs"}, reserve={"toltecs": (2, 0)},
                            boats={"toltecs": {"lake-4": 1}}), "chichimecs", "catastrophe"),
                 "chichimecs", {"chichimecs": "plan promote no"})
    order(state, "chichimecs", "play catastrophe lake-4")
    assert state.view(None)["war"]["catastrophes"] == ["lake-4"]
    order(state, "chichimecs", "move A chalco")
    assert state.owner["chalco"] == SEATS.index("chichimecs")


def test_a_catastrophe_cuts_a_retreat(dice):
    """14.11: a retreat needs "an adjacent territory belonging to him or a continuous chain of
    boats"; the edition's catastrophe "breaks every chain through it": Toltec army B in Chalco,
    whose way home is a boat on zone 4, must fight on."""
    state = turn(hold(board({"toltecs": {"B": ("chalco", 2, 0)}, "chichimecs": {"A": ("coatlinchan", 2, 0)}},
                            {"chalco": "toltecs", "coatlinchan": "chichimecs"}, boats={"toltecs": {"lake-4": 1}}),
                      "chichimecs", "catastrophe"),
                 "chichimecs", {"chichimecs": "plan promote no", "toltecs": "plan reserve 0"})
    order(state, "chichimecs", "play catastrophe lake-4")
    order(state, "chichimecs", "move A chalco")
    assert state.owed == {SEATS.index("chichimecs"): "retreat"}


def test_a_catastrophe_lasts_until_the_end_of_the_turn(dice):
    """The edition's catastrophe lasts "until the end of the turn": the Flower War's end clears it."""
    state = turn(hold(board({"toltecs": {"A": ("colhuacan", 2, 0)}}), "toltecs", "catastrophe"), "toltecs")
    order(state, "toltecs", "play catastrophe xochimilco")
    assert state.catastrophes == {"xochimilco"}
    order(state, "toltecs", "pass")
    assert state.catastrophes == set() and state.phase == "judgement"
