"""Properties of whole games played by bots (hypothesis), and a long soak of random games.

- pawns (and prosperity cards) are conserved after every order;
- replaying a game's order log gives the same views and result;
- no view shows another seat's hand, another seat's unrevealed power card or the deck order;
- games played by legal bots always end, for 2, 3 and 4 players and any options.
"""
from __future__ import annotations

import json
import random
import time
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, event, given, settings
from hypothesis import strategies as st

import engine.aztlan
from engine.aztlan import GAME
from engine.aztlan.bots import HeuristicBot, RandomBot, play_out
from engine.aztlan.cards import PAWNS_PER_TRIBE
from engine.aztlan.data import packaged_edition
from engine.aztlan.options import CHOICES
from engine.records import replay
from tests.boards import grid_board, tiny_board

SEATS = ("ocelot", "serpent", "quetzal", "coyote")
DECK = Counter(packaged_edition("default").deck)

BOARDS = {
    "grid": grid_board().to_dict(),  # 30 territories, one lake
    "small": grid_board(3, 4).to_dict(),  # 12 territories: crowded, many conflicts
    "lakes": tiny_board("1 city, 2 desert, 3 jungle, 4 fields, 5 mountains, 6 city, 7 desert, 8 jungle",
                        "1-2 2-3 3-4 4-5 5-6 6-7 7-8 8-1", ["1 3 5", "2 6", "4 8"]).to_dict(),
}
DEFAULT_BOARD = Path(engine.aztlan.__file__).parent / "boards" / "default.json"

PROPS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])

players = st.sampled_from([2, 3, 4])
options = st.fixed_dictionaries({name: st.sampled_from(values) for name, values in CHOICES.items()})
bot_kinds = st.lists(st.sampled_from(["random", "heuristic"]), min_size=4, max_size=4)
seeds = st.integers(0, 10**9)
boards = st.sampled_from(sorted(BOARDS))


def record(n, seed, opts, board_name):
    return {"players": list(SEATS[:n]), "seed": seed, "options": opts, "board": BOARDS[board_name]}


def bots_for(kinds, seed):
    return [(RandomBot if kind == "random" else HeuristicBot)(f"{seed}:{i}") for i, kind in enumerate(kinds)]


def steps(state, bots, limit=None):
    """Let the bots play one order at a time; yield after each order."""
    count = 0
    while state.waiting() and (limit is None or count < limit):
        s = state.waiting()[0]
        state.apply(state.seats[s], bots[s].order(state, s))
        count += 1
        yield


def pawn_totals(state):
    return [state.reserve[p] + state.to_place[p] + sum(row[p] for row in state.pawns)
            + state.removed_before[p] + state.removed_now[p] for p in range(len(state.peoples))]


def frozen(view):
    return json.dumps(view, sort_keys=True)


def all_views(state):
    return [frozen(state.view(seat)) for seat in (*state.seats, None)]


# ---- conservation ---------------------------------------------------------------------

@PROPS
@given(n=players, seed=seeds, opts=options, kinds=bot_kinds, board_name=boards)
def test_pawns_and_cards_are_conserved_after_every_order(n, seed, opts, kinds, board_name):
    """Reserve + pawns to place + pawns on the board + removed pawns = 30 per tribe (60 per
    faction with 2 players) after every order; every prosperity card is in the deck, a hand or
    the discards; scores never go down."""
    state = GAME.new_game(record(n, seed, opts, board_name))
    pool = PAWNS_PER_TRIBE * (2 if n == 2 else 1)
    people = 2 if n == 2 else n
    last = list(state.score)
    for _ in steps(state, bots_for(kinds, seed)):
        assert pawn_totals(state) == [pool] * people
        assert all(count >= 0 for row in state.pawns for count in row)
        assert min(state.reserve + state.to_place + state.removed_before + state.removed_now) >= 0
        assert Counter(state.deck) + Counter(state.discard) + sum(map(Counter, state.hands), Counter()) == DECK
        assert all(now >= before for now, before in zip(state.score, last))
        last = list(state.score)
    assert state.is_over()


# ---- replay -----------------------------------------------------------------------------

@PROPS
@given(n=players, seed=seeds, opts=options, kinds=bot_kinds, board_name=boards,
       stop=st.one_of(st.none(), st.integers(0, 400)))
def test_replay_is_deterministic(n, seed, opts, kinds, board_name, stop):
    """Replaying a record's order log (engine.records.replay) reproduces every view and the
    result, whether the game is over or stopped at any point."""
    rec = record(n, seed, opts, board_name)
    state = GAME.new_game(rec)
    for _ in steps(state, bots_for(kinds, seed), limit=stop):
        pass
    again = replay({**rec, "orders": state.order_log()})
    assert again.order_log() == state.order_log()
    assert all_views(again) == all_views(state)
    assert again.is_over() == state.is_over()
    if state.is_over():
        assert again.result() == state.result()


# ---- secrets ------------------------------------------------------------------------------

@PROPS
@given(n=st.sampled_from([3, 4, 2]), seed=seeds, opts=options, board_name=boards,
       stop=st.integers(1, 200), data=st.data())
def test_no_view_leaks_a_secret(n, seed, opts, board_name, stop, data):
    """Secret: another seat's prosperity hand, another seat's power card chosen but not yet
    revealed, and the deck order.  Two games differing only in those secrets look the same to
    every other seat and to a spectator (views compared as JSON)."""
    rec = record(n, seed, opts, board_name)
    state = GAME.new_game(rec)
    for _ in steps(state, bots_for(["random"] * 4, seed), limit=stop):
        pass
    assume(not state.is_over())  # at the end every hand is shown
    twin = replay({**rec, "orders": state.order_log()})
    assert all_views(twin) == all_views(state)

    secret_seat = data.draw(st.integers(0, n - 1), label="seat whose secrets change")
    rng = random.Random(data.draw(st.integers(0, 10**6), label="shuffle"))
    # Its hand: swap each card for a deck card (same number of cards, other cards).
    hand = twin.hands[secret_seat]
    for i, card in enumerate(hand):
        if twin.deck:
            j = rng.randrange(len(twin.deck))
            hand[i], twin.deck[j] = twin.deck[j], card
    # Its power card, while it is chosen but not revealed.
    if twin.phase in ("choosing", "development") and twin.chosen[secret_seat] is not None:
        others = [c for c in twin.power_left[secret_seat] if c != twin.chosen[secret_seat]]
        if others:
            twin.chosen[secret_seat] = rng.choice(others)
    # The deck order.
    rng.shuffle(twin.deck)

    changed = (sorted(twin.hands[secret_seat]) != sorted(state.hands[secret_seat])
               or twin.chosen != state.chosen or twin.deck != state.deck)
    event(f"phase {twin.phase}; hand changed: {twin.hands[secret_seat] != state.hands[secret_seat]}; "
          f"card changed: {twin.chosen != state.chosen}")
    for seat in (*state.seats, None):
        if seat != state.seats[secret_seat]:
            assert frozen(twin.view(seat)) == frozen(state.view(seat)), (seat, changed)


# ---- games end ------------------------------------------------------------------------------

@PROPS
@given(n=players, seed=seeds, opts=options, kinds=bot_kinds, board_name=boards)
def test_every_game_with_legal_bots_ends(n, seed, opts, kinds, board_name):
    """The game ends at the end of the 5th age: bots that only send legal orders always bring a
    game to its end, and the final score is the five ages' points plus the end bonuses."""
    state = play_out(GAME.new_game(record(n, seed, opts, board_name)), bots_for(kinds, seed))
    assert state.is_over() and state.waiting() == [] and state.decisions() == []
    result = state.result()
    assert len(state.age_scores) == 5
    assert sorted(result["ranking"]) == sorted(state.seats) and result["winner"] == result["ranking"][0]
    for seat in state.seats:
        during = sum(age[seat]["points"] for age in state.age_scores)
        assert result["scores"][seat] == during + result["bonuses"][seat]["points"]
    scores = [result["scores"][seat] for seat in result["ranking"]]
    assert scores == sorted(scores, reverse=True)


# ---- soak -----------------------------------------------------------------------------------

def soak_record(n, seed):
    rec = {"players": list(SEATS[:n]), "seed": seed}
    if not DEFAULT_BOARD.exists():
        rec["board"] = BOARDS["grid"]
    return rec


@pytest.mark.slow
@pytest.mark.parametrize("n", [2, 3, 4])
def test_a_thousand_random_games(n):
    """1,000 complete random-bot games for each number of players, without an error (on the
    packaged default board if there is one, else a 5 x 6 grid)."""
    start = time.perf_counter()
    for seed in range(1000):
        state = GAME.new_game(soak_record(n, seed))
        play_out(state, [RandomBot(f"{seed}:{i}") for i in range(n)])
        assert state.is_over(), seed
    print(f"\n{n} players: 1000 games in {time.perf_counter() - start:.1f} s")
