"""The shape of an Azteca game turn: the seats, the phases in order, which of them this step of
the implementation plays, and which decisions are secret and simultaneous."""
from __future__ import annotations

from engine.core import OVER, PUBLIC  # noqa: F401 - the phases' modules import them from here

PEOPLES = ("aztecs", "toltecs", "chichimecs", "tepanecs")
SETUP = "setup"
CARDS, TRIBUTE, PURCHASE, MARKET, POCHTECAS, LAKE, WAR, JUDGEMENT = (
    "cards", "tribute", "purchase", "market", "pochtecas", "lake", "war", "judgement")
PHASES = (CARDS, TRIBUTE, PURCHASE, MARKET, POCHTECAS, LAKE, WAR, JUDGEMENT)
# The phases this implementation plays (all of them now; a phase left out is passed over).
PHASES_PLAYED = (CARDS, TRIBUTE, PURCHASE, MARKET, POCHTECAS, LAKE, WAR, JUDGEMENT)
SIMULTANEOUS = frozenset({"army", "cards", "bid", "rebid", "send", "join", "urn", "tezcatlipoca",
                          "plan", "reserve", "cousin", "losses", "retreat", "promote"})
