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
    # 18.0 "I'VE ALREADY GIVEN...": "Now Alliances and Assimilations are no longer automatic."
    Option("alliances", "automatic", "Whether pochtecas' alliances and assimilations always succeed",
           ("automatic", "already-given"),
           meanings={"automatic": "an alliance costs 3 Tributes and an assimilation 3, both succeed (12.0)",
                     "already-given": "an alliance costs 2 Tributes and a red die's lance, or 4 and a yellow "
                                      "die's lance; an assimilation 1 Tribute and a red die's lance (18.0)"}),
    # 14.13: "each of the players announces whether he plays a 'Reinforcements' card" (whose side
    # is not said; the section speaks of the neutral's troops throughout).
    Option("reinforcements", "neutral", "Whose side a Reinforcements card's troops join",
           ("neutral", "own-side"),
           meanings={"neutral": "every card played on an attacked neutral joins the neutral (14.13)",
                     "own-side": "the attacker's own card joins his army; everybody else's joins the neutral"}),
)
