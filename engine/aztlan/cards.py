"""The fixed vocabulary of Aztlán: tribes, factions, prosperity cards and the pawn tables."""
from __future__ import annotations

TRIBES = ("quetzal", "coyote", "serpent", "ocelot")
# Aztec Gods (2 players): pawns of one faction count as one people.
FACTIONS = ("coyote-quetzal", "ocelot-serpent")

PAWNS_PER_TRIBE = 30
AGES = 5
# Pawns each people takes at the start of age 1..5, by number of players.
PAWNS_PER_AGE = {2: (10, 9, 8, 7, 6), 3: (8, 7, 6, 5, 4), 4: (7, 6, 5, 4, 3)}

WILD = "wild"

# Prosperity cards by id, with the phase in which each is played.
BLESSINGS = {"mixcoatl": "jungle", "tepeyollotl": "mountains", "xipe-totec": "fields"}
OFFERING = "offering"
SACRED_GAMES = "sacred-games"
RAFTS = "rafts"
TLATOANI = "tlatoani"
EAGLE_JAGUAR = "eagle-jaguar"
PROSPERITY_CARDS = (*BLESSINGS, OFFERING, SACRED_GAMES, RAFTS, TLATOANI, EAGLE_JAGUAR)

CARD_TITLES = {
    "mixcoatl": "Blessing of Mixcoatl",
    "tepeyollotl": "Blessing of Tepeyollotl",
    "xipe-totec": "Blessing of Xipe Totec",
    OFFERING: "Offering to the Gods",
    SACRED_GAMES: "Sacred Games",
    RAFTS: "Rafts and Canoes",
    TLATOANI: "Great Tlatoani",
    EAGLE_JAGUAR: "Eagle and Jaguar Warriors",
}


def offerings_bonus(count: int, beyond_five: str) -> int:
    """1, 4, 9, 16, 25 for 1..5 Offerings; past five the table is silent (see docs/rules.md)."""
    if beyond_five == "cap":
        count = min(count, 5)
    return count * count
