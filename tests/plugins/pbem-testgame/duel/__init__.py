"""Duel, a test-only game (tests/plugins/pbem-testgame): secret bids, then picks in turn.

Each round a public row of tokens (one more than there are players) is laid out.  Every seat
secretly bids 1 to 5 coins; bids are revealed together and paid.  Then seats pick one token
each: the highest bid first (equal bids: the earlier seat), then the others in seat order.
After the last round a seat scores its tokens plus the coins it kept; equal scores are ordered
by fewer coins spent (option tie_break=least-spent) or share their place (tie_break=none).

Orders, one per line: `bid N`, `pick N` (a token's value).
"""
from duel.game import GAME, Duel, DuelState

__all__ = ["GAME", "Duel", "DuelState"]
