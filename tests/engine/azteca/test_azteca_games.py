"""Whole games of Azteca's implemented phases on the real map: random bots for many seeds,
replay of the order log, no view leaking another seat's secret, the order grammar's round
trip, bad orders refused without change, and editions."""
from __future__ import annotations

import copy

import pytest

from engine.azteca import GAME
from engine.azteca.components import load_edition, packaged_edition
from engine.azteca.orders import (Army, Attack, Bid, Buy, Discard, Dike, Fight, Join, Look, Missions, Offer, Place, Play,
                                  Send, parse_orders, to_text)
from engine.azteca.state import SIMULTANEOUS
from engine.azteca.war_orders import Answer, Move, Plan, Reorganise
from engine.core import IllegalOrderError, NotYourDecisionError, OrderError, ParseError, SetupError, play_out

SEEDS = range(40)
KINDS = {kind.name: kind for kind in GAME.decision_kinds}


def record(seed: int, players: int) -> dict:
    return {"game": "azteca", "seed": seed, "players": GAME.seating(seed, players)}


def bots(seed: int, players: int):
    return [GAME.make_bot("random", f"{seed}:{i}") for i in range(players)]


def played(seed: int, players: int):
    """A whole game between random bots, every order checked as it goes."""
    state = GAME.new_game(record(seed, players))
    players_bots = bots(seed, players)
    for _ in range(5_000):
        if state.is_over():
            return state
        for decision in state.decisions():
            kind = KINDS[decision.kind]
            assert decision.simultaneous == kind.simultaneous == (decision.kind in SIMULTANEOUS)
            assert state.phase in GAME.phases
        s = state.waiting()[0]
        order = players_bots[s].order(state, s)
        assert state.parse(state.order_text(order)) == [order]
        state.apply(state.seats[s], order)
    raise AssertionError("the game did not end")


@pytest.mark.parametrize("players", [3, 4])
def test_random_bots_play_many_seeded_games_to_their_end(players):
    """The implemented phases (setup, 1-6, 8) played by random bots for many seeds end cleanly,
    each with one scored milestone per game turn (and setup's) and a well-formed result; pochtecas go on missions and
    expeditions, and lake battles are fought."""
    seen = set()
    for seed in SEEDS:
        state = played(seed, players)
        seen |= {event["type"] for event in state.events} | {event.get("mission") for event in state.events}
        result = state.result()
        assert set(result.ranking) == set(state.seats)
        assert [m.round for m in state.milestones() if m.scored] == list(range(1, state.round + 1))
        assert [m.phase for m in state.milestones() if not m.scored] == ["setup"]
        assert len(state.scores_by_round()) == state.round
    assert seen >= {"expedition", "alliance", "espionage", "lake-attack", "lake-battle-over", "lake-control"}


@pytest.mark.parametrize("players", [3, 4])
def test_the_order_log_replays_to_the_same_views(players):
    """A game is its setup, seed and order log: replaying the log gives every view again."""
    for seed in range(8):
        original = GAME.new_game(record(seed, players))
        views = []
        players_bots = bots(seed, players)
        while not original.is_over():
            s = original.waiting()[0]
            original.apply(original.seats[s], players_bots[s].order(original, s))
            views.append({seat: original.view(seat) for seat in (*original.seats, None)})
        replay = GAME.new_game(record(seed, players))
        for line, expected in zip(original.order_log(), views):
            seat, _, text = line.partition(": ")
            for order in replay.parse(text):
                replay.apply(seat, order)
            assert {seat: replay.view(seat) for seat in (*replay.seats, None)} == expected
        assert replay.result() == original.result()


def answered(state, s: int, bot: str) -> list:
    """A seat's whole answer from a bot: the cards it plays beside it (a play never answers), then the answer."""
    given = [GAME.make_bot("random", bot).order(state, s)]
    state.apply(state.seats[s], given[-1])
    while isinstance(given[-1], Play):
        given.append(GAME.make_bot("random", f"{bot}:{len(given)}").order(state, s))
        state.apply(state.seats[s], given[-1])
    return given


def test_changing_another_seats_secret_leaves_a_view_unchanged():
    """Every secret (charts, hands, looks, bids, urn offers, Tezcatlipoca offers before the
    reveal, markers face down) stays in its own seat's view: twin games in which one seat
    answered differently look the same to the others and to spectators until the answers are
    revealed (after the last seat answers), and ask them the same."""
    compared = set()
    for seed in range(6):
        state = GAME.new_game(record(seed, 4))
        players_bots = bots(seed, 4)
        while not state.is_over():
            waiting = state.waiting()
            s = waiting[0]
            kind = state.owed[s]
            if kind in SIMULTANEOUS and len(waiting) > 1:
                for attempt in range(20):
                    twins = [state.clone(), state.clone()]
                    if answered(twins[0], s, f"a:{attempt}") != answered(twins[1], s, f"b:{attempt}"):
                        break
                else:
                    twins = []
                if twins:
                    compared.add(kind)
                    for reader in (*(state.seats[o] for o in waiting[1:]), None):
                        assert twins[0].view(reader) == twins[1].view(reader), (kind, reader)
                    assert [d.options for d in twins[0].decisions()] == [d.options for d in twins[1].decisions()]
            state.apply(state.seats[s], players_bots[s].order(state, s))
    assert compared >= {"army", "cards", "bid", "send", "urn", "tezcatlipoca", "plan", "losses", "retreat"}  # "join": test_rules_lake


def test_in_turn_secrets_stay_with_their_seat():
    """The population marker drawn and placed face down, the slave-market cards looked at and
    the placement of new counters are secret though taken in turn: twins differing in them look
    the same to every other seat."""
    state = GAME.new_game(record(3, 4))
    while state.owed.get(state.waiting()[0]) != "place":
        s = state.waiting()[0]
        state.apply(state.seats[s], GAME.make_bot("random", 1).order(state, s))
    s = state.waiting()[0]
    territories = state.legal(s)["territories"]
    a, b = state.clone(), state.clone()
    a.people[s].marker, b.people[s].marker = 0, 2
    a.apply(state.seats[s], Place(territories[0]))
    b.apply(state.seats[s], Place(territories[0]))
    for other in state.seats:
        if other != state.seats[s]:
            assert a.view(other) == b.view(other)
    assert a.view(state.seats[s]) != b.view(state.seats[s])


@pytest.mark.parametrize("order", [
    Dike("tizapan"), Army((("A", 3, 1), ("B", 3, 1), ("C", 2, 1), ("R", 2, 0))), Place("chalco"),
    Discard(()), Discard(("raid", "tlaloc")), Buy(), Buy((("A", 2, 1), ("R", 0, 1)), ("B",), 2, 1, ("tlacopan",)),
    Look((1, 3)), Bid(None), Bid(2, 3), Offer("quetzalcoatl", 5), Offer("tezcatlipoca", 0),
    Send(), Send((("A", "chalco"), ("B", "exp")), ((2, 1), (4, 2))), Missions(), Missions((("A", "alliance 4"),)),
    Missions((("A", "rebellion"), ("C", "espionage"))), Attack(None), Attack(2, "toltecs"), Join("neutral"),
    Fight(True), Fight(False), Plan(), Plan(("A", "C"), ("toltecs",), 3, 2, "jaguars", "none", False),
    Plan(allow=()), Reorganise((("A", 2, 1), ("B", 0, 0), ("R", 1, 0))), Move(None), Move("B", ("lake-2", "tlatelolco")), Move("A", ("chalco",), True),
    Answer("reserve", (1, 1)), Answer("reserve", (0, 0)), Answer("cousin", "jaguar"),
    Answer("losses", ("A:jaguar", "A:warrior", "reserve:warrior")), Answer("retreat", ()), Answer("retreat", ("A", "reserve")),
    Answer("experience", "none"), Answer("experience", "B"),
    Play("tlaloc"), Play("chalchiuhtlicue", "2")])
def test_every_order_reads_back_from_its_text(order):
    """docs/rules-azteca.md, "Orders": each order's canonical text parses back to it."""
    assert parse_orders(to_text(order)) == [order]


@pytest.mark.parametrize("text, expected", [
("buy pochtecas 2, boats 1", "buy pochteca 2, boat 1"),
    ("Bid 2 3", "bid 2 3"), ("send A11 BEXP 2B4", "send A 11, B exp, 2B4"), ("send none", "send nothing"),
    ("mission A none, B assimilation", "mission B assimilation"), ("Stop", "stop"), ("buy none", "buy nothing"), ("keep", "keep"), ("army a 3w1j, r 2w", "army A 3w 1j, R 2w")])
def test_lenient_spellings_read_as_the_canonical_order(text, expected):
    """Orders are read whatever their case and spacing."""
    assert [to_text(o) for o in parse_orders(text)] == [expected]


@pytest.mark.parametrize("text", ["", "march A to chalco", "army X 3w", "army A 3q", "look 1", "bid 2",
                                  "quetzalcoatl lots", "buy 3 warriors", "place", "dike",
                                  "send A11 A12", "send D11", "send 2B4 3B4", "mission A conquest", "attack 2",
                                  "join nobody", "continue now", "move A", "move D chalco", "plan intercept D",
                                  "plan retreat many", "reserve 2x", "lose", "retreat X", "promote A B", "reorganise Q 2w",
                                  "play", "play tlaloc 2 3", "play 7"])
def test_text_outside_the_grammar_is_refused(text):
    with pytest.raises(ParseError):
        parse_orders(text)


def test_bad_orders_change_nothing():
    """An order from the wrong seat, an unknown seat or of the wrong kind is refused with the
    game's errors, and the game is as it was."""
    state = GAME.new_game(record(1, 4))
    before = copy.deepcopy(state.view(None))
    idle = next(seat for s, seat in enumerate(state.seats) if s not in state.waiting())
    for seat, order, error in [("nobody", Bid(None), NotYourDecisionError),
                               (idle, Bid(None), NotYourDecisionError),
                               (state.seats[state.waiting()[0]], Bid(None), IllegalOrderError)]:
        with pytest.raises(error):
            state.apply(seat, order)
        assert isinstance(error("x"), OrderError)
    assert state.view(None) == before and state.order_log() == []


def test_numbers_name_territories_in_orders():
    """12.0: "each territory is characterized by a number": orders may give it."""
    state = GAME.new_game(record(1, 4))
    region = state.geo.valley()[0]
    assert state.parse(f"place {region.number}") == [Place(region.key)]


def test_the_default_edition_marks_every_assumed_value():
    """docs/rules-azteca.md, "Components": each value neither source gives is marked assumed,
    with a reason."""
    import json
    from importlib import resources
    data = json.loads(resources.files("engine.azteca").joinpath("data", "edition.json").read_text("utf-8"))
    for card in data["azteca_cards"] + data["expedition_cards"]:
        assert card["assumed"] and card["reason"]
    for part in ("population_markers", "dice", "counters"):
        assert data[part]["assumed"] and data[part]["reason"]
    edition = packaged_edition()
    assert len(edition.population) == 13 and edition.slave_market == (0, 1, 2, 3)
    assert edition.anger == (9, 10, 11) and edition.lances("red") < edition.lances("yellow")
    assert {card.key for card in edition.cards} >= {"raid", "reinforcements", "heroic-battle", "tlaloc"}


def test_a_group_can_give_its_own_edition_inline():
    """A record may carry an edition (the printed values of a group that owns the game)."""
    import json
    from importlib import resources
    data = json.loads(resources.files("engine.azteca").joinpath("data", "edition.json").read_text("utf-8"))
    data["dice"]["red"] = ["lance", "blank", "blank", "blank", "blank", "blank"]
    state = GAME.new_game({**record(1, 4), "edition": data})
    assert state.edition.lances("red") == 1
    for broken, message in [({"slave_market": []}, "slave_market"), ({"hand_size": 0}, "hand_size"),
                            ({"costs": {"warrior": 1}}, "costs"), ({"format": "x"}, "format")]:
        with pytest.raises(SetupError, match=message):
            load_edition({**data, **broken})


def test_records_are_checked():
    for bad, message in [({"players": ["aztecs", "aztecs", "toltecs"]}, "twice"),
                         ({"players": ["toltecs", "tepanecs"]}, "3 or 4"),
                         ({"options": {"difficulty": "hard"}}, "difficulty"), ({"seed": 1.5}, "seed")]:
        with pytest.raises(SetupError, match=message):
            GAME.new_game({**record(1, 4), **bad})


def test_three_players_place_a_marker_on_the_merged_island_too():
    """16.0 on the real map: "Tlalolco and Tenochtitlan form a unique territory considered a marsh.
    A population marker is placed on this common territory" (it is one of the 13)."""
    state = GAME.new_game(record(2, 3))
    while state.phase == "setup":
        s = state.waiting()[0]
        state.apply(state.seats[s], GAME.make_bot("random", 2).order(state, s))
    placed = [event["territory"] for event in state.view(None)["events"] if event["type"] == "marker-placed"]
    assert sorted(placed) == sorted(region.key for region in state.geo.valley()) and len(placed) == 13
    assert state.geo.dike_links() == () and state.dikes == []


def test_every_phase_is_played_and_the_flower_war_asks_its_questions():
    """7.0's eight phases are all played (turn.PHASES_PLAYED); random games reach the Flower
    War's standing orders, moves and every battle question, and fight, capture and intercept."""
    from engine.azteca.turn import PHASES, PHASES_PLAYED
    assert PHASES_PLAYED == PHASES
    seen, kinds, events = set(), set(), set()
    for seed in range(6):
        state = GAME.new_game(record(seed, 4))
        players_bots = bots(seed, 4)
        while not state.is_over():
            seen.add(state.phase)
            s = state.waiting()[0]
            kinds.add(state.owed[s])
            state.apply(state.seats[s], players_bots[s].order(state, s))
        events |= {event["type"] for event in state.events}
    assert seen == {"setup", "cards", "purchase", "market", "pochtecas", "lake", "war", "judgement"}  # tribute asks nothing
    assert kinds >= {"plan", "march", "reserve", "cousin", "losses", "retreat", "promote"}
    assert events >= {"battle", "captured", "interception", "army-destroyed", "war-marker", "plundered"}


def test_only_questions_with_one_public_answer_are_forced():
    """docs/engine.md, "forced_order": the last population marker has one territory left; an
    offer from a seat holding no Sacrifice points is not forced (its points are secret)."""
    state = GAME.new_game(record(6, 3))
    bots = [GAME.make_bot("random", f"6:{s}") for s in range(3)]  # one each: a bot made anew repeats itself
    forced = []
    while state.phase == "setup":
        s = state.waiting()[0]
        answer = GAME.forced_order(state, state.seats[s])
        if state.owed[s] == "place" and len(state.legal(s)["territories"]) == 1:
            forced.append(answer)
            assert answer == f"place {state.legal(s)['territories'][0]}"
        else:
            assert answer is None
        state.apply(state.seats[s], bots[s].order(state, s))
    assert len(forced) == 1  # the thirteenth marker
    while state.phase != "judgement":
        s = state.waiting()[0]
        state.apply(state.seats[s], bots[s].order(state, s))
    state.people[0].sacrifice = 0
    assert GAME.forced_order(state, state.seats[0]) is None
