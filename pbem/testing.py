"""Helpers for tests and benchmarks that play a seat from its view, as a client would."""
from __future__ import annotations

from typing import Any


def first_legal_order(decision: dict[str, Any]) -> str:
    """A legal order for one decision of a view's `me.decisions` (built from its options)."""
    kind, options = decision["kind"], decision["options"]
    if kind == "power":
        return f"card {options['cards'][0]}"
    if kind == "turn":
        return f"place {options['place'][0]}"
    if kind == "conflict":
        if options["won"]:
            return f"battle {options['won'][0]}"
        return f"tie {options['tied'][0]}"
    if kind == "reaction":
        return f"accept {options['territory']}"
    if kind == "scoring":
        return "score"
    raise ValueError(f"unknown kind of decision {kind!r}")
