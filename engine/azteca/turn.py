"""The shape of an Azteca game turn: the seats, the phases in order, which of them this step of
the implementation plays, and which decisions are secret and simultaneous."""
from __future__ import annotations

PEOPLES = ("aztecs", "toltecs", "chichimecs", "tepanecs")
SETUP, OVER = "setup", "over"
CARDS, TRIBUTE, PURCHASE, MARKET, POCHTECAS, LAKE, WAR, JUDGEMENT = (
    "cards", "tribute", "purchase", "market", "pochtecas", "lake", "war", "judgement")
PHASES = (CARDS, TRIBUTE, PURCHASE, MARKET, POCHTECAS, LAKE, WAR, JUDGEMENT)
# The seam for the next step of issue 19: phases 5-7 (pochteca missions, lake domination, the
# Flower War) are not written yet.  The turn passes straight from the slave market to the
# Judgement of the Gods; each of them joins this tuple when it is implemented.
PHASES_PLAYED = (CARDS, TRIBUTE, PURCHASE, MARKET, JUDGEMENT)
PUBLIC = -1  # the audience of an event every seat and spectator sees
SIMULTANEOUS = frozenset({"army", "cards", "bid", "rebid", "urn", "tezcatlipoca"})
