"""Game options: the readings a group may choose where the rule books disagree or are silent.

Each option's default and the rule text behind it are in docs/rules.md.
"""
from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from engine.core import Option, check_options

OPTIONS = (
    # English rulebook: "in any territory"; Italian: where you placed a pawn this age.
    Option("eagle_placement", "anywhere", "where the Eagle and Jaguar pawn may go",
           ("anywhere", "placed-this-age"),
           meanings={"anywhere": "the extra pawn may go to any territory (the English rulebook)",
                     "placed-this-age": "only where you placed a pawn from your reserve this age "
                                        "(the Italian rulebook)"}),
    # English rulebook and summary: the counter below wins a tie; Italian: the one on top.
    Option("final_tiebreak", "below", "who wins a tie at the end: the counter below or on top",
           ("below", "top"),
           meanings={"below": "of tied players, the one whose score counter lies lowest in the stack wins "
                              "(the English rulebook)",
                     "top": "of tied players, the one whose counter lies on top wins (the Italian rulebook)"}),
    # Silent everywhere: what a coexistence draws when the deck is empty.
    Option("deck_exhausted", "reshuffle", "what a coexistence draws from an empty deck",
           ("reshuffle", "no-card"),
           meanings={"reshuffle": "the played prosperity cards are shuffled into a new deck",
                     "no-card": "an empty deck gives nothing"}),
    # Silent everywhere: Offerings past five (the table stops at 25).
    Option("offerings_beyond_five", "square", "Offerings to the Gods past five cards",
           ("square", "cap"),
           meanings={"square": "n Offerings score n x n points, so six score 36",
                     "cap": "five or more Offerings score 25 points, the table's last row"}),
    # Silent everywhere: which tied leaders may break a tie with a Great Tlatoani.
    Option("tie_window", "each-leader", "which tied leaders may play a Great Tlatoani",
           ("each-leader", "first-leader"),
           meanings={"each-leader": "every leader of a tie, in conflict order, may break it with a Great "
                                    "Tlatoani in its own conflict turn",
                     "first-leader": "only the first tied leader in conflict order may break the tie; "
                                     "if it lets the tie stand, the tie is settled"}),
)
CHOICES = {option.name: option.choices for option in OPTIONS}  # default first
_DEFAULT = {option.name: option.default for option in OPTIONS}


@dataclass(frozen=True, slots=True)
class Options:
    eagle_placement: str = _DEFAULT["eagle_placement"]
    final_tiebreak: str = _DEFAULT["final_tiebreak"]
    deck_exhausted: str = _DEFAULT["deck_exhausted"]
    offerings_beyond_five: str = _DEFAULT["offerings_beyond_five"]
    tie_window: str = _DEFAULT["tie_window"]

    def to_dict(self) -> dict[str, str]:
        return asdict(self)


def load_options(data: Any) -> Options:
    return Options(**check_options(OPTIONS, data))
