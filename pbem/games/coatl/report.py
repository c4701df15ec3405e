"""Cóatl's reports: the sections of a round's report, of the final report and of a notice, as
the JSON-able context templates/games/coatl/reports/ reads (docs/reports.md).

A round is reported when a cóatl was completed in it (engine/coatl/state.py; docs/rules-coatl.md,
"Reports by mail").  pbem/reports/content.py replays the record to that moment and builds
what every game's report holds (kind, round, game, reader, next); this module adds Cóatl's
part from public facts (the round's scoring, the seats' boards and cóatls, the result) and
the reader's own view (its hand and temples): nothing of another seat's hand, secret temple
or draws is in a view, so none can be in a report.
"""
from __future__ import annotations

from typing import Any, Mapping

from engine.core import State
from pbem.games.coatl.cards import coatl_letters, prophecies, prophecy_words, temple_words, temples
from pbem.games.coatl.scored_drawing import coatls_svg
from pbem.games.reporting import Facts, joined, round_events, round_scores

OMITTED = "Some events of this round are not listed."
TIE_BREAK = ("equal scores are ordered by the prophecy and temple cards beside completed cóatls, "
             "then by the best single cóatl")


def _plural(count: int, one: str, many: str) -> str:
    return f"{count} {one if count == 1 else many}"


def _seats(view: Mapping[str, Any]) -> dict[str, Mapping[str, Any]]:
    return {str(seat["seat"]): seat for seat in view.get("seats") or []}


def _cards(scored: Mapping[str, Any], options: Mapping[str, Any]) -> list[dict[str, Any]]:
    """A scored cóatl's cards, each with its points: the prophecies, then the temple (its points
    are the cóatl's less the prophecies')."""
    cards = []
    for number, points in (scored.get("prophecies") or {}).items():
        found = prophecies().get(int(number))
        cards.append({"kind": "prophecy", "number": int(number), "title": found.title if found else "",
                      "words": prophecy_words(int(number), options), "points": points})
    if scored.get("temple") is not None:
        found = temples().get(scored["temple"])
        cards.append({"kind": "temple", "number": scored["temple"], "title": found.title if found else "",
                      "words": temple_words(scored["temple"]),
                      "points": scored["points"] - sum(card["points"] for card in cards)})
    return cards


def _coatl(seat: Mapping[str, Any], number: int, scored: Mapping[str, Any],
           options: Mapping[str, Any]) -> dict[str, Any]:
    """One completed cóatl of a seat, card by card, with its pieces as the view shows them."""
    pieces = list((seat.get("coatls") or [])[number - 1].get("pieces") or [])
    cards = _cards(scored, options)
    line = " · ".join(f"{card['kind']} {card['number']}: {card['points']}" for card in cards)
    return {"number": number, "pieces": pieces, "letters": coatl_letters(pieces), "cards": cards,
            "points": scored["points"], "line": f"{line} · {_plural(scored['points'], 'point', 'points')}"}


def _completed(seat: Mapping[str, Any]) -> list[int]:
    """The numbers of a seat's completed cóatls, in order (as the result's breakdown lists them)."""
    return [n for n, coatl in enumerate(seat.get("coatls") or [], start=1) if coatl.get("complete")]


def _picture(groups: list[dict[str, Any]], caption: str) -> dict[str, Any] | None:
    shown = [group for group in groups if group["coatls"]]
    if not shown:
        return None
    alt = f"The cóatls {caption}, with each card's points"
    return {"svg": coatls_svg(shown, label=alt), "alt": alt, "caption": caption}


def _places(totals: Mapping[str, int]) -> dict[str, int]:
    """Each seat's place by its total so far (equal totals share a place)."""
    return {seat: 1 + sum(other > total for other in totals.values()) for seat, total in totals.items()}


def _standings(facts: Facts, view: Mapping[str, Any], gained: Mapping[str, int],
               reader: str) -> list[dict[str, Any]]:
    """Every seat's running total, best first: points this round, cóatls completed, hand size
    (public), unused tokens."""
    seats = _seats(view)
    totals = {seat: int(part.get("points") or 0) for seat, part in seats.items()}
    places = _places(totals)
    rows = [{**facts.seat(seat), "is_reader": seat == reader, "place": places[seat], "total": totals[seat],
             "points": gained.get(seat, 0), "completed": len(_completed(part)),
             "unfinished": sum(not c.get("complete") for c in part.get("coatls") or []),
             "hand_size": part.get("hand_size", 0), "tokens": list(part.get("tokens") or [])}
            for seat, part in seats.items()]
    return sorted(rows, key=lambda row: (row["place"], facts.seats.index(row["seat"])))


def _hand(view: Mapping[str, Any]) -> dict[str, Any]:
    """The reader's own prophecies and temples (secret to everyone else), in words."""
    me = view.get("me") or {}
    options = view.get("options") or {}
    committed = next((set(s.get("committed") or []) for s in view.get("seats") or [] if s.get("seat") == me.get("seat")),
                     set())
    return {"prophecies": [{"number": card, "words": prophecy_words(card, options)} for card in me.get("hand") or []],
            "temples": [{"number": card, "words": temple_words(card), "committed": card in committed}
                        for card in me.get("temples") or []]}


def _events(state: State, view: Mapping[str, Any], number: int, facts: Facts) -> dict[str, Any]:
    events, cut = round_events(view, number, facts.shown)
    return {"events": facts.shown.sentences(events, facts.names, state), "notes": [OMITTED] if cut else []}


def _tie_breaks(ranking: list[dict[str, Any]]) -> list[str]:
    """For each score several seats share: how the tie-break ordered them, or that it could not."""
    texts = []
    for score in sorted({row["score"] for row in ranking}, reverse=True):
        group = [row for row in ranking if row["score"] == score]
        if len(group) < 2:
            continue
        facts = "; ".join(f"{row['name']} {_plural(row['cards'], 'card', 'cards')}, best cóatl {row['best']}"
                          for row in group)
        shared = len({row["place"] for row in group}) < len(group)
        outcome = ("equal on both too, they share a place" if len({row["place"] for row in group}) == 1
                   else "some are equal on both too and share a place" if shared else "so they rank in this order")
        texts.append(f"{joined([row['name'] for row in group])} finished on {score} points "
                     f"({facts}): {outcome}.")
    return texts


def _final(state: State, facts: Facts, view: Mapping[str, Any], reader: str) -> dict[str, Any]:
    """The end of the game: the ranking with its tie-breaks, and every seat's every completed
    cóatl scored card by card (the result's breakdown, public)."""
    result = state.result()
    seats, options = _seats(view), view.get("options") or {}
    ranking = []
    for seat in result.ranking:
        detail = result.breakdown[seat]
        numbers = _completed(seats[seat])
        coatls = [_coatl(seats[seat], n, scored, options) for n, scored in zip(numbers, detail["coatls"])]
        place = result.places[seat]
        ranking.append({**facts.seat(seat), "is_reader": seat == reader, "place": place,
                        "shared": list(result.places.values()).count(place) > 1, "score": result.scores[seat],
                        "cards": detail["cards"], "best": detail["best"], "unfinished": detail["unfinished"],
                        "coatls": coatls})
    return {"winner": facts.seat(result.winner) if result.winner else None, "reader_won": result.winner == reader,
            "reader_place": result.places[reader], "reader_score": result.scores[reader], "ranking": ranking,
            "tie_break": result.tie_break, "tie_break_text": TIE_BREAK, "tie_breaks": _tie_breaks(ranking)}


# --- the reports -------------------------------------------------------------------------

def report_context(state: State, view: Mapping[str, Any], context: dict[str, Any], facts: Facts) -> dict[str, Any]:
    """The report of round `context["round"]`, just scored, for its reader: who completed which
    cóatl, card by card, the running totals, the reader's hand; the final report adds the
    ranking and every cóatl of the game."""
    reader, number = context["reader"]["seat"], context["round"]
    scoring, seats, options = round_scores(state, number), _seats(view), view.get("options") or {}
    over = state.is_over()
    scored = [{**facts.seat(seat), "is_reader": seat == reader, "points": part["points"],
               "coatls": [_coatl(seats[seat], c["coatl"], c, options) for c in part["coatls"]]}
              for seat, part in scoring.items()]
    news = [group for group in scored if group["coatls"]]
    final = _final(state, facts, view, reader) if over else None
    if final is not None:
        picture = _picture([{"who": row["who"], "coatls": row["coatls"]} for row in final["ranking"]],
                           "of every player at the end of the game")
    else:
        picture = _picture(news, f"completed in round {number}")
    standings = _standings(facts, view, {seat: part["points"] for seat, part in scoring.items()}, reader)
    me = next(row for row in standings if row["is_reader"])
    return {**context, **_events(state, view, number, facts),
            "round_title": facts.shown.round_title(number),
            "headline": _headline(news, number, over),
            "me": {"points": me["points"], "total": me["total"], "place": me["place"]},
            "scored": news, "board": picture, "standings": standings,
            "hand": None if over else _hand(view), "final": final}


def _headline(news: list[dict[str, Any]], number: int, over: bool) -> str:
    """"Round 7: Ana completed a cóatl and you completed 2"; the final report's."""
    if over:
        return "The final report"
    done = [f"{'you' if group['is_reader'] else group['name']} completed "
            + ("a cóatl" if len(group["coatls"]) == 1 else f"{len(group['coatls'])} cóatls") for group in news]
    return f"Round {number}: {joined(done)}"


def notice_context(state: State, view: Mapping[str, Any], context: dict[str, Any], facts: Facts) -> dict[str, Any]:
    """A short notice (no PDF) after setup (every hand is kept: play begins) or after play (the
    end is triggered: the final turns follow): what happened, the reader's hand, what next."""
    number, phase, reader = context["round"], context["phase"], context["reader"]["seat"]
    trigger = view.get("trigger") or {}
    if phase == "setup":
        headline = "Every hand is kept: the game begins"
    elif trigger.get("by") == "coatl":
        headline = f"{facts.seat(trigger['seat'])['name']} completed a third cóatl: the final turns begin"
    elif trigger.get("by") == "bodies":
        headline = "The body segments are gone: the final turns begin"
    else:
        headline = f"Round {number}: the {phase} phase is over"
    turns = [(seat, actions) for seat, actions in view.get("final_turns") or []]
    if view.get("turn") and phase != "setup":  # the seat playing now has its final turn too
        turns.insert(0, (view["turn"], view.get("actions_left", 1)))
    final_turns = [{**facts.seat(seat), "is_reader": seat == reader, "actions": actions} for seat, actions in turns]
    return {**context, **_events(state, view, number, facts), "round_title": facts.shown.round_title(number),
            "headline": headline, "final_turns": final_turns, "hand": _hand(view),
            "board": _board(state, view, facts, "setup" if phase == "setup" else "the last turn of play")}


def _board(state: State, view: Mapping[str, Any], facts: Facts, caption: str) -> dict[str, Any] | None:
    """The position as the reader sees it (the presentation's board picture)."""
    svg = facts.shown.board_svg(state, view, id_prefix="rb")
    return {"svg": svg, "alt": f"The board after {caption}", "caption": caption} if svg else None


def next_step(state: State, view: Mapping[str, Any], expected: dict[str, Any], facts: Facts) -> dict[str, Any]:
    """What the game waits for, with an example order from the reader's own options."""
    owed = (view.get("me") or {}).get("decisions") or []
    order = facts.shown.first_order(owed[0]) if expected.get("yours") and owed else None
    return {**expected, "orders": [order] if order else []}
