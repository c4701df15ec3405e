"""Duel's bots: each reads only public facts (coins, the row) and its own seat."""
from __future__ import annotations

import random

from duel.rules import BIDDING, Bid, DuelState, Pick


class RandomBot:
    name = "random"

    def __init__(self, seed: int | str = 0):
        self.rng = random.Random(f"{seed}:duel-random")

    def order(self, state: DuelState, s: int) -> Bid | Pick:
        if state.phase == BIDDING:
            return Bid(self.rng.randint(1, state.max_bid(s)))
        return Pick(self.rng.choice(state.row))


class GreedyBot:
    """Bids what the best token is worth over the second best; picks the best."""

    name = "heuristic"

    def __init__(self, seed: int | str = 0):
        pass

    def order(self, state: DuelState, s: int) -> Bid | Pick:
        if state.phase == BIDDING:
            best, second = sorted(state.row)[-1], sorted(state.row)[-2]
            return Bid(max(1, min(state.max_bid(s), best - second)))
        return Pick(max(state.row))


class MinimalBot:
    """The least a seat can do: bid one coin, pick the lowest token."""

    name = "minimal"

    def __init__(self, seed: int | str = 0):
        pass

    def order(self, state: DuelState, s: int) -> Bid | Pick:
        return Bid(1) if state.phase == BIDDING else Pick(min(state.row))


BOTS = {bot.name: bot for bot in (RandomBot, GreedyBot, MinimalBot)}
