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
           ("anywhere", "placed-this-age")),
    # English rulebook and summary: the counter below wins a tie; Italian: the one on top.
    Option("final_tiebreak", "below", "who wins a tie at the end: the counter below or on top",
           ("below", "top")),
    # Silent everywhere: what a coexistence draws when the deck is empty.
    Option("deck_exhausted", "reshuffle", "what a coexistence draws from an empty deck",
           ("reshuffle", "no-card")),
    # Silent everywhere: Offerings past five (the table stops at 25).
    Option("offerings_beyond_five", "square", "Offerings to the Gods past five cards",
           ("square", "cap")),
    # Silent everywhere: which tied leaders may break a tie with a Great Tlatoani.
    Option("tie_window", "each-leader", "which tied leaders may play a Great Tlatoani",
           ("each-leader", "first-leader")),
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
