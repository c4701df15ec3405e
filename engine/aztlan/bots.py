"""Bots that fill empty seats and missed turns.  Each sees only its seat's view of the
state: its own hand and card, and public facts (never the deck or others' hands).

- RandomBot: a uniformly random legal order of each kind (for testing and fuzzing).
- HeuristicBot: greedy one-step play: the placement and move that most improve its
  own score with its card, battle when it keeps a territory and coexist when the card
  is worth more, and the best scoring plays.
- MinimalBot: the least a seat can do, a fair default for missed decisions.
"""
from __future__ import annotations

import random
from typing import Protocol

from engine.aztlan import scoring
from engine.aztlan.board import TERRAIN_TYPES
from engine.aztlan.cards import BLESSINGS, EAGLE_JAGUAR, RAFTS, SACRED_GAMES, TLATOANI, WILD
from engine.aztlan.orders import ChooseCard, LetTieStand, Order, React, Resolve, Score, Turn, made
from engine.aztlan.state import CHOOSING, CONFLICT, DEVELOPMENT, SCORING, AztlanState
from engine.core import play_out

__all__ = ["BOTS", "Bot", "HeuristicBot", "MinimalBot", "RandomBot", "make_bot", "play_out"]


class Bot(Protocol):
    name: str

    def order(self, state: AztlanState, s: int) -> Order: ...


class RandomBot:
    name = "random"

    def __init__(self, seed: int | str = 0):
        self.rng = random.Random(f"{seed}:random-bot")
        # What rng.choice and rng.randrange(n) draw with: the same numbers without their checks
        # (a count of 0 would never return, so every caller draws from a non-empty range).
        self.below = self.rng._randbelow
        # The hottest draws inline what _randbelow does (getrandbits of n's bit length until
        # one is below n): the same numbers, so the same games, without a Python call each.
        self.bits = self.rng.getrandbits

    def order(self, state: AztlanState, s: int) -> Order:
        phase = state.phase
        if phase == DEVELOPMENT:
            return self._turn(state, s)
        rng, getbits = self.rng, self.bits
        if phase == CHOOSING:
            left = state.power_left[s]
            n = len(left)
            k = n.bit_length()
            r = getbits(k)
            while r >= n:  # rng.choice(left), inline
                r = getbits(k)
            return made((ChooseCard, left[r]))
        ids = state.board.ids
        if phase == CONFLICT:
            if state.reaction:
                sacred = SACRED_GAMES in state.hands[s] and rng.random() < 0.5
                return made((React, ids[state.reaction.territory], sacred))
            # open_items(s) without its copies: won, then tied (never both for one territory)
            won, tied = state.open_won[s], state.open_tied[s]
            n = len(won) + len(tied)
            k = n.bit_length()
            r = getbits(k)
            while r >= n:  # rng.choice(won + tied), inline
                r = getbits(k)
            if r < len(won):
                t, tlatoani = won[r], False
            else:
                t = tied[r - len(won)]
                if not (TLATOANI in state.hands[s] and rng.random() < 0.5):
                    return made((LetTieStand, ids[t]))
                tlatoani = True
            r = getbits(2)
            while r >= 2:  # below(2), inline
                r = getbits(2)
            return made((Resolve, ids[t], ("battle", "coexist")[r], tlatoani))
        if phase == SCORING:
            return self._score(state, s)
        raise ValueError("the game is over")

    def _turn(self, state: AztlanState, s: int) -> Turn:
        rng, below, getbits = self.rng, self.below, self.bits
        board = state.board
        count = state.masks.count
        people = state.control[s]
        k = count.bit_length()
        place = getbits(k)
        while place >= count:  # below(count), inline
            place = getbits(k)
        eagle = None
        if EAGLE_JAGUAR in state.hands[s] and state._eagle_source(people) and rng.random() < 0.5:
            if state.options.eagle_placement == "anywhere":
                eagle = below(count)
            else:
                eagle = rng.choice(scoring.bits(state.placed_mask[people] | 1 << place))
        ids = board.ids
        move = None
        if rng.random() < 0.5:
            # A pawn of the seat's to move: one already there, or the one just placed (or the eagle).
            occupied = state.occupied_mask[people]
            mine = occupied.bit_count()
            n = mine + (1 if eagle is None else 2)
            k = n.bit_length()
            pick = getbits(k)
            while pick >= n:  # below(n), inline
                pick = getbits(k)
            start = scoring.nth_bit(occupied, pick) if pick < mine else place if pick == mine else eagle
            near = board.adjacent[start]
            if near:
                n = len(near)
                k = n.bit_length()
                r = getbits(k)
                while r >= n:  # below(n), inline
                    r = getbits(k)
                move = (ids[start], ids[near[r]])
        return made((Turn, ids[place], ids[eagle] if eagle is not None else None, move))

    def _score(self, state: AztlanState, s: int) -> Score:
        rng = self.rng
        hand = state.hands[s]
        wild = None
        if state.card_type[state.chosen[s]] == WILD and rng.random() < 0.5:
            wild = rng.choice(TERRAIN_TYPES)
        blessings = tuple(card for card in hand if card in BLESSINGS and rng.random() < 0.5)
        rafts = ()
        if RAFTS in hand and rng.random() < 0.5:
            pairs = state.rafts_pairs(s)
            if pairs:
                a, b = rng.choice(pairs)
                rafts = ((state.board.ids[a], state.board.ids[b]),)
        return made((Score, wild, blessings, rafts))


class HeuristicBot:
    """Greedy play on the seat's own view; deterministic for a given seed."""

    name = "heuristic"

    def __init__(self, seed: int | str = 0):
        self.rng = random.Random(f"{seed}:heuristic-bot")

    def order(self, state: AztlanState, s: int) -> Order:
        if state.phase == CHOOSING:
            return ChooseCard(self._card(state, s))
        if state.phase == DEVELOPMENT:
            return self._turn(state, s)
        if state.phase == CONFLICT:
            return self._conflict(state, s)
        if state.phase == SCORING:
            return self._score(state, s)
        raise ValueError("the game is over")

    def _card(self, state: AztlanState, s: int) -> int:
        left = state.power_left[s]
        ages_left = 6 - state.age
        if len(left) > ages_left:  # one card will stay unused: keep the one worth most at the end
            keep = max(left, key=lambda c: (state.card_points[c], c))
            left = [c for c in left if c != keep] or left
        # Strong cards early while pawns are many; a little randomness keeps it unreadable.
        ranked = sorted(left, reverse=True)
        return ranked[0] if self.rng.random() < 0.6 else self.rng.choice(ranked)

    def _my_type(self, state: AztlanState, s: int) -> str | None:
        card = state.chosen[s]
        kind = state.card_type[card] if card is not None else None
        return None if kind == WILD else kind

    def _value(self, state: AztlanState, mine: int, kind: str | None) -> int:
        found = scoring.domains(mine, state.masks.adjacent)
        if kind is None:
            kind = scoring.best_wild_type(found, state.masks.type_masks)
        return scoring.total_score(found, state.masks.type_masks[kind])

    def _turn(self, state: AztlanState, s: int) -> Turn:
        people = state.control[s]
        kind = self._my_type(state, s)
        card = state.chosen[s] or 4
        mine = state.occupied(s)
        ids = state.board.territories
        best, best_value = None, None
        for t in range(state.masks.count):
            row = state.pawns[t]
            # Danger: opponents present with more pawns than ours would likely defeat us.
            threat = max((c for p, c in enumerate(row) if p != people), default=0)
            value = self._value(state, mine | 1 << t, kind) * 10
            value -= 6 * max(0, threat * 9 - (row[people] + 1) * card) // 9
            value += self.rng.random()
            if best_value is None or value > best_value:
                best, best_value = t, value
        assert best is not None
        move = None
        after = mine | 1 << best
        base = self._value(state, after, kind)
        for start in scoring.bits(after):
            pawns_here = state.pawns[start][people] + (start == best)
            if pawns_here < 2:  # moving a lone pawn opens its territory
                continue
            for end in state.board.adjacent[start]:
                gain = self._value(state, after | 1 << end, kind) - base
                if gain > 0 and (move is None or gain > move[0]):
                    move = (gain, start, end)
        eagle = None
        if (EAGLE_JAGUAR in state.hands[s] and state._eagle_source(people)
                and state.options.eagle_placement == "anywhere" and state.age >= 3):
            eagle = ids[best].id
        return Turn(ids[best].id, eagle, (ids[move[1]].id, ids[move[2]].id) if move else None)

    def _conflict(self, state: AztlanState, s: int) -> Order:
        ids = state.board.territories
        if state.reaction:
            return React(ids[state.reaction.territory].id, SACRED_GAMES in state.hands[s])
        won, tied = state.open_items(s)
        if won:
            t = won[0]
            opponents = sum(c for p, c in enumerate(state.pawns[t]) if p != state.control[s])
            # Coexistence gives a card but lets the opponents score here too.
            choice = "coexist" if opponents == 1 and len(state.deck) > 0 and state.age < 5 else "battle"
            return Resolve(ids[t].id, choice)
        t = tied[0]
        if TLATOANI in state.hands[s]:
            return Resolve(ids[t].id, "battle", tlatoani=True)
        return LetTieStand(ids[t].id)

    def _score(self, state: AztlanState, s: int) -> Score:
        hand = state.hands[s]
        blessings = tuple(card for card in hand if card in BLESSINGS)
        pairs = state.rafts_pairs(s) if RAFTS in hand else []
        rafts = []
        if pairs:
            base = state.score_seat(s, Score(blessings=blessings))["points"]
            scored = []
            for a, b in pairs:
                pair = (state.board.territories[a].id, state.board.territories[b].id)
                gain = state.score_seat(s, Score(blessings=blessings, rafts=(pair,)))["points"] - base
                if gain > 0:
                    scored.append((gain, pair))
            scored.sort(reverse=True)
            rafts = [pair for _, pair in scored[:hand.count(RAFTS)]]
        return Score(None, blessings, tuple(rafts))


class MinimalBot:
    """The least a seat can do: the fair default for a missed decision when a game
    prefers it to the heuristic bot.  It never plays a prosperity card and takes no
    advantage it did not ask for: the lowest power card; a pawn placed beside its own
    (where it has most pawns, else the lowest-numbered territory), no move; coexist
    where it won, let ties stand, accept battles; score with no cards."""

    name = "minimal"

    def __init__(self, seed: int | str = 0):
        pass  # deterministic: no randomness at all

    def order(self, state: AztlanState, s: int) -> Order:
        ids = state.board.territories
        if state.phase == CHOOSING:
            return ChooseCard(min(state.power_left[s]))
        if state.phase == DEVELOPMENT:
            people = state.control[s]
            best = max(range(state.masks.count), key=lambda t: (state.pawns[t][people], -t))
            return Turn(ids[best].id)
        if state.phase == CONFLICT:
            if state.reaction:
                return React(ids[state.reaction.territory].id, False)
            won, tied = state.open_items(s)
            return Resolve(ids[won[0]].id, "coexist") if won else LetTieStand(ids[tied[0]].id)
        if state.phase == SCORING:
            return Score()
        raise ValueError("the game is over")


BOTS = {"random": RandomBot, "heuristic": HeuristicBot, "minimal": MinimalBot}


def make_bot(name: str, seed: int | str = 0) -> Bot:
    try:
        return BOTS[name](seed)
    except KeyError:
        raise ValueError(f"unknown bot {name!r}; known: {', '.join(BOTS)}") from None


