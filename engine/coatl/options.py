"""Cóatl's rule options: each default and the rule text behind it are in docs/rules-coatl.md."""
from __future__ import annotations

from engine.core import Option

OPTIONS = (
    # Setup step 2 hands every player 3 tokens; "for your first game ... not to use" them.
    Option("sacrifice_tokens", "on", "each player has the three Sacrifice tokens", ("on", "off"),
           meanings={"on": "each player may once use Perfect Pick, See the Future and Priest Commitment "
                           "instead of an action",
                     "off": "no Sacrifice tokens, as the rulebook suggests for a first game"}),
    # The component sheet's variant: 14 body pieces per colour with 2 players, 18 with 3.
    Option("body_pieces", "all", "24 body pieces per colour, or fewer with 2 or 3 players", ("all", "fewer"),
           meanings={"all": "24 body pieces of each colour, whatever the number of players",
                     "fewer": "14 body pieces per colour with 2 players, 18 with 3 (a shorter game); "
                              "24 with 4"}),
    # "Fulfill one of the Temple cards ... with your newly completed Coatl, if able."
    Option("temple", "if-able", "a completed cóatl must fulfil a Temple card it can (if-able), "
           "or may leave it (optional)", ("if-able", "optional"),
           meanings={"if-able": "a completed cóatl that meets a temple of yours or a common one must "
                                "fulfil one of them",
                     "optional": "a completed cóatl may leave its temples for a later cóatl"}),
    # The red X: "there is no piece in this position".  Default: only a head or a tail closes an end.
    Option("open_ends", "closed-only", "whether an unfinished end of a cóatl counts as "
           "'no piece here' for a pair's boundary", ("closed-only", "any-end"),
           meanings={"closed-only": "only a head or a tail closes an end of a cóatl",
                     "any-end": "an end still waiting for its head or tail also counts as 'no piece here'"}),
    # Cards 45-49: the data's "at least one piece" between the pairs, or the text's "any number".
    Option("pair_gap", "at-least-one", "pieces between the two pairs of cards 45-49",
           ("at-least-one", "any"),
           meanings={"at-least-one": "at least one piece must lie between the two pairs",
                     "any": "the two pairs may touch"}),
)
NAMES = {option.name: option.choices for option in OPTIONS}
