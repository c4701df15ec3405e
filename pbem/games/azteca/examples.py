"""A legal order for any Azteca decision, from its options alone: the example a report's
"what happens next" gives and how tests play a seat as a client would (the plainest choice:
keep, pass, bid nothing, offer nothing; a chart and a boat sheet that place everything)."""
from __future__ import annotations

from typing import Any, Mapping

# Decisions whose plainest answer needs nothing from the options.
PLAIN = {"cards": "keep", "purchase": "buy nothing", "bid": "bid none", "rebid": "bid none",
         "mission": "mission none", "attack": "attack none", "join": "join neutral", "fight": "stop",
         "plan": "plan none", "march": "pass", "urn": "quetzalcoatl 0", "tezcatlipoca": "tezcatlipoca 0"}


def _chart(options: Mapping[str, Any]) -> str:
    """Every warrior and Jaguar knight over the boxes in order, as full as a box may be."""
    left = [int(options.get("warriors", 0)), int(options.get("jaguars", 0))]
    limit = int(options.get("box_limit", 4))
    boxes = []
    for box in options.get("boxes") or ("A", "B", "C", "R"):
        room, counts = limit, [0, 0]
        for kind in (1, 0):  # a knight in each army first
            take = min(left[kind], room if kind == 0 else 1)
            counts[kind], left[kind], room = take, left[kind] - take, room - take
        if sum(counts):
            boxes.append(f"{box} " + " ".join(f"{n}{k}" for n, k in zip(counts, "wj") if n))
    return "army " + ", ".join(boxes)


def first_order(decision: Mapping[str, Any]) -> str | None:
    kind, options = str(decision.get("kind")), decision.get("options") or {}
    if kind in PLAIN:
        return PLAIN[kind]
    if kind == "dike" and options.get("shores"):
        return f"dike {options['shores'][0]}"
    if kind == "place" and options.get("territories"):
        return f"place {options['territories'][0]}"
    if kind == "army":
        return _chart(options)
    if kind == "look" and len(options.get("lots") or []) >= 2:
        return "look " + " ".join(map(str, options["lots"][:2]))
    if kind == "send":
        zones = options.get("zones") or []
        return f"send {options['boats']}B{zones[0]}" if options.get("boats") and zones else "send nothing"
    if options.get("orders"):  # a battle's question lists its answers
        return str(options["orders"][0])
    return None
