"""Cóatl's rule options: each default and the rule text behind it are in docs/rules-coatl.md."""
from __future__ import annotations

from engine.core import Option

OPTIONS = (
    # Setup step 2 hands every player 3 tokens; "for your first game ... not to use" them.
    Option("sacrifice_tokens", "on", "each player has the three Sacrifice tokens", ("on", "off")),
    # The component sheet's variant: 14 body pieces per colour with 2 players, 18 with 3.
    Option("body_pieces", "all", "24 body pieces per colour, or fewer with 2 or 3 players", ("all", "fewer")),
    # "Fulfill one of the Temple cards ... with your newly completed Coatl, if able."
    Option("temple", "if-able", "a completed cóatl must fulfil a Temple card it can (if-able), "
           "or may leave it (optional)", ("if-able", "optional")),
    # The red X: "there is no piece in this position".  Default: only a head or a tail closes an end.
    Option("open_ends", "closed-only", "whether an unfinished end of a cóatl counts as "
           "'no piece here' for a pair's boundary", ("closed-only", "any-end")),
    # Cards 45-49: the data's "at least one piece" between the pairs, or the text's "any number".
    Option("pair_gap", "at-least-one", "pieces between the two pairs of cards 45-49",
           ("at-least-one", "any")),
)
NAMES = {option.name: option.choices for option in OPTIONS}
