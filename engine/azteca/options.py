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
    # 18.0 "THE BIG DEAL": "Cards can be sold or exchanged between players. ... Players can give or
    # lend Tributes to each other. A player is never forced to keep his word."
    Option("big_deal", "off", "Whether players may trade cards and give or lend Tributes (18.0 The Big Deal)",
           ("off", "on"),
           meanings={"off": "no trading: cards and Tributes stay with their player",
                     "on": "'offer SEAT ... for ...' and 'accept SEAT N' trade cards and Tributes at once; "
                           "promises beyond the offer are not enforced"}),
    # 18.0 "PIROGUE EXPRESS SERVICE": "A player can allow another player to use his boats for movements."
    Option("pirogue_express", "off", "Whether players may let others use their boats (18.0 Pirogue Express Service)",
           ("off", "on"),
           meanings={"off": "an army crosses a lake zone only on boats of its own colour (14.3)",
                     "on": "'lend SEAT boats ZONE' (or boats in an offer) lets that seat cross on your boats "
                           "this turn"}),
)
