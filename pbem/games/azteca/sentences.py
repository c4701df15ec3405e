"""Azteca's events as plain sentences, for pages, mails and reports.

Input is an event of a view (already filtered for its reader by the engine: public events and
the reader's own); output is plain text, escaped by templates like any other text.  Every event
type the engine emits (engine/azteca: state, market, pochtecas, domination, lake, war, battle,
cards, judgement) has its sentence; an unknown one falls back to its type in words.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Mapping

from engine.azteca.components import AztecaCard, Edition, packaged_edition
from engine.azteca.geography import Geography, geography
from pbem.games.reporting import joined

# Events only their reader sees besides the "my-..." ones: the population marker just drawn.
PRIVATE = frozenset({"marker-drawn"})
# Events that are the reader's own doing when they name the reader's seat: not news to it
# (the results of chance and of others' doings, such as a lot won or a city captured, are).
OWN = frozenset({"answered", "dike", "marker-placed", "discarded", "drew", "bought", "looked", "card-played",
                 "lake-attack", "lake-stop", "reorganised", "army-moves", "army-passed"})
ANSWERS = {"army": "organisation chart", "cards": "choice of cards", "bid": "slave-market bid",
           "rebid": "slave-market re-bid", "send": "pochteca and boat sheet", "join": "side in the lake battle",
           "plan": "standing orders", "urn": "offer to Quetzalcoatl", "tezcatlipoca": "offer to Tezcatlipoca",
           "reserve": "Reserve's commitment", "cousin": "cousin's answer", "losses": "losses",
           "retreat": "answer to fight on or retreat", "promote": "promotion"}
BOX_NAMES = {"A": "army A", "B": "army B", "C": "army C", "R": "the Reserve", "reserve": "the Reserve",
             "cousin": "the cousin's counter", "neutral": "the neutral army"}


def plural(count: int, one: str, many: str | None = None) -> str:
    return f"{count} {one if count == 1 else (many or one + 's')}"


def counters(warriors: int, jaguars: int) -> str:
    """"3 warriors and 1 Jaguar knight"; "empty"."""
    parts = ([plural(warriors, "warrior")] if warriors else []) + ([plural(jaguars, "Jaguar knight")] if jaguars else [])
    return joined(parts) if parts else "empty"


def chart_text(chart: Mapping[str, Any]) -> str:
    """An organisation chart as its order writes it: "A 3w 1j, B 2w, C empty, R 2w"."""
    boxes = []
    for box in ("A", "B", "C", "R"):
        warriors, jaguars = (list(chart.get(box) or [0, 0]) + [0, 0])[:2]
        inside = " ".join(f"{n}{kind}" for n, kind in ((warriors, "w"), (jaguars, "j")) if n) or "empty"
        boxes.append(f"{box} {inside}")
    return ", ".join(boxes)


@dataclass(frozen=True)
class Words:
    """How a reader's texts name seats, regions and cards: players by name, regions and Azteca
    cards by their names (cards by key in an edition the text does not know)."""

    names: Mapping[str, str]
    geo: Geography
    edition: Edition | None = None

    @classmethod
    def of(cls, names: Mapping[str, str], view: Mapping[str, Any]) -> "Words":
        """From a view alone: the packaged map for its player count, the packaged edition if the
        game plays it (an edition given inline is not in the view)."""
        edition = packaged_edition() if view.get("edition") == packaged_edition().name else None
        return cls(names, geography(4 if view.get("players") == 4 else 3), edition)

    def card(self, key: Any) -> AztecaCard | None:
        try:
            return self.edition.card(str(key)) if self.edition else None
        except KeyError:
            return None

    def card_name(self, key: Any) -> str:
        found = self.card(key)
        return found.name if found else str(key)

    def who(self, seat: Any) -> str:
        if seat is None:
            return "nobody"
        return self.names.get(str(seat), str(seat))

    def place(self, key: Any) -> str:
        try:
            return self.geo.region(str(key)).name
        except KeyError:
            return str(key)

    def zone(self, key: Any) -> str:
        """A lake zone with the number orders use: "Lake Texcoco (zone 3)"."""
        try:
            region = self.geo.region(str(key))
        except KeyError:
            return str(key)
        return f"{region.name} (zone {region.number})"


Sentence = Callable[[Mapping[str, Any], Words], str]


def _bought(e: Mapping[str, Any], w: Words) -> str:
    items = [plural(e.get("warriors", 0), "warrior")] if e.get("warriors") else []
    items += [plural(e["jaguars"], "Jaguar knight")] if e.get("jaguars") else []
    items += [f"general {g}" for g in e.get("generals") or []]
    items += [plural(e["pochtecas"], "pochteca")] if e.get("pochtecas") else []
    items += [plural(e["boats"], "boat")] if e.get("boats") else []
    items += [f"a dike to {w.place(shore)}" for shore in e.get("dikes") or []]
    if not items:
        return f"{w.who(e.get('seat'))} bought nothing."
    return f"{w.who(e.get('seat'))} bought {joined(items)} for {plural(e.get('spent', 0), 'Tribute')}."


def _sacrifice(e: Mapping[str, Any], w: Words) -> str:
    points = int(e.get("points") or 0)
    change = f"lose {plural(-points, 'Sacrifice point')}" if points < 0 else f"gain {plural(points, 'Sacrifice point')}"
    return f"You {change} ({e.get('total', 0)} held)."


def _storm(e: Mapping[str, Any], w: Words) -> str:
    lost = [f"{w.who(seat)} {plural(n, 'boat')}" for seat, n in (e.get("lost") or {}).items() if n]
    return f"A storm on {w.zone(e.get('zone'))}: " + (f"lost {joined(lost)}." if lost else "no boat was there.")


def _boats_placed(e: Mapping[str, Any], w: Words) -> str:
    parts = []
    for seat, boats in (e.get("boats") or {}).items():
        here = [f"{n} in zone {w.geo.region(zone).number}" if zone.startswith("lake") else f"{n} in harbour"
                for zone, n in boats.items()]
        parts.append(f"{w.who(seat)} {', '.join(here) or 'none'}")
    return "The boats are placed: " + ("; ".join(parts) or "none") + "."


def _lake_round(e: Mapping[str, Any], w: Words) -> str:
    sides = [f"the {side}'s {plural((e.get(side) or {}).get('boats', 0), 'boat')} rolled "
             f"{(e.get(side) or {}).get('face', '?')}" for side in ("attacker", "defender")]
    return f"{w.zone(e.get('zone'))}, round {e.get('battle_round')}: {joined(sides)}."


def _control(e: Mapping[str, Any], w: Words) -> str:
    return "Lake control: " + "; ".join(f"zone {w.geo.region(zone).number} {w.who(seat)}" if seat else
                                        f"zone {w.geo.region(zone).number} nobody"
                                        for zone, seat in (e.get("control") or {}).items()) + "."


def _tezcatlipoca(e: Mapping[str, Any], w: Words) -> str:
    offers = "; ".join(f"{w.who(seat)} {points}" for seat, points in (e.get("offers") or {}).items())
    added = f", Tlenamacac {e['cards']}" if e.get("cards") else ""
    dice = ", ".join(map(str, e.get("dice") or []))
    outcome = ("Tezcatlipoca is appeased" if e.get("calm")
               else f"Tezcatlipoca descends a step ({e.get('steps')} down)")
    return (f"Offers to Tezcatlipoca: {offers}{added}; the white dice {dice} (the best counts): "
            f"{e.get('total')} against the Anger card's {e.get('card')}. {outcome}.")


def _verification(e: Mapping[str, Any], w: Words) -> str:
    return (f"The verification urn is opened: {plural(e.get('opened', 0), 'Sacrifice point')}; Quetzalcoatl climbs "
            f"{plural(e.get('steps', 0), 'step')} (now {e.get('quetzalcoatl')} up); {e.get('left', 0)} stay in the urn.")


def _game_over(e: Mapping[str, Any], w: Words) -> str:
    if e.get("destroyed"):
        return "Tezcatlipoca has reached the underworlds: the universe is destroyed and every player loses."
    scores = e.get("scores") or {}
    ranked = "; ".join(f"{w.who(seat)} {scores.get(seat, 0)}" for seat in e.get("ranking") or scores)
    winner = f"{w.who(e['winner'])} wins" if e.get("winner") else "first place is shared"
    return f"Quetzalcoatl has reached the gold temple. The game is over: {winner} (offered to Quetzalcoatl: {ranked})."


def _bids(e: Mapping[str, Any], w: Words) -> str:
    bids = [f"{w.who(seat)} " + ("no bid" if bid is None else f"lot {bid[0]} for {plural(bid[1], 'Tribute')}")
            for seat, bid in (e.get("bids") or {}).items()]
    return "The slave-market bids are revealed: " + ("; ".join(bids) or "none") + "."


def _envoys(e: Mapping[str, Any], w: Words) -> str:
    parts = []
    for seat, sent in (e.get("envoys") or {}).items():
        where = [f"{letter} on an expedition" if to == "exp" else f"{letter} to {w.place(to)}"
                 for letter, to in sent.items()]
        parts.append(f"{w.who(seat)}: {', '.join(where) or 'none'}")
    return "The pochtecas' destinations are revealed: " + ("; ".join(parts) or "none") + "."


def _expedition(e: Mapping[str, Any], w: Words) -> str:
    outcome = (f"it brings back {plural(e['tributes'], 'Tribute')}" if e.get("tributes")
               else "the expedition is massacred")
    return f"{w.who(e.get('seat'))}'s pochteca {e.get('pochteca')} went on an expedition: {outcome}."


def _mission(e: Mapping[str, Any], w: Words) -> str:
    text = f"{w.who(e.get('seat'))}'s pochteca {e.get('pochteca')} in {w.place(e.get('territory'))}: "
    mission = str(e.get("mission"))
    if mission == "none":
        return text + "no mission."
    cost = f" for {plural(e['tributes'], 'Tribute')}" if e.get("tributes") else ""
    die = f", the {e['die']} die shows {e.get('face')}" if e.get("die") else ""
    return text + f"{mission}{cost}{die}: {'success' if e.get('success') else 'failure'}."


def _battle(e: Mapping[str, Any], w: Words) -> str:
    if not e.get("defender"):
        defence = "the neutral city's army"
    elif e.get("defending_army"):
        defence = f"{w.who(e['defender'])}'s army {e['defending_army']}"
    else:  # a city with no army on it: its Reserve may defend it (14.6)
        defence = f"{w.who(e['defender'])}'s city, which no army defends"
    cousins = f"; cousins: {joined([w.who(c) for c in e['cousins']])}" if e.get("cousins") else ""
    return (f"Battle in {w.place(e.get('at'))}: {w.who(e.get('attacker'))}'s army {e.get('army')} "
            f"against {defence}{cousins}.")


def _battle_round(e: Mapping[str, Any], w: Words) -> str:
    sides = []
    for side in ("attacker", "defender"):
        part = e.get(side) or {}
        sides.append(f"the {side} ({plural(part.get('points', 0), 'combat point')}) rolled {part.get('colour')} "
                     f"{', '.join(part.get('faces') or [])}")
    return f"{w.place(e.get('at'))}, round {e.get('battle_round')}: {joined(sides)}."


def _lost(items: Any) -> str:
    """Battle losses as the engine logs them ("A:warrior") in words."""
    words = []
    for item in items or []:
        key, _, kind = str(item).rpartition(":")
        group = BOX_NAMES.get(key, "reinforcements" if key.startswith("reinforcements") else
                              "a cousin's counter" if key.startswith("cousin") else key)
        words.append(f"a {'Jaguar knight' if kind == 'jaguar' else kind} of {group}")
    return joined(words) if words else "nothing"


def _winner(winner: Any) -> str:
    return {"attacker": "the attacker wins", "defender": "the defender wins"}.get(str(winner), "nobody wins")


def _box(box: Any) -> str:
    return "Reserve" if box == "R" else f"army {box}"


def _offer(e: Mapping[str, Any], w: Words, done: str, whose: str = "") -> str:
    """An offer between two seats, seen by them alone: "Ana offers Bo 2 tributes for card tlaloc
    (offer 1)", or what became of it."""
    terms = f"{e.get('give')} for {e.get('take')}"
    if not whose:
        return f"{w.who(e.get('from'))} offers {w.who(e.get('to'))} {terms} (offer {e.get('number')})."
    return f"{w.who(e.get('from'))}{whose} {e.get('number')} to {w.who(e.get('to'))} ({terms}) is {done}."


def _dealt(e: Mapping[str, Any], side: int, w: Words) -> str:
    """One side of an accepted deal as everyone sees it: Tributes, how many cards, boats."""
    tributes, cards, boats = ((e.get(key) or [0, 0])[side] for key in ("tributes", "cards", "boats"))
    parts = ([plural(tributes, "Tribute")] if tributes else []) + ([plural(cards, "card")] if cards else [])
    parts += ["leave to use its boats on " + joined([w.zone(zone) for zone in boats])] if boats else []
    return joined(parts) if parts else "nothing"


def _plundered(e: Mapping[str, Any], w: Words) -> str:
    text = f"{w.who(e.get('seat'))} plunders {w.who(e.get('victim'))}'s capital {w.place(e.get('capital'))}"
    if e.get("raid"):
        return text + " in a Raid: its owner loses half his Sacrifice points."
    return text + f": half his Sacrifice points and {plural(e.get('tributes', 0), 'Tribute')} are taken."


_SENTENCES: dict[str, Sentence] = {
    # setup (5.0, 5.1)
    "setup": lambda e, w: (f"The game begins: {joined([w.who(s) for s in e.get('seats') or []])} play in this "
                           f"order; {w.who(e.get('tlatoani'))} holds the Tlatoani card."),
    "answered": lambda e, w: f"{w.who(e.get('seat'))} has given their {ANSWERS.get(str(e.get('kind')), 'answer')}.",
    "dike": lambda e, w: f"{w.who(e.get('seat'))} joins Tenochtitlan to {w.place(e.get('shore'))} with a dike.",
    "my-chart": lambda e, w: f"Your organisation chart: {chart_text(e.get('chart') or {})}.",
    "charts-ready": lambda e, w: "Every organisation chart is ready.",
    "marker-drawn": lambda e, w: f"You drew a population marker worth {e.get('value')}.",
    "marker-placed": lambda e, w: (f"{w.who(e.get('seat'))} placed a population marker face down on "
                                   f"{w.place(e.get('territory'))}."),
    "my-marker": lambda e, w: f"Your population marker on {w.place(e.get('territory'))} is worth {e.get('value')}.",
    "markers-revealed": lambda e, w: "The population markers are turned face up (the 0s are removed): " + ", ".join(
        f"{w.place(t)} {v}" for t, v in (e.get("markers") or {}).items()) + ".",
    # phase 1: Azteca cards (8.0)
    "turn": lambda e, w: f"Game turn {e.get('round')} begins; {w.who(e.get('tlatoani'))} holds the Tlatoani card.",
    "discarded": lambda e, w: f"{w.who(e.get('seat'))} discarded {plural(e.get('count', 0), 'Azteca card')}.",
    "drew": lambda e, w: f"{w.who(e.get('seat'))} drew {plural(e.get('count', 0), 'Azteca card')}.",
    "my-cards": lambda e, w: ("You drew " + joined([w.card_name(c) for c in e["cards"]]) + "." if e.get("cards")
                              else "You drew no Azteca card."),
    "cards-reshuffled": lambda e, w: f"The discarded Azteca cards make a new deck of {e.get('count')}.",
    "card-played": lambda e, w: (f"{w.who(e.get('seat'))} played {w.card_name(e.get('card'))}"
                                 + (f" on zone {e['target']}" if e.get("target") else "") + "."),
    "my-play-dropped": lambda e, w: f"Your {w.card_name(e.get('card'))} could no longer be played: it stays in your hand.",
    "card-tributes": lambda e, w: f"{w.who(e.get('seat'))} gains {plural(e.get('tributes', 0), 'Tribute')} from Tlaloc.",
    "storm": _storm,
    # phase 2: tribute (9.0)
    "tribute": lambda e, w: f"{w.who(e.get('seat'))} receives {plural(e.get('tributes', 0), 'Tribute')}.",
    "my-sacrifice": _sacrifice,
    # phase 3: purchases (10.0)
    "bought": _bought,
    # phase 4: the slave market (11.0)
    "market-empty": lambda e, w: "Nobody has Tributes: there is no slave market this turn.",
    "market-dealt": lambda e, w: (f"The slave market deals {plural(e.get('lots', 0), 'lot')} face down; bidders: "
                                  f"{joined([w.who(s) for s in e.get('bidders') or []] or ['none'])}."),
    "looked": lambda e, w: (f"{w.who(e.get('seat'))} looked at lots "
                            f"{joined([str(lot) for lot in e.get('lots') or []] or ['none'])}."),
    "my-look": lambda e, w: "You looked at the slave market: " + ", ".join(
        f"lot {lot} is worth {plural(v, 'Sacrifice point')}" for lot, v in (e.get("cards") or {}).items()) + ".",
    "bids": _bids,
    "market-tie": lambda e, w: "Tied at the top, re-bidding: " + "; ".join(
        f"lot {lot}: {joined([w.who(s) for s in seats])}" for lot, seats in (e.get("lots") or {}).items()) + ".",
    "rebids": lambda e, w: "The re-bids are revealed: " + ("; ".join(
        f"{w.who(seat)} {plural(n, 'Tribute')}" for seat, n in (e.get("bids") or {}).items()) or "none") + ".",
    "lot-lost": lambda e, w: (f"Lot {e.get('lot')} is tied again at {plural(e.get('tributes', 0), 'Tribute')}: "
                              f"{joined([w.who(s) for s in e.get('seats') or []])} lose their bids and nobody takes it."),
    "lot-won": lambda e, w: f"{w.who(e.get('seat'))} takes lot {e.get('lot')} for {plural(e.get('tributes', 0), 'Tribute')}.",
    "my-lot": lambda e, w: (f"Lot {e.get('lot')} was worth {plural(e.get('points', 0), 'Sacrifice point')} "
                            f"({e.get('total', 0)} held)."),
    # phase 5: pochtecas (12.0)
    "pochtecas-revealed": _envoys,
    "expedition": _expedition,
    "mission": _mission,
    "spies-recalled": lambda e, w: "The pochtecas on espionage come home.",
    # phase 6: lake domination (13.0)
    "boats-placed": _boats_placed,
    "lake-attack": lambda e, w: (f"{w.who(e.get('seat'))} attacks {w.who(e.get('defender'))}'s boats on "
                                 f"{w.zone(e.get('zone'))}."),
    "lake-sides": lambda e, w: "Sides in the lake battle: " + "; ".join(
        f"{w.who(seat)} {side}" for seat, side in (e.get("sides") or {}).items()) + ".",
    "lake-round": _lake_round,
    "boat-sunk": lambda e, w: f"{w.who(e.get('seat'))} loses a boat on {w.zone(e.get('zone'))}.",
    "lake-stop": lambda e, w: f"{w.who(e.get('seat'))} stops the lake battle on {w.zone(e.get('zone'))}.",
    "lake-battle-over": lambda e, w: (f"The lake battle on {w.zone(e.get('zone'))} is over; boats lost: " + "; ".join(
        f"{w.who(seat)} {n}" for seat, n in (e.get("lost") or {}).items()) + "."),
    "lake-control": _control,
    # phase 7: the Flower War (14.0)
    "war-markers": lambda e, w: "The Flower War begins; movement markers in the bag: " + "; ".join(
        f"{w.who(seat)} {n}" for seat, n in (e.get("markers") or {}).items()) + ".",
    "war-marker": lambda e, w: f"A movement marker of {w.who(e.get('seat'))} is drawn ({e.get('left')} left).",
    "reorganised": lambda e, w: (f"{w.who(e.get('seat'))} reorganised "
                                 f"{joined([BOX_NAMES.get(b, b) for b in e.get('boxes') or []] or ['nothing'])}."),
    "army-disbanded": lambda e, w: f"{w.who(e.get('seat'))}'s army {e.get('army')} is emptied and disbanded.",
    "army-passed": lambda e, w: f"{w.who(e.get('seat'))} moves no army.",
    "army-moves": lambda e, w: (f"{w.who(e.get('seat'))}'s army {e.get('army')} moves "
                                + " to ".join(w.place(r) for r in e.get("route") or [])
                                + (" in a Raid" if e.get("raid") else "") + "."),
    "interception": lambda e, w: (f"{w.who(e.get('seat'))}'s army {e.get('army')} intercepts "
                                  f"{w.who(e.get('target'))}'s army {e.get('target_army')} in {w.place(e.get('at'))}."),
    "battle": _battle,
    "battle-reserve": lambda e, w: (f"{w.who(e.get('seat'))} has decided how much of the Reserve defends "
                                    f"{w.place(e.get('at'))} (how many stays secret)."),
    "battle-reinforcements": lambda e, w: (f"{w.who(e.get('seat'))} sends {plural(e.get('counters', 0), 'counter')} "
                                           f"of Reinforcements to the {e.get('side')} in {w.place(e.get('at'))}."),
    "battle-cousin": lambda e, w: (f"{w.who(e.get('seat'))}, a cousin, sends "
                                   + ("nothing" if e.get("kind") in (None, "none") else
                                      f"a {'Jaguar knight' if e.get('kind') == 'jaguar' else 'warrior'}")
                                   + f" to defend {w.place(e.get('at'))}."),
    "battle-unopposed": lambda e, w: f"Nobody defends {w.place(e.get('at'))}.",
    "battle-terrain": lambda e, w: (f"The terrain die in {w.place(e.get('at'))} shows {e.get('face')}"
                                    + (": the terrain captures an attacking counter." if e.get("face") == "lance" else ".")),
    "battle-mobilisation": lambda e, w: (f"{w.place(e.get('at'))} mobilises: the white die shows {e.get('face')}, "
                                         + ("no extra troop." if e.get("troop") in (None, "none")
                                            else f"a {'Jaguar knight' if e.get('troop') == 'jaguar' else 'warrior'} joins.")),
    "battle-round": _battle_round,
    "battle-losses": lambda e, w: f"In {w.place(e.get('at'))} the {e.get('side')} loses {_lost(e.get('lost'))}.",
    "battle-retreat": lambda e, w: (f"In {w.place(e.get('at'))} the {e.get('side')} withdraws "
                                    f"{joined([BOX_NAMES.get(g, g) for g in e.get('groups') or []])}."),
    "battle-battle-end": lambda e, w: (f"The battle in {w.place(e.get('at'))} ends after "
                                       f"{plural(e.get('rounds', 0), 'round')}: {_winner(e.get('winner'))}."),
    "battle-promotion": lambda e, w: (f"A warrior of {w.who(e.get('seat'))}'s "
                                      f"{BOX_NAMES.get(str(e.get('group')), 'cousin counter')} becomes a Jaguar knight."),
    "army-destroyed": lambda e, w: f"{w.who(e.get('seat'))}'s army {e.get('army')} is destroyed; its general is killed.",
    "battle-over": lambda e, w: f"The battle in {w.place(e.get('at'))} is over: {_winner(e.get('winner'))}.",
    "pochteca-removed": lambda e, w: (f"{w.who(e.get('seat'))}'s pochteca {e.get('pochteca')} leaves "
                                      f"{w.place(e.get('territory'))}."),
    "captured": lambda e, w: f"{w.who(e.get('seat'))} captures {w.place(e.get('territory'))}.",
    "plundered": _plundered,
    "free-troops": lambda e, w: (f"{w.who(e.get('seat'))} receives free troops: general {e.get('army')} with 3 warriors "
                                 f"and 1 Jaguar knight in the capital."),
    "my-reorganise-dropped": lambda e, w: (f"Your reorganisation on the way ({e.get('order')}) was dropped: "
                                           "the counters it named had changed."),
    "my-spied": lambda e, w: (f"Quimichtin shows you {w.who(e.get('seat'))}'s {_box(e.get('army'))}: "
                              f"{counters(e.get('warriors', 0), e.get('jaguars', 0))}."),
    "catastrophe": lambda e, w: (f"A natural catastrophe strikes {w.place(e.get('region'))}: no Reserve, cousin or "
                                 "retreat passes there until the end of the turn."),
    # deals, with the options of 18.0
    "deal-offered": lambda e, w: _offer(e, w, "offers"),
    "deal-accepted": lambda e, w: _offer(e, w, "accepted", "'s offer"),
    "deal-declined": lambda e, w: _offer(e, w, "declined", "'s offer"),
    "deal-withdrawn": lambda e, w: _offer(e, w, "withdrawn", "'s offer"),
    "deal": lambda e, w: (f"{w.who(e.get('from'))} and {w.who(e.get('to'))} strike a deal: "
                          + "; ".join(f"{w.who(e.get(side))} gives {_dealt(e, i, w)}"
                                      for i, side in enumerate(("from", "to"))) + "."),
    "boats-lent": lambda e, w: (f"{w.who(e.get('lender'))} lets {w.who(e.get('borrower'))} use its boats on "
                                + joined([w.zone(z) for z in e.get("zones") or []] or ["no zone"]) + " this turn."),
    # phase 8: the judgement of the gods (15.0)
    "my-offer": lambda e, w: (f"You offered {plural(e.get('points', 0), 'Sacrifice point')} to Quetzalcoatl "
                              f"({e.get('urn', 0)} in his urn over the game)."),
    "urn-closed": lambda e, w: "Every offer to Quetzalcoatl is in his urn.",
    "tezcatlipoca": _tezcatlipoca,
    "anger-reshuffled": lambda e, w: "The Anger cards are all played: they are shuffled anew.",
    "verification": _verification,
    "game-over": _game_over,
}
EVENT_TYPES = frozenset(_SENTENCES)


def sentence(event: Mapping[str, Any], words: Words) -> str:
    kind = str(event.get("type", ""))
    handler = _SENTENCES.get(kind)
    if handler is None:
        return kind.replace("-", " ").capitalize() + "."
    return handler(event, words)


def is_news(event: Mapping[str, Any], seat: str) -> bool:
    """Private events never; the reader's own doings neither; everything else is news."""
    kind = str(event.get("type", ""))
    return not (kind.startswith("my-") or kind in PRIVATE or (kind in OWN and event.get("seat") == seat))
