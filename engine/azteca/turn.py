"""The shape of an Azteca game turn: the seats, the phases in order, which of them this step of
the implementation plays, and which decisions are secret and simultaneous."""
from __future__ import annotations

PEOPLES = ("aztecs", "toltecs", "chichimecs", "tepanecs")
SETUP, OVER = "setup", "over"
CARDS, TRIBUTE, PURCHASE, MARKET, POCHTECAS, LAKE, WAR, JUDGEMENT = (
    "cards", "tribute", "purchase", "market", "pochtecas", "lake", "war", "judgement")
PHASES = (CARDS, TRIBUTE, PURCHASE, MARKET, POCHTECAS, LAKE, WAR, JUDGEMENT)
# The seam for the next step of issue 19: phase 7 (the Flower War) is not written yet.  The
# turn passes from lake domination straight to the Judgement of the Gods (spies on espionage
# leave the board there); the Flower War joins this tuple when it is implemented.
PHASES_PLAYED = (CARDS, TRIBUTE, PURCHASE, MARKET, POCHTECAS, LAKE, JUDGEMENT)
PUBLIC = -1  # the audience of an event every seat and spectator sees
SIMULTANEOUS = frozenset({"army", "cards", "bid", "rebid", "send", "join", "urn", "tezcatlipoca"})
