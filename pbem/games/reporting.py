"""What a presentation's report sections build on (pbem/reports/content.py builds every
report and hands these to the presentation): the reader's facts, a round's scores and
events, and words joined as in a sentence.  Below the reports, so a game's package may use
them without importing the reports."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping, Sequence

from engine.core import Game, State
from pbem.games import Presentation

MAX_EVENTS_PER_ROUND = 2000  # events listed in one report; a note says when some are left out


def round_scores(state: State, number: int) -> Mapping[str, Any]:
    """Round `number`'s scoring per seat (public once the round is scored)."""
    scored = [m.round for m in state.milestones() if m.scored]
    return state.scores_by_round()[scored.index(number)]


def round_events(view: Mapping[str, Any], number: int,
                 shown: Presentation) -> tuple[list[dict[str, Any]], bool]:
    """The view's events of round `number`, at most MAX_EVENTS_PER_ROUND, and whether some
    were left out."""
    events = [e for e in view.get("events", []) if shown.event_round(e) == number]
    if len(events) > MAX_EVENTS_PER_ROUND:
        return events[:MAX_EVENTS_PER_ROUND], True
    return events, False


def joined(words: Sequence[str]) -> str:
    """"A", "A and B", "A, B and C"."""
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


# --- the reader's facts ---------------------------------------------------------------------

@dataclass(frozen=True)
class Facts:
    """What a report says beside the game itself, cleaned and capped: the game's title,
    each seat's display name, links, and the next deadline in the reader's zone."""

    game: Game
    shown: Presentation
    seats: tuple[str, ...]
    title: str
    names: dict[str, str]
    links: dict[str, str | None]
    deadline: dict[str, str] | None

    def seat(self, seat: str) -> dict[str, Any]:
        """A seat as reports show it: its player's name, and "who" (the name with the
        seat's title when they differ)."""
        name, title = self.names.get(seat, seat), self.shown.seat_title(seat)
        return {"seat": seat, "name": name,
                "who": name if name.casefold() == title.casefold() else f"{name} ({title})"}

    def header(self) -> dict[str, Any]:
        return {"name": self.game.name, "game": self.game.title, "title": self.title,
                "round_name": self.game.round_name, "players": len(self.seats), "links": self.links}
