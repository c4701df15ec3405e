"""The plain report and notice, for a game whose presentation has no sections of its own
(pbem/games: `Presentation.report_context` and `notice_context` fall back to these).

A report: the round's scores (`state.scores_by_round()`, public once scored), the reader's
event lines of the round (`Presentation.sentences` of the view's events), the board picture
if the presentation draws one, and at the end the result (ranking, scores, places, and where
each seat's points came from: the result's breakdown).  A notice: the events of the round so
far and what the game waits for.  Templates: templates/reports/round.html and notice.html,
each with its .txt twin.
"""
from __future__ import annotations

from typing import Any, Mapping

from engine.core import State
from pbem.games import Presentation, plain_facts
from pbem.games.reporting import Facts, round_events, round_scores

OMITTED = "Some events of this {round} are not listed."


def report(shown: Presentation, state: State, view: Mapping[str, Any], context: dict[str, Any],
           facts: Facts) -> dict[str, Any]:
    number, seat = context["round"], context["reader"]["seat"]
    title = shown.round_title(number)
    return {**context, **_events(shown, state, view, number, facts), "round_title": title,
            "board": _board(shown, state, view, f"{title.lower()}'s scoring"),
            "scores": _scores(round_scores(state, number), seat, facts),
            "final": _final(state, seat, facts) if state.is_over() else None}


def notice(shown: Presentation, state: State, view: Mapping[str, Any], context: dict[str, Any],
           facts: Facts) -> dict[str, Any]:
    number, phase = context["round"], context["phase"]
    title = shown.round_title(number)
    return {**context, **_events(shown, state, view, number, facts), "round_title": title,
            "headline": f"{title}: the {phase} phase is over",
            "board": _board(shown, state, view, f"the {phase} phase of {title.lower()}")}


def _events(shown: Presentation, state: State, view: Mapping[str, Any], number: int,
            facts: Facts) -> dict[str, Any]:
    events, cut = round_events(view, number, shown)
    return {"events": shown.sentences(events, facts.names, state),
            "notes": [OMITTED.format(round=facts.game.round_name)] if cut else []}


def _board(shown: Presentation, state: State, view: Mapping[str, Any], caption: str) -> dict[str, Any] | None:
    """The board from the reader's view, if the game draws one."""
    svg = shown.board_svg(state, view, id_prefix="rb")
    return {"svg": svg, "alt": f"The board after {caption}", "caption": caption} if svg else None


def _plain(value: Any) -> bool:
    return isinstance(value, (str, int)) and not isinstance(value, bool)


# The columns of a round's scores; every other fact of a seat's scoring is listed beside them.
COLUMNS = frozenset({"points", "total"})


def _scores(scored: Mapping[str, Any], reader: str, facts: Facts) -> list[dict[str, Any]]:
    """Each seat's scoring of the round: points, total, and every other fact beside them."""
    rows = []
    for seat, detail in scored.items():
        detail = detail if isinstance(detail, Mapping) else {"points": detail}
        rows.append({**facts.seat(seat), "is_reader": seat == reader,
                     "points": detail.get("points") if _plain(detail.get("points")) else None,
                     "total": detail.get("total") if _plain(detail.get("total")) else None,
                     "facts": [f"{label} {text}" for label, text in plain_facts(detail, COLUMNS)]})
    return rows


def _final(state: State, reader: str, facts: Facts) -> dict[str, Any]:
    """The end of the game: the ranking, best first, with scores and places (a place seats
    share says so)."""
    result = state.result()
    places = result.places
    ranking = [{**facts.seat(seat), "is_reader": seat == reader, "place": places[seat],
                "score": result.scores[seat], "shared": list(places.values()).count(places[seat]) > 1,
                "breakdown": _breakdown(result.breakdown.get(seat), result.breakdown_key)}
               for seat in result.ranking]
    return {"winner": facts.seat(result.winner) if result.winner else None, "reader_won": result.winner == reader,
            "reader_place": places[reader], "reader_score": result.scores[reader], "ranking": ranking,
            "tie_break": result.tie_break}


def _breakdown(detail: Any, key: str) -> list[str]:
    """Where a seat's final points came from, fact by fact (the result's breakdown, public)."""
    shown = detail if isinstance(detail, Mapping) else {key: detail}
    return [f"{label} {text}" for label, text in plain_facts(shown)]
