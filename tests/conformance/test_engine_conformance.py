"""The engine half of the conformance suite: what every registered game must do.

Parametrised over `engine.games()`, so a new game is checked as soon as it is registered
(docs/engine.md, "Adding a game", uses this file as its checklist).  For each game:

- its static facts are well formed (seats, player counts, phases, decision kinds, options with
  defaults that validate, bot kinds with "random" among them);
- seating is drawn from the seed, and a seat order given by the caller is honoured;
- bot games end for every player count, with the default options and with others;
  at every step the state asks only decisions of its declared kinds, in its declared phases;
  every bot kind finds a legal order for every waiting seat, and each order's text parses
  back to the same order; at the end the Result is well formed;
- replaying the record (setup + order log) reproduces every seat's view at every step;
- no view leaks a secret (twin games, see `test_no_view_leaks_a_secret`);
- bad orders are refused with the game's errors and change nothing.
"""
from __future__ import annotations

import json
from functools import cache
from itertools import cycle
from typing import Any

import pytest

import engine
from engine.core import (OVER, Game, IllegalOrderError, NotYourDecisionError, OrderError, ParseError,
                         Result, SetupError, State, check_options)
from engine.records import replay_steps

GAMES = engine.games()
MAX_STEPS = 20_000  # far beyond any game's length; a game that needs more never ends


def test_the_games_are_registered():
    """Aztlán ships with pbem; the test game comes from its own distribution under
    tests/plugins, installed by `make .venv/.installed`."""
    assert {"aztlan", "duel"} <= set(GAMES), "run `make .venv/.installed` to register the test game"


# ---- helpers --------------------------------------------------------------------------------

def other_options(game: Game) -> dict[str, Any]:
    """Every option away from its default where it can be: the last choice, or the lowest number."""
    chosen = {}
    for option in game.options:
        if option.choices:
            chosen[option.name] = option.choices[-1] if option.choices[-1] != option.default else option.choices[0]
        elif option.low is not None:
            chosen[option.name] = option.low
    return chosen


def new_record(game: Game, count: int, seed: int | str, options: dict[str, Any] | None = None,
               seats: list[str] | None = None) -> dict[str, Any]:
    seats = seats or game.seating(seed, count)
    record = {"game": game.name, "seed": seed,
              "players": [{"seat": seat, "name": f"Player {i + 1}"} for i, seat in enumerate(seats)]}
    if options is not None:
        record["options"] = options
    return record


def views(state: State) -> dict[str, Any]:
    """Every seat's view and a spectator's, as JSON text: views must be JSON-able, and a
    snapshot does not change when the game goes on (a view may share data with its state)."""
    return {seat or "": json.dumps(state.view(seat), sort_keys=True) for seat in (*state.seats, None)}


def bot_line_up(game: Game) -> list[str]:
    """Every bot kind gets a seat in turn, random first."""
    return ["random", *(kind for kind in game.bots if kind != "random")]


@cache
def played(name: str, count: int, variant: str) -> tuple[dict[str, Any], list[dict]]:
    """A bot game (record with its order log) and every seat's view after each order."""
    game = GAMES[name]
    options = other_options(game) if variant == "other-options" else None
    record = new_record(game, count, f"conformance:{count}:{variant}", options)
    state = game.new_game(record)
    kinds = cycle(bot_line_up(game))
    bots = [game.make_bot(next(kinds), f"{record['seed']}:{s}") for s in range(count)]
    seen = [views(state)]
    for _ in range(MAX_STEPS):
        waiting = state.waiting()
        if not waiting:
            break
        s = waiting[0]
        state.apply(state.seats[s], bots[s].order(state.clone(), s))
        seen.append(views(state))
    assert state.is_over(), f"{name} did not end within {MAX_STEPS} orders"
    return {**record, "orders": state.order_log()}, seen


GAME_COUNTS = [pytest.param(name, count, variant, id=f"{name}-{count}p-{variant}")
               for name, game in GAMES.items()
               for count in range(game.min_players, game.max_players + 1)
               for variant in ("defaults", "other-options")]
EACH_GAME = [pytest.param(game, id=name) for name, game in GAMES.items()]


# ---- static facts ---------------------------------------------------------------------------

@pytest.mark.parametrize("game", EACH_GAME)
def test_static_facts_are_well_formed(game):
    assert isinstance(game.name, str) and GAMES[game.name] is game
    assert game.title.strip()
    assert 1 <= game.min_players <= game.max_players <= len(game.seats)
    # Seats appear in "<seat>: <order>" log lines, which are read back lower-cased.
    assert len(set(game.seats)) == len(game.seats)
    assert all(seat == seat.lower() and seat.isidentifier() for seat in game.seats)
    assert game.round_name.strip()
    assert game.phases and len(set(game.phases)) == len(game.phases) and OVER not in game.phases
    names = [kind.name for kind in game.decision_kinds]
    assert names and len(set(names)) == len(names)
    for kind in game.decision_kinds:
        assert kind.title.strip() and kind.syntax.strip(), kind
        assert kind.ask.strip() and kind.noun.strip() and kind.help.strip(), kind
        assert isinstance(kind.hours, int) and 1 <= kind.hours <= 14 * 24, kind
        assert isinstance(kind.simultaneous, bool)
    assert len({option.name for option in game.options}) == len(game.options)
    for option in game.options:
        assert option.help.strip(), option
        assert option.check(option.default) == option.default
        assert not option.choices or option.default in option.choices
    assert check_options(game.options, None) == {o.name: o.default for o in game.options}
    assert "random" in game.bots, "every game offers a random bot (any legal order)"
    assert game.stand_in in game.bots, "the stand-in for an absent player is one of the game's bots"
    for kind in game.bots:
        assert game.make_bot(kind, 1).order
    with pytest.raises(ValueError):
        game.make_bot("no-such-bot", 1)


@pytest.mark.parametrize("game", EACH_GAME)
def test_seating_is_drawn_from_the_seed(game):
    for count in range(game.min_players, game.max_players + 1):
        drawn = [tuple(game.seating(seed, count)) for seed in range(12)]
        assert drawn[0] == tuple(game.seating(0, count))  # the same seed, the same seating
        for seating in drawn:
            assert len(set(seating)) == count and set(seating) <= set(game.seats)
        assert len(set(drawn)) > 1
    for count in (game.min_players - 1, game.max_players + 1):
        with pytest.raises(SetupError):
            game.seating(0, count)


@pytest.mark.parametrize("game", EACH_GAME)
def test_a_seat_order_given_by_the_caller_is_honoured(game):
    for count in range(game.min_players, game.max_players + 1):
        given = list(reversed(game.seating(3, count)))
        state = game.new_game(new_record(game, count, 3, seats=given))
        assert list(state.seats) == given
        assert [player["seat"] for player in new_record(game, count, 3, seats=given)["players"]] == given


@pytest.mark.parametrize("game", EACH_GAME)
def test_options_default_as_documented_and_are_checked(game):
    count = game.min_players
    plain = views(game.new_game(new_record(game, count, 5)))
    defaults = {option.name: option.default for option in game.options}
    assert views(game.new_game(new_record(game, count, 5, defaults))) == plain
    with pytest.raises(SetupError, match="unknown option"):
        game.new_game(new_record(game, count, 5, {"no_such_option": 1}))
    for option in game.options:
        with pytest.raises(SetupError, match=option.name):
            game.new_game(new_record(game, count, 5, {option.name: ["not", "a", "value"]}))
    with pytest.raises(SetupError):
        game.new_game(new_record(game, count, 5) | {"players": []})


# ---- whole games ----------------------------------------------------------------------------

@pytest.mark.parametrize("name, count, variant", GAME_COUNTS)
def test_bot_games_end_and_ask_only_what_the_game_declares(name, count, variant):
    game = GAMES[name]
    kinds = {kind.name: kind for kind in game.decision_kinds}
    record, _ = played(name, count, variant)
    milestones: list = []
    last_round = 1
    for state in replay_steps(record):
        assert state.milestones()[:len(milestones)] == milestones, "milestones only grow"
        milestones = state.milestones()
        assert all(m.phase in game.phases and m.round >= 1 for m in milestones)
        assert len(state.scores_by_round()) == sum(m.scored for m in milestones)
        if state.is_over():
            break
        assert state.phase in game.phases
        assert state.round >= last_round
        last_round = state.round
        decisions = state.decisions()
        assert [d.seat for d in decisions] == [state.seats[s] for s in state.waiting()] != []
        for decision in decisions:
            assert decision.kind in kinds, f"undeclared decision kind {decision.kind!r}"
            assert decision.simultaneous == kinds[decision.kind].simultaneous, decision
        with pytest.raises(IllegalOrderError):
            state.result()
    assert state.is_over() and state.phase == OVER
    assert state.waiting() == [] and state.decisions() == []
    check_result(state.result(), state)


def check_result(result: Result, state: State) -> None:
    assert isinstance(result, Result)
    assert sorted(result.ranking) == sorted(state.seats)
    assert set(result.scores) == set(state.seats) and all(isinstance(v, int) for v in result.scores.values())
    scores = [result.scores[seat] for seat in result.ranking]
    assert scores == sorted(scores, reverse=True), "the ranking follows the scores"
    assert set(result.breakdown) == set(state.seats)
    assert result.winner in (*state.seats, None) and result.tie_break
    stored = json.loads(json.dumps(result.to_json()))
    assert result == stored and result["ranking"] == list(result.ranking)


@pytest.mark.parametrize("name, count, variant", GAME_COUNTS)
def test_bots_always_find_a_legal_order_whose_text_round_trips(name, count, variant):
    """... and each order's text starts with one of its decision kind's `words` (what tells
    an order from prose in a mail)."""
    game = GAMES[name]
    words = {kind.name: kind.words for kind in game.decision_kinds}
    record, _ = played(name, count, variant)
    for step, state in enumerate(replay_steps(record)):
        for s in state.waiting():
            owed = {d.kind for d in state.decisions(options=False) if d.seat == state.seats[s]}
            for kind in game.bots:
                trial = state.clone()
                order = game.make_bot(kind, f"{step}:{s}").order(trial, s)
                text = trial.order_text(order)
                assert trial.parse(text) == [order], f"{text!r} does not parse back"
                first = text.split()[0].lower()
                assert any(first in words[k] for k in owed), f"{text!r} starts with none of {owed}'s words"
                trial.apply(trial.seats[s], order)  # legal: raises otherwise
    for line in record["orders"]:  # the log's text is canonical too
        seat, text = line.split(": ", 1)
        assert state.order_text(state.parse(text)[0]) == text


@pytest.mark.parametrize("name, count, variant", GAME_COUNTS)
def test_replay_from_the_record_reproduces_every_state(name, count, variant):
    record, seen = played(name, count, variant)
    steps = 0
    for steps, state in enumerate(replay_steps(json.loads(json.dumps(record)))):
        assert views(state) == seen[steps], f"order {steps}: a view differs on replay"
    assert steps == len(record["orders"]) == len(seen) - 1
    assert state.order_log() == record["orders"]


CLONE_SAMPLES = 3  # the steps of a game at which a clone is played to the end


@pytest.mark.parametrize("name, count, variant", GAME_COUNTS)
def test_a_clone_played_to_the_end_leaves_its_original_as_it_was(name, count, variant):
    """Callers change only clones (the service shares cached states between requests, and
    checks orders on a trial copy): a clone played on to the end by other bots changes
    nothing of its original, seen or hidden.  The original, replayed from the record past
    the clone's birth, shows every seat the views the game showed."""
    record, seen = played(name, count, variant)
    game = GAMES[name]
    every = max(1, len(record["orders"]) // CLONE_SAMPLES)
    steps = 0
    for steps, state in enumerate(replay_steps(record)):
        assert views(state) == seen[steps], f"order {steps}: a view differs after a clone was played on"
        if steps % every or state.is_over():
            continue
        clone = state.clone()
        bots = [game.make_bot("random", f"clone:{steps}:{s}") for s in range(count)]
        for _ in range(MAX_STEPS):
            waiting = clone.waiting()
            if not waiting:
                break
            clone.apply(clone.seats[waiting[0]], bots[waiting[0]].order(clone.clone(), waiting[0]))
        assert clone.is_over()
        assert views(state) == seen[steps] and state.order_log() == record["orders"][:steps]
    assert steps == len(record["orders"])


def twins_agree(game: Game, state: State, seed: str) -> bool:
    """Twin games: when seat A makes a secret simultaneous choice while others still owe
    theirs, two copies in which A chose differently must look the same to every other seat
    and to spectators (views, who is asked, and what they are offered), and stay so while
    the other seats but the last answer alike.  The last answer may end the phase and reveal
    the choices, so the twins are not compared after it.  Generic: it needs no knowledge of
    what a game hides, only two different legal orders, which the random bot finds.
    Returns whether a pair of twins was compared."""
    waiting = state.waiting()
    if len(waiting) < 2 or not state.decisions(options=False)[0].simultaneous:
        return False
    a, others = waiting[0], waiting[1:]
    twins: dict[str, State] = {}
    for attempt in range(30):  # two different legal choices of seat A
        twin = state.clone()
        order = game.make_bot("random", f"{seed}:{attempt}").order(twin.clone(), a)
        twin.apply(twin.seats[a], order)
        if a in twin.waiting():  # not a choice yet (an Azteca card play rides with one): try again
            continue
        twins.setdefault(twin.order_text(order), twin)
        if len(twins) == 2:
            break
    if len(twins) < 2:
        return False
    first, second = twins.values()
    bot = game.make_bot("random", seed)
    for b in [None, *others[:-1]]:
        if b is not None:  # the next seat answers alike in both twins
            order = bot.order(first.clone(), b)
            first.apply(first.seats[b], order)
            second.apply(second.seats[b], order)
        assert first.waiting() == second.waiting()
        for reader in (*(state.seats[o] for o in others), None):
            assert first.view(reader) == second.view(reader), \
                f"{reader or 'a spectator'} sees {state.seats[a]}'s secret choice"
        assert [d for d in first.decisions() if d.seat != state.seats[a]] == \
               [d for d in second.decisions() if d.seat != state.seats[a]]
        assert [d.options for d in first.decisions() if d.seat != state.seats[a]] == \
               [d.options for d in second.decisions() if d.seat != state.seats[a]]
    return True


@pytest.mark.parametrize("name, count, variant", GAME_COUNTS)
def test_no_view_leaks_a_secret(name, count, variant):
    """A secret that is drawn from the seed rather than chosen (a shuffled deck, later rows)
    cannot be twinned generically: a different seed may change public facts too.  Those
    secrets are each game's own view tests' business; a view built from public facts plus the
    reader's own secrets keeps them (docs/engine.md)."""
    game = GAMES[name]
    record, _ = played(name, count, variant)
    compared = sum(twins_agree(game, state, f"{name}:{step}")
                   for step, state in enumerate(replay_steps(record)))
    assert compared > 0, "the game never asked a secret choice of one seat while others still owed theirs"


def test_the_twin_check_catches_a_leak():
    """The check above fails for a game whose views show other seats' bids."""
    from duel.rules import DuelState, setup_from_record

    class LeakyDuel(DuelState):
        def view(self, seat):
            return {**super().view(seat), "bids": list(self.bids)}

    game = GAMES["duel"]
    state = LeakyDuel(setup_from_record(new_record(game, 3, 1)))
    with pytest.raises(AssertionError, match="secret choice"):
        twins_agree(game, state, "leak")


@pytest.mark.parametrize("game", EACH_GAME)
def test_bad_orders_are_refused_and_change_nothing(game):
    record, _ = played(game.name, game.max_players, "defaults")
    for step, state in enumerate(replay_steps(record)):
        if step % 7 or state.is_over():
            continue
        before = views(state), state.order_log()
        with pytest.raises(ParseError) as caught:
            state.parse("xyzzy 42 plugh")
        assert caught.value.expected
        idle = [s for s in range(len(state.seats)) if s not in state.waiting()]
        waiting = state.waiting()[0]
        order = game.make_bot("random", step).order(state.clone(), waiting)
        if idle:
            with pytest.raises(NotYourDecisionError):
                state.apply(state.seats[idle[0]], order)
        with pytest.raises(OrderError):
            state.apply("nobody", order)
        with pytest.raises(OrderError):
            state.apply(state.seats[waiting], object())
        assert (views(state), state.order_log()) == before
