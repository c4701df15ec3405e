"""Azteca's rule options: each default and the rule text behind it are in docs/rules-azteca.md."""
from __future__ import annotations

from engine.core import Option

OPTIONS = (
    # 17.0: "25 points for Expert level, 22 points for Experienced level, etc."
    Option("difficulty", "standard", "Sacrifice points that make Quetzalcoatl climb one step",
           ("standard", "experienced", "expert"),
           meanings={"standard": "20 points a step (15 with 3 players), as in 15.1 and 16.0",
                     "experienced": "22 points a step, whatever the number of players",
                     "expert": "25 points a step, whatever the number of players"}),
)
