"""Game options: the readings a group may choose where the rule books disagree or are silent.

Each option's default and the rule text behind it are in docs/rules.md.
"""
from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from typing import Any

from engine.core import SetupError

CHOICES = {
    # English rulebook: "in any territory"; Italian: where you placed a pawn this age.
    "eagle_placement": ("anywhere", "placed-this-age"),
    # English rulebook and summary: the counter below wins a tie; Italian: the one on top.
    "final_tiebreak": ("below", "top"),
    # Silent everywhere: what a coexistence draws when the deck is empty.
    "deck_exhausted": ("reshuffle", "no-card"),
    # Silent everywhere: Offerings past five (the table stops at 25).
    "offerings_beyond_five": ("square", "cap"),
    # Silent everywhere: which tied leaders may break a tie with a Great Tlatoani.
    "tie_window": ("each-leader", "first-leader"),
}


@dataclass(frozen=True, slots=True)
class Options:
    eagle_placement: str = "anywhere"
    final_tiebreak: str = "below"
    deck_exhausted: str = "reshuffle"
    offerings_beyond_five: str = "square"
    tie_window: str = "each-leader"

    def to_dict(self) -> dict[str, str]:
        return asdict(self)


def load_options(data: Any) -> Options:
    if data is None:
        return Options()
    if not isinstance(data, dict):
        raise SetupError("options must be a JSON object")
    known = {f.name for f in fields(Options)}
    for key, value in data.items():
        if key not in known:
            raise SetupError(f"unknown option {key!r}; known: {', '.join(sorted(known))}")
        if value not in CHOICES[key]:
            raise SetupError(f"option {key} must be one of {', '.join(CHOICES[key])}, not {value!r}")
    return Options(**data)
