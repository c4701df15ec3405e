"""Aztlán's reports: the sections of an age's report, of the final report and of a phase's
notice, as the JSON-able context templates/games/aztlan/reports/ reads (docs/reports.md).

pbem/reports/content.py replays the record to the moment and builds what every game's
report holds (kind, round, game, reader, next); the functions here add Aztlán's part from
the reader's view and the board's public geometry: the board, the revealed power cards, the
conflicts, the scoring with its domains, the score track, the reader's hand, and the end of
the game.
"""
from __future__ import annotations

import json
from functools import lru_cache
from typing import Any, Mapping

from engine.aztlan.cards import CARD_TITLES
from pbem.games.aztlan.drawing import TERRAIN_COLOURS, VIEW_PARTS, board_svg, pawn_colours
from pbem.games.reporting import Facts, round_events
from pbem.text import MAX_TITLE, clean_text

AGES = 5

TERRAIN_NAMES = {"desert": "Desert", "fields": "Terraced fields", "jungle": "Jungle",
                 "mountains": "Mountains", "city": "City", "wild": "Wild"}
# How many territories of a type: "1 jungle territory", "4 terraced fields".
TERRAIN_COUNT = {"desert": ("desert territory", "desert territories"), "fields": ("terraced field", "terraced fields"),
                 "jungle": ("jungle territory", "jungle territories"),
                 "mountains": ("mountain territory", "mountain territories"), "city": ("city", "cities")}
PEOPLE_NAMES = {"quetzal": "Quetzal", "coyote": "Coyote", "serpent": "Serpent", "ocelot": "Ocelot",
                "coyote-quetzal": "Coyote and Quetzal", "ocelot-serpent": "Ocelot and Serpent"}
_FALLBACK_COLOURS = {"quetzal": "#1b4aa6", "coyote": "#5cb84a", "serpent": "#d9402f",
                     "ocelot": "#f5cd1c", "coyote-quetzal": "#5cb84a", "ocelot-serpent": "#f5cd1c"}
_FALLBACK_TERRAIN = {"desert": "#f3e2b3", "fields": "#cfe39a", "jungle": "#7db86b",
                     "mountains": "#c9bdac", "city": "#e5a684"}
# Text drawn on a tribe's colour: white on the two dark ones.
_ON_COLOUR = {"quetzal": "#ffffff", "serpent": "#ffffff"}

CARD_USE = {
    "mixcoatl": ("scoring", "2 points for each jungle territory you hold"),
    "tepeyollotl": ("scoring", "2 points for each mountain territory you hold"),
    "xipe-totec": ("scoring", "2 points for each terraced field you hold"),
    "offering": ("end", "kept to the end: 1, 4, 9, 16, 25 points for 1 to 5 cards"),
    "sacred-games": ("conflict", "when a winner declares battle on you: your pawns stay, "
                                 "the winner coexists"),
    "rafts": ("scoring", "two of your territories on one lake's shore count as adjacent"),
    "tlatoani": ("conflict", "when you are tied for the most power: break the tie and win"),
    "eagle-jaguar": ("development", "place one extra pawn with a development turn"),
}
PHASE_NAMES = {"choosing": "choosing power cards", "development": "development",
               "conflict": "conflicts", "scoring": "scoring", "over": "the end of the game"}


# --- small pieces -----------------------------------------------------------------------

@lru_cache(maxsize=1)
def _colours() -> dict[str, str]:
    return {**_FALLBACK_COLOURS, **pawn_colours()}


def _people(people: str, colours: Mapping[str, str]) -> dict[str, str]:
    parts = people.split("-")
    return {"id": people, "label": PEOPLE_NAMES.get(people, people.title()),
            "colour": colours.get(people, "#8c8c8c"),
            "colours": [colours.get(p, "#8c8c8c") for p in parts] if len(parts) > 1 else
                       [colours.get(people, "#8c8c8c")],
            "ink": _ON_COLOUR.get(parts[0], "#1d1d1d")}


@lru_cache(maxsize=1)
def _terrain_colours() -> dict[str, str]:
    return {**_FALLBACK_TERRAIN, **TERRAIN_COLOURS}


def _territory(board: Any, ident: Any) -> dict[str, Any]:
    index = board.index_of.get(ident)
    if index is None:
        return {"id": ident, "name": f"territory {ident}", "type": "", "type_name": "", "colour": "#dddddd"}
    t = board.territories[index]
    return {"id": t.id, "name": t.name, "type": t.type, "type_name": TERRAIN_NAMES.get(t.type, t.type),
            "colour": _terrain_colours().get(t.type, "#dddddd")}


def _card(edition: Any, number: Any) -> dict[str, Any] | None:
    if number is None:
        return None
    try:
        card = edition.card(number)
    except KeyError:
        return {"number": number, "type": "", "type_name": "", "points": 0}
    return {"number": card.number, "type": card.type,
            "type_name": TERRAIN_NAMES.get(card.type, card.type), "points": card.points}


def _hand(cards: list[str]) -> list[dict[str, Any]]:
    counts: dict[str, int] = {}
    for card in cards:
        counts[card] = counts.get(card, 0) + 1
    out = []
    for card in sorted(counts, key=lambda c: (list(CARD_TITLES).index(c) if c in CARD_TITLES else 99, c)):
        when, text = CARD_USE.get(card, ("", ""))
        out.append({"id": card, "title": CARD_TITLES.get(card, card), "count": counts[card],
                    "when": when, "help": text})
    return out


def _count_of(kind: str, count: int) -> str:
    one, many = TERRAIN_COUNT.get(kind, (f"{kind} territory", f"{kind} territories"))
    return f"{count} {one if count == 1 else many}"


def _plural(count: int, word: str, plural: str | None = None) -> str:
    return f"{count} {word if count == 1 else (plural or word + 's')}"


class _Game:
    """The facts of one report (pbem/games/reporting.Facts) with Aztlán's board, edition and
    colours."""

    def __init__(self, state: Any, facts: Facts):
        self.state = state
        self.board = state.board
        self.edition = state.setup.edition
        self.colours = _colours()
        self.facts = facts
        self.names = facts.names

    def seat(self, seat: str, people: str | None = None) -> dict[str, Any]:
        people = people or seat
        name = self.names.get(seat, seat)
        label = PEOPLE_NAMES.get(people, people)
        return {"seat": seat, "name": name, "people": _people(people, self.colours),
                "who": name if name.casefold() == label.casefold() else f"{name} ({label})"}

    def header(self) -> dict[str, Any]:
        return {**self.facts.header(), "board": clean_text(self.board.title, MAX_TITLE),
                "edition": clean_text(self.edition.title, MAX_TITLE), "ages": AGES}


def _control(events: list[dict[str, Any]], seats: tuple[str, ...]) -> dict[str, str]:
    """seat -> the people it controls in this age (2 players: a faction)."""
    for event in events:
        if event["type"] == "age" and event.get("control"):
            return dict(zip(seats, event["control"]))
    return {seat: seat for seat in seats}


class _Same:
    """A key that stands for one object by identity (the state's board: not hashable by value)."""

    __slots__ = ("thing",)

    def __init__(self, thing: Any):
        self.thing = thing

    def __hash__(self) -> int:
        return id(self.thing)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Same) and other.thing is self.thing


@lru_cache(maxsize=8)  # every seat's report of a moment shows the same board: drawn once
def _drawn(board: _Same, public: str, highlight: tuple[int, ...], for_print: bool) -> str | None:
    try:
        return board_svg(board.thing, json.loads(public), highlight=highlight, title=board.thing.title,
                         id_prefix="rb", for_print=for_print)
    except ValueError:  # a board without geometry
        return None


def _board_svg(game: _Game, view: dict[str, Any], caption: str, highlight: list[int], *,
               for_print: bool = False) -> dict[str, Any]:
    """The board from the reader's view, as SVG (None if the board has no geometry), and with
    `for_print` its print version too (`print_svg`, for the PDF).  The drawing reads only the
    view's public parts, so it is drawn once for all the seats of a moment."""
    public = json.dumps({part: view.get(part) for part in VIEW_PARTS}, sort_keys=True)
    board, shown = _Same(game.board), tuple(highlight)
    picture = {"svg": _drawn(board, public, shown, False), "alt": f"The board after {caption}", "caption": caption}
    if for_print:
        picture["print_svg"] = _drawn(board, public, shown, True)
    return picture


# --- the sections ------------------------------------------------------------------------

def _conflicts(game: _Game, events: list[dict[str, Any]], control: Mapping[str, str],
               reader: str) -> tuple[list[dict[str, Any]], list[dict[str, Any]], list[str]]:
    """The age's conflicts with their outcomes, the prosperity cards played in public, and
    notes (deck reshuffled or empty).  Only public events and the reader's own draws."""
    seat_of_people = {people: seat for seat, people in control.items()}
    cards = {}
    for event in events:
        if event["type"] == "reveal":
            cards = event.get("cards", {})
    by_territory: dict[Any, dict[str, Any]] = {}
    order: list[Any] = []
    played: list[dict[str, Any]] = []
    notes: list[str] = []
    current: dict[str, Any] | None = None
    last_draw: dict[str, Any] | None = None

    def seat_ref(seat: str) -> dict[str, Any]:
        return game.seat(seat, control.get(seat, seat))

    def removed(event: dict[str, Any]) -> list[dict[str, Any]]:
        """Pawns removed, by people, with the player who controls that people this age."""
        return [{**_people(p, game.colours), "count": n,
                 "seat": seat_of_people.get(p), "name": game.names.get(seat_of_people.get(p), p)}
                for p, n in event.get("removed", {}).items()]

    for event in events:
        kind = event["type"]
        if kind == "conflicts":
            for item in event.get("territories", []):
                ident = item["territory"]
                powers = []
                for people, power in sorted(item["powers"].items(), key=lambda kv: -kv[1]):
                    seat = seat_of_people.get(people, people)
                    card = cards.get(seat)
                    pawns = power // card if isinstance(card, int) and card else None
                    powers.append({**game.seat(seat, people), "power": power, "card": card, "pawns": pawns})
                by_territory[ident] = {
                    "territory": _territory(game.board, ident), "powers": powers,
                    "winner": seat_ref(item["winner"]) if item.get("winner") else None,
                    "tied": [seat_ref(s) for s in item.get("tied", [])],
                    "outcome": "open", "tlatoani": None, "removed": [], "sacred_games": [],
                    "draws": [], "decided_by": None}
                order.append(ident)
        elif kind in ("tlatoani", "coexist", "battle", "battle-result", "tie"):
            conflict = by_territory.get(event.get("territory"))
            if conflict is None:
                continue
            current = conflict
            if kind == "tlatoani":
                conflict["tlatoani"] = seat_ref(event["seat"])
                conflict["winner"] = seat_ref(event["seat"])
                played.append({**seat_ref(event["seat"]), "card": "tlatoani", "title": CARD_TITLES["tlatoani"],
                                "where": _territory(game.board, event["territory"])})
            elif kind == "coexist":
                conflict["outcome"] = "coexist"
                conflict["decided_by"] = seat_ref(event["seat"])
            elif kind == "battle":
                conflict["outcome"] = "battle"
                conflict["decided_by"] = seat_ref(event["seat"])
            elif kind == "battle-result":
                conflict["outcome"] = "battle"
                conflict["removed"] = removed(event)
                conflict["sacred_games"] = [seat_ref(s) for s in event.get("sacred_games", [])]
                for seat in event.get("sacred_games", []):
                    played.append({**seat_ref(seat), "card": "sacred-games",
                                   "title": CARD_TITLES["sacred-games"],
                                   "where": _territory(game.board, event["territory"])})
            elif kind == "tie":
                conflict["outcome"] = "tie"
                conflict["tied"] = [seat_ref(s) for s in event.get("seats", [])]
                conflict["removed"] = removed(event)
        elif kind == "draw":
            last_draw = {**seat_ref(event["seat"]), "card": None, "title": None}
            if current is not None:
                current["draws"].append(last_draw)
        elif kind == "my-draw" and event.get("seat") == reader:
            if last_draw is not None and last_draw["seat"] == reader:
                last_draw["card"] = event.get("card")
                last_draw["title"] = CARD_TITLES.get(event.get("card"), event.get("card"))
        elif kind == "deck-empty":
            notes.append(f"The prosperity deck was empty: {seat_ref(event['seat'])['who']} "
                         "drew nothing.")
        elif kind == "reshuffle":
            count = event.get("cards", 0)
            notes.append(f"The prosperity deck ran out: {_plural(count, 'played card')} "
                         f"{'was' if count == 1 else 'were'} shuffled into a new deck.")
        elif kind == "turn" and event.get("eagle") is not None:
            played.append({**seat_ref(event["seat"]), "card": "eagle-jaguar",
                           "title": CARD_TITLES["eagle-jaguar"],
                           "where": _territory(game.board, event["eagle"])})
    counted: dict[str, int] = {}
    for note in notes:
        counted[note] = counted.get(note, 0) + 1
    notes = [note if n == 1 else f"{note} ({n} times)" for note, n in counted.items()]
    conflicts = []
    for ident in order:
        conflict = by_territory[ident]
        conflict["summary"] = _conflict_summary(conflict)
        conflict["detail"] = _conflict_detail(conflict)
        conflicts.append(conflict)
    return conflicts, played, notes


def _names(items: list[dict[str, Any]]) -> str:
    names = [item["who"] for item in items]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _conflict_summary(c: dict[str, Any]) -> str:
    """One sentence on how a conflict ended (player names are plain text: escaped later)."""
    removed = [f"{_plural(r['count'], 'pawn')} of {r['name']} ({r['label']})" for r in c["removed"]]
    gone = f"; removed: {', '.join(removed)}" if removed else ""
    if c["outcome"] == "tie":
        return f"Tie between {_names(c['tied'])}: they coexist, nobody draws{gone}."
    winner = c["winner"]
    lead = ""
    if c["tlatoani"]:
        lead = f"{c['tlatoani']['who']} broke the tie with the Great Tlatoani. "
    if c["outcome"] == "coexist":
        return f"{lead}{winner['who']} won and chose to coexist, drawing a prosperity card."
    if c["outcome"] == "battle":
        if c["sacred_games"]:
            return (f"{lead}{winner['who']} won and declared battle; {_names(c['sacred_games'])} "
                    f"answered with the Sacred Games and stayed, and {winner['who']} drew a card{gone}.")
        return f"{lead}{winner['who']} won and did battle{gone}."
    if c["tied"]:
        return (f"Tie between {_names(c['tied'])}: each may play the Great Tlatoani in its conflict "
                "turn, or let the tie stand.")
    if winner:
        return f"{winner['who']} has the most power and decides: battle or coexistence."
    return f"{lead}Not settled yet."


def _conflict_detail(c: dict[str, Any]) -> str:
    """The outcome in a few words, beside the outcome's name in a table."""
    parts = []
    if c["tlatoani"]:
        parts.append(f"{c['tlatoani']['name']} played the Great Tlatoani")
    if c["outcome"] == "coexist" and c["winner"]:
        parts.append(f"{c['winner']['name']} drew a card")
    elif c["outcome"] == "battle" and c["winner"]:
        parts.append(f"won by {c['winner']['name']}")
        if c["sacred_games"]:
            parts.append(f"{_short(c['sacred_games'])} stayed with the Sacred Games; "
                         f"{c['winner']['name']} drew a card")
    elif c["outcome"] == "tie":
        parts.append("nobody draws")
    elif c["outcome"] == "open":
        parts.append(f"tied: {_short(c['tied'])}" if c["tied"] else
                     f"{c['winner']['name']} decides" if c["winner"] else "not settled yet")
    if c["removed"]:
        parts.append("removed " + ", ".join(f"{_plural(r['count'], 'pawn')} of {r['name']}" for r in c["removed"]))
    text = "; ".join(parts)
    return text[:1].upper() + text[1:] if text else ""


def _short(items: list[dict[str, Any]]) -> str:
    names = [item["name"] for item in items]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _grouped_played(played: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Cards played, one line per player: [{seat..., "cards": [{"title", "count", "where"}]}]."""
    out: dict[str, dict[str, Any]] = {}
    for item in played:
        entry = out.setdefault(item["seat"], {k: item[k] for k in ("seat", "name", "people", "who")} | {"cards": []})
        where = item.get("where")
        for card in entry["cards"]:
            if card["card"] == item["card"] and where is None and card["where"] == []:
                card["count"] += 1
                break
        else:
            entry["cards"].append({"card": item["card"], "title": item["title"], "count": 1,
                                   "where": [] if where is None else [where]})
    return list(out.values())


def _domains(game: _Game, breakdown: dict[str, Any]) -> list[dict[str, Any]]:
    kind = breakdown["type"]
    out = []
    for domain in breakdown["domains"]:
        territories = [_territory(game.board, ident) for ident in domain["territories"]]
        for t in territories:
            t["matching"] = t["type"] == kind
        size, matching, points = domain["size"], domain["matching"], domain["points"]
        formula = f"{size} + {matching} × {matching} = {points}" if matching else f"no {TERRAIN_NAMES.get(kind, kind).lower()}: 0"
        out.append({"territories": territories, "size": size, "matching": matching, "points": points,
                    "formula": formula})
    out.sort(key=lambda d: (-d["points"], -d["size"]))
    return out


def _score_entry(game: _Game, seat: str, people: str, breakdown: dict[str, Any],
                 reader: str) -> dict[str, Any]:
    domains = _domains(game, breakdown)
    blessings = [{"card": b["card"], "title": CARD_TITLES.get(b["card"], b["card"]), "type": b["type"],
                  "type_name": TERRAIN_NAMES.get(b["type"], b["type"]), "points": b["points"],
                  "territories": b["points"] // 2,
                  "counted": _count_of(b["type"], b["points"] // 2)} for b in breakdown.get("blessings", [])]
    grouped: list[dict[str, Any]] = []
    for b in blessings:
        same = next((g for g in grouped if g["card"] == b["card"]), None)
        if same:
            same["count"] += 1
            same["total"] += b["points"]
        else:
            grouped.append({**b, "count": 1, "total": b["points"]})
    rafts = [{"a": _territory(game.board, a), "b": _territory(game.board, b)}
             for a, b in breakdown.get("rafts", [])]
    return {**game.seat(seat, people), "is_reader": seat == reader,
            "card": _card(game.edition, breakdown["card"]), "type": breakdown["type"],
            "type_name": TERRAIN_NAMES.get(breakdown["type"], breakdown["type"]),
            "wild": breakdown.get("wild", False), "domains": domains,
            "domain_points": sum(d["points"] for d in domains),
            "blessings": blessings, "blessings_grouped": grouped, "rafts": rafts,
            "points": breakdown["points"],
            "total": breakdown["total"]}


def _track(game: _Game, view: dict[str, Any], gained: Mapping[str, int], reader: str,
           control: Mapping[str, str]) -> list[dict[str, Any]]:
    """Scores as on the track: one entry per occupied score, its stack top first."""
    score_of = {s["seat"]: s["score"] for s in view["seats"]}
    stacks: list[dict[str, Any]] = []
    for place, seat in enumerate(view["track"], start=1):
        entry = {**game.seat(seat, control.get(seat, seat)), "is_reader": seat == reader,
                 "gained": gained.get(seat, 0), "place": place}
        if stacks and stacks[-1]["score"] == score_of[seat]:
            stacks[-1]["stack"].append(entry)
        else:
            stacks.append({"score": score_of[seat], "stack": [entry]})
    return stacks


def _expected(game: _Game, view: dict[str, Any], reader: str, deadline: dict[str, str] | None
              ) -> dict[str, Any]:
    """What the game waits for now, and what the reader must do (from the view only)."""
    me = view.get("me", {})
    mine = me.get("decisions", [])
    waiting = [d["seat"] for d in view.get("decisions", [])]
    phase = view["phase"]
    out: dict[str, Any] = {"phase": phase, "phase_name": PHASE_NAMES.get(phase, phase), "age": view["age"],
                           # A deadline binds only a seat that owes a decision.
                           "deadline": deadline if mine else None, "yours": bool(mine), "orders": [],
                           "text": "", "cards": [],
                           "waiting_for": [game.seat(s) for s in waiting if s != reader]}
    if phase == "over":
        out["text"] = "The game is over. Thank you for playing."
        return out
    if not mine:
        names = _names(out["waiting_for"]) if out["waiting_for"] else "the other players"
        out["text"] = f"Nothing for you to do now: the game waits for {names}."
        return out
    decision = mine[0]
    options = decision.get("options", {})
    kind = decision["kind"]
    if kind == "power":
        cards = [_card(game.edition, n) for n in options.get("cards", [])]
        out["text"] = f"Choose your power card for age {view['age']}, in secret."
        out["cards"] = cards
        out["orders"] = [f"card {cards[-1]['number']}"] if cards else []
    elif kind == "turn":
        out["text"] = (f"It is your development turn: place a pawn "
                       f"({_plural(options.get('pawns_left', 0), 'pawn')} left to place), "
                       "then, if you wish, move one of your pawns to an adjacent territory.")
        out["orders"] = _turn_examples(game.board, options)
    elif kind == "conflict":
        won = [_territory(game.board, t) for t in options.get("won", [])]
        tied = [_territory(game.board, t) for t in options.get("tied", [])]
        parts = []
        if won:
            parts.append("you won " + ", ".join(f"{t['id']} {t['name']}" for t in won) +
                         ": battle or coexist")
        if tied:
            parts.append("you are tied in " + ", ".join(f"{t['id']} {t['name']}" for t in tied) +
                         (": play the Great Tlatoani or let the tie stand" if options.get("tlatoani")
                          else ": let the tie stand"))
        out["text"] = "It is your conflict turn: " + "; ".join(parts) + "."
        out["orders"] = []
        if won:
            out["orders"] += [f"battle {won[0]['id']}", f"coexist {won[0]['id']}"]
        if tied:
            out["orders"] += ([f"tlatoani {tied[0]['id']} battle"] if options.get("tlatoani") else []) + \
                             [f"tie {tied[0]['id']}"]
    elif kind == "reaction":
        t = _territory(game.board, options.get("territory"))
        out["text"] = (f"A battle was declared against you in {t['id']} {t['name']}: "
                       "answer with the Sacred Games, or accept.")
        out["orders"] = ([f"sacred {t['id']}"] if options.get("sacred_games") else []) + [f"accept {t['id']}"]
    elif kind == "scoring":
        out["text"] = f"Score age {view['age']}: play any Blessings or Rafts and Canoes you want to use."
        out["orders"] = ["score"]
        for god in options.get("blessings", []):
            out["orders"].append(f"score blessing {god}")
        pairs = options.get("rafts_pairs") or []
        if options.get("rafts") and pairs:
            out["orders"].append(f"score rafts {pairs[0][0]} and {pairs[0][1]}")
        if options.get("wild"):
            out["text"] += " Your power card is wild: name the territory type it counts as."
            out["orders"].append("score wild jungle")
    return out


def _turn_examples(board: Any, options: Mapping[str, Any]) -> list[str]:
    """Development turns the reader may send now, from its legal options: a pawn placed
    where it already has pawns (else anywhere), then moved on to a neighbour; and Eagle and
    Jaguar on the same territory, allowed under every eagle_placement option."""
    places = options.get("place") or []
    if not places:
        return []
    here = next((t for t in options.get("move_from") or [] if t in places), places[0])
    orders = [f"place {here}"]
    index = board.index_of.get(here)
    neighbours = board.territories[index].neighbours if index is not None else ()
    if neighbours:  # the pawn just placed can always move on
        orders.append(f"place {here} move {here} to {neighbours[0]}")
    if options.get("eagle"):
        orders.append(f"place {here} eagle {here}")
    return orders


def _final(game: _Game, view: dict[str, Any], reader: str) -> dict[str, Any]:
    result = view["result"]
    bonuses = []
    for seat in result["ranking"]:
        bonus = result["bonuses"][seat]
        bonuses.append({**game.seat(seat), "is_reader": seat == reader,
                        "unused_power_cards": [_card(game.edition, n) for n in bonus["unused_power_cards"]],
                        "unused_power": bonus["unused_power"], "prosperity": bonus["prosperity"],
                        "offerings": bonus["offerings"], "offering_cards": bonus["offering_cards"],
                        "hand": _hand(bonus["hand"]), "points": bonus["points"],
                        "before": bonus["total"] - bonus["points"], "total": bonus["total"]})
    scores = result["scores"]
    ranking = []
    place = 0
    for i, seat in enumerate(result["ranking"]):
        tied = [s for s in result["ranking"] if s != seat and scores[s] == scores[seat]]
        if i == 0 or scores[seat] != scores[result["ranking"][i - 1]]:
            place = i + 1
        ranking.append({**game.seat(seat), "is_reader": seat == reader, "rank": i + 1,
                        "score": scores[seat], "tied_with": [game.seat(s) for s in tied],
                        "shared_score": bool(tied), "score_place": place})
    rule = result.get("tiebreak", "below")
    rule_text = ("the counter below the others on the same score wins" if rule == "below"
                 else "the counter on top of the others on the same score wins")
    tiebreaks = []
    seen: set[int] = set()
    for entry in ranking:
        if entry["shared_score"] and entry["score"] not in seen:
            seen.add(entry["score"])
            group = [e for e in ranking if e["score"] == entry["score"]]
            tiebreaks.append({"score": entry["score"], "order": [{"seat": e["seat"], "name": e["name"],
                                                                  "people": e["people"]} for e in group],
                              "text": f"{_names(group)} finished on {entry['score']} points: "
                                      f"{rule_text}, so they rank in this order."})
    mine = next(e for e in ranking if e["seat"] == reader)
    return {"winner": game.seat(result["winner"]), "reader_won": result["winner"] == reader,
            "reader_rank": mine["rank"], "reader_score": mine["score"], "bonuses": bonuses, "ranking": ranking,
            "tiebreak_rule": rule, "tiebreak_text": rule_text, "tiebreaks": tiebreaks}


# --- the reports -------------------------------------------------------------------------

def next_step(state: Any, view: dict[str, Any], seat: str, facts: Facts) -> dict[str, Any]:
    """What the game waits for now and what the reader must do, with example orders."""
    return _expected(_Game(state, facts), view, seat, facts.deadline)


def report_context(state: Any, view: dict[str, Any], context: dict[str, Any], facts: Facts) -> dict[str, Any]:
    """The report of the age `context["round"]` for its reader, from the game just after
    that age's scoring (the final report when the game is over)."""
    seat, age = context["reader"]["seat"], context["round"]
    game = _Game(state, facts)
    events, truncated = round_events(view, age, facts.shown)
    control = _control(events, state.seats)
    breakdowns = view["age_scores"][age - 1]
    scores = [_score_entry(game, s, control.get(s, s), b, seat) for s, b in breakdowns.items()]
    gained = {s: b["points"] for s, b in breakdowns.items()}
    conflicts, played, notes = _conflicts(game, events, control, seat)
    for entry in scores:  # Blessings and Rafts are played in the scoring phase, in public
        for blessing in entry["blessings"]:
            played.append({**game.seat(entry["seat"], entry["people"]["id"]), "card": blessing["card"],
                           "title": blessing["title"], "where": None})
        for _ in entry["rafts"]:
            played.append({**game.seat(entry["seat"], entry["people"]["id"]), "card": "rafts",
                           "title": CARD_TITLES["rafts"], "where": None})
    reveal = next((e["cards"] for e in events if e["type"] == "reveal"), {})
    cards = [{**game.seat(s, control.get(s, s)), "is_reader": s == seat, "card": _card(game.edition, reveal.get(s)),
              "wild_type": breakdowns.get(s, {}).get("type") if breakdowns.get(s, {}).get("wild") else None,
              "wild_type_name": TERRAIN_NAMES.get(breakdowns.get(s, {}).get("type"), "")
              if breakdowns.get(s, {}).get("wild") else None}
             for s in state.seats]
    my_draws = [{"card": e["card"], "title": CARD_TITLES.get(e["card"], e["card"])}
                for e in events if e["type"] == "my-draw" and e.get("seat") == seat]
    my_scoring = next((e["order"] for e in events if e["type"] == "my-scoring"), None)
    over = view["phase"] == "over"
    me_entry = next(e for e in scores if e["seat"] == seat)
    if over:  # the track holds the final scores: add the end-of-game bonuses to the gains
        gained = {s: g + view["result"]["bonuses"][s]["points"] for s, g in gained.items()}
    track = _track(game, view, gained, seat, control)
    place = next(entry["place"] for stack in track for entry in stack["stack"] if entry["seat"] == seat)
    me = view["me"]
    return {
        **context,
        "age": age,
        "game": game.header(),
        "reader": {**game.seat(seat, control.get(seat, seat)), "points": me_entry["points"],
                   "total": me_entry["total"], "place": place},
        "board": _board_svg(game, view, "the conflicts of age %d" % age, [], for_print=True),
        "cards": cards,
        "conflicts": conflicts,
        "played": played,
        "played_by_seat": _grouped_played(played),
        "notes": notes + (["Some events of this age are not listed."] if truncated else []),
        "scores": sorted(scores, key=lambda e: (not e["is_reader"], -e["total"])),
        "track": track,
        "turn_order": [] if over else [{**game.seat(s), "is_reader": s == seat} for s in view["turn_order"]],
        "hand": _hand(me["hand"]),
        "hand_size": len(me["hand"]),
        "my_draws": my_draws,
        "my_scoring": my_scoring,
        "power_left": [_card(game.edition, n) for n in me["power_left"]],
        "hand_sizes": [{**game.seat(s["seat"]), "hand_size": s["hand_size"], "is_reader": s["seat"] == seat}
                       for s in view["seats"]],
        "final": _final(game, view, seat) if over else None,
    }


def notice_context(state: Any, view: dict[str, Any], context: dict[str, Any], facts: Facts) -> dict[str, Any]:
    """A short notice (no PDF) after the choosing, development or conflict phase of an age.

    After choosing: the cards are chosen, development begins (turn order, whose turn).
    After development: the power cards are revealed, the conflicts and their powers.
    After conflict: the conflicts' outcomes; scoring comes next.  When the conflicts end
    with nothing to decide in scoring, the age's report follows at once and the service
    sends that instead.
    """
    seat, age, after = context["reader"]["seat"], context["round"], context["phase"]
    game = _Game(state, facts)
    events, truncated = round_events(view, age, facts.shown)
    control = _control(events, state.seats)
    me = view["me"]
    context = {
        **context, "notice": after, "age": age, "game": game.header(),
        "reader": game.seat(seat, control.get(seat, seat)),
        "hand": _hand(me["hand"]), "hand_size": len(me["hand"]),
        "notes": ["Some events of this age are not listed."] if truncated else [],
        "board": None, "cards": [], "conflicts": [], "played": [], "played_by_seat": [], "turn_order": [],
    }
    # The reader's own card is known to the reader from the start of the age.
    my_card = next((e["card"] for e in events if e["type"] == "my-card" and e.get("seat") == seat), None)
    context["my_card"] = _card(game.edition, my_card)
    turn_order = next((e["order"] for e in events if e["type"] == "turn-order"), [])
    context["turn_order"] = [{**game.seat(s, control.get(s, s)), "is_reader": s == seat} for s in turn_order]
    if after == "choosing":
        context["headline"] = f"Age {age}: every power card is chosen; development begins"
        context["pawns"] = [{**_people(p["people"], game.colours), "to_place": p["to_place"]}
                            for p in view["peoples"]]
    else:
        reveal = next((e["cards"] for e in events if e["type"] == "reveal"), {})
        context["cards"] = [{**game.seat(s, control.get(s, s)), "is_reader": s == seat,
                             "card": _card(game.edition, reveal.get(s))} for s in state.seats]
        conflicts, played, notes = _conflicts(game, events, control, seat)
        context["conflicts"] = conflicts
        context["played"] = played
        context["played_by_seat"] = _grouped_played(played)
        context["notes"] += notes
        context["my_draws"] = [{"card": e["card"], "title": CARD_TITLES.get(e["card"], e["card"])}
                               for e in events if e["type"] == "my-draw" and e.get("seat") == seat]
        if after == "development":
            context["headline"] = (f"Age {age}: the power cards are revealed — "
                                   f"{_plural(len(conflicts), 'conflict')}")
            disputed = [c["territory"]["id"] for c in conflicts]  # outlined, as the caption says
            context["board"] = _board_svg(game, view, f"the development of age {age}", disputed)
        else:
            context["headline"] = f"Age {age}: the conflicts are settled"
            context["board"] = _board_svg(game, view, f"the conflicts of age {age}", [])
    return context
