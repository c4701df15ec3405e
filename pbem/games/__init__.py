"""How the service shows a game: one presentation per game, found by the game's name.

A game is two packages: its rules (engine/<game>, registered in the `pbem.games` entry-point
group) and its presentation (registered in `pbem.presentations` under the same name):
event sentences, the board picture, mail BOARD/HAND/HELP text and what a turn mail shows,
web decision forms, report sections and templates, checks for orders queued ahead, the rules
page for players.  Every part has a plain fallback
in `Presentation` itself, so a game that registers no presentation, or leaves a part out
(no board picture, say), still works on every page, mail and report.

The service asks `presentation(name)` and never names a game (docs/engine.md).
"""
from __future__ import annotations

from functools import cache
from importlib.metadata import entry_points
from pathlib import Path
from typing import Any, Mapping, Sequence

import jinja2

from engine import get_game
from engine.core import Option, OrderError, State

GROUP = "pbem.presentations"


class Presentation:
    """The plain presentation every game gets; a game's own package subclasses it and
    overrides what it has.  `state` arguments are the engine state at the moment shown,
    `view` is the reader's view of it (`state.view(seat)`): whatever is drawn for a reader
    comes from the view, the state only gives public setup facts (the board's geometry)."""

    game: str = ""
    # This game's own templates, found under "games/<game>/"; None: the plain ones only.
    templates: Path | None = None
    # The web's decision forms (a template that includes one form per decision); the plain
    # one is a text box per decision with the kind's syntax.
    decisions_template: str = "game/_decisions_plain.html"
    # The part of the game page that shows the position; the plain one lists the view's
    # public facts and the board picture if there is one.
    position_template: str = "game/_position_plain.html"
    # The decision kind whose orders a seat may queue ahead (None: no queue).
    queued_kind: str | None = None
    # Reports (pbem/reports): the template of a round's report (the final report too) and
    # of a phase's notice, each with a plain-text twin of the same name ending in .txt.
    # The plain ones show the round's scores, the reader's event lines and the result.
    report_template: str = "round.html"
    notice_template: str = "notice.html"
    # Whether the report template (a round's, not the final one) lays out its PDF in two parts
    # (`part`: "private", "public"; pbem/reports/render.py): the public pages are the same for
    # every seat of a moment, so they are laid out once and put into each seat's PDF.
    report_public_pages: bool = False
    # The game's rules page for players (/rules/<game>): a template extending
    # "rules/layout.html" with the game's own summary in its `summary` block.  The plain one
    # tells what the engine says: players, rounds and phases, decisions and options.
    rules_template: str = "rules/plain.html"

    def __init__(self, game: str = "") -> None:
        if game:
            self.game = game

    # --- words -------------------------------------------------------------------------

    def sentence(self, event: Mapping[str, Any], names: Mapping[str, str], state: State) -> str:
        """One event of a view as a plain sentence (templates escape it).  The plain one
        names the event's type and the seat it concerns."""
        text = str(event.get("type", "event")).replace("-", " ").capitalize()
        seat = event.get("seat")
        if isinstance(seat, str):
            text += f": {names.get(seat, seat)}"
        return text + "."

    def sentences(self, events: Sequence[Mapping[str, Any]], names: Mapping[str, str],
                  state: State) -> list[dict[str, Any]]:
        """Each event as {round, type, text}, in order."""
        return [{"round": self.event_round(event), "type": event.get("type"),
                 "text": self.sentence(event, names, state)} for event in events]

    def event_round(self, event: Mapping[str, Any]) -> Any:
        """The round an event of a view belongs to (None: none)."""
        return event.get("round")

    def round_title(self, number: Any) -> str:
        """"Age 3", "Round 3": a round as people call it."""
        return f"{get_game(self.game).round_name.capitalize()} {number}"

    def round_count(self, state: State) -> int | None:
        """How many rounds the game has ("age 3 of 5"); None: the game does not say."""
        return None

    def event_lines(self, events: Sequence[Mapping[str, Any]], names: Mapping[str, str],
                    state: State) -> list[str]:
        """Each event as an indented line of a plain-text mail ("  round 2: ..."), in order."""
        round_name = get_game(self.game).round_name
        return [f"  {round_name} {shown['round']}: {shown['text']}" if shown.get("round") else f"  {shown['text']}"
                for shown in self.sentences(events, names, state)]

    def is_news(self, event: Mapping[str, Any], seat: str) -> bool:
        """Whether `event` tells the reader `seat` something new: not the reader's own doing
        (an event naming the reader's seat) nor one only for the reader ("my-..." events)."""
        return not (str(event.get("type", "")).startswith("my-") or event.get("seat") == seat)

    def seat_title(self, seat: str) -> str:
        """A seat as people call it, beside or instead of its player's name."""
        return seat.replace("-", " ").capitalize()

    # --- the board -----------------------------------------------------------------------

    def board_svg(self, state: State, view: Mapping[str, Any], *, clickable: bool = False,
                  highlight: Sequence[Any] = (), id_prefix: str = "b", caption: bool = False) -> str | None:
        """The position as a standalone SVG seen by the view's reader; None: no picture
        (pages, mails and reports then show the text alone).  `clickable`: the parts a player
        may click carry `data-territory` for the page's script; `caption`: the picture's own
        title above it (a picture that stands alone, in a mail)."""
        return None

    def choice_places(self, view: Mapping[str, Any]) -> list[Any]:
        """The parts of the board (ids `board_svg` highlights) that the reader's owed
        decisions can take, from their options in `view`: the game page outlines them."""
        return []

    def board_text(self, state: State, view: Mapping[str, Any], names: Mapping[str, str]) -> str:
        """The answer to BOARD: the position in plain text.  The plain one gives the view's
        public facts, then each seat's."""
        lines = [f"  {label}: {shown}" for label, shown in plain_facts(view, HIDDEN_FACTS)]
        for seat in _seats(view):
            name = str(seat.get("seat", ""))
            facts = ", ".join(f"{label} {shown}" for label, shown in plain_facts(seat, SEAT_KEYS))
            lines.append(f"  {names.get(name, name)} ({name})" + (f": {facts}" if facts else ""))
        return "\n".join(lines) or "  nothing to show"

    def hand_text(self, view: Mapping[str, Any]) -> str:
        """The answer to HAND: what only the reader knows.  The plain one lists the facts of
        the reader's part of the view."""
        facts = [f"{label}: {shown}" for label, shown in plain_facts(view.get("me") or {}, MY_KEYS)]
        return "\n".join(facts) if facts else "Nothing in your hand."

    def turn_text(self, state: State, view: Mapping[str, Any], names: Mapping[str, str]) -> str:
        """What a "your turn" mail shows its reader to decide from, without asking BOARD or
        HAND first: by default those two answers, then the choices of the decisions the
        reader owes where they are short.  From the reader's view only."""
        parts = ["The board:\n" + self.board_text(state, view, names), self.hand_text(view),
                 self.options_text(view)]
        return "\n\n".join(part for part in parts if part)

    def options_text(self, view: Mapping[str, Any], leave_out: frozenset[str] = frozenset()) -> str:
        """The choices of each decision the reader owes, in plain words ("Your choices (secret
        bid): low 1, high 7"); a decision whose choices run longer than MAX_OPTIONS is left
        out (the game page lists them); "" for none."""
        known = {kind.name: kind for kind in get_game(self.game).decision_kinds}
        lines = []
        for decision in (view.get("me") or {}).get("decisions") or []:
            kind = known.get(str(decision.get("kind")))
            facts = "; ".join(f"{label} {shown}" for label, shown in
                              plain_facts(decision.get("options") or {}, leave_out))
            if facts and len(facts) <= MAX_OPTIONS:
                lines.append(f"Your choices ({kind.title if kind else decision.get('kind')}): {facts}.")
        return "\n".join(lines)

    # --- web pages -----------------------------------------------------------------------

    def page_context(self, state: State, view: Mapping[str, Any]) -> dict[str, Any]:
        """What this game's position and decision templates need besides the page's own
        context (view, names, svg, events...).  The plain templates get the view's public
        facts, a table of each seat's, and the reader's own."""
        seats = _seats(view)
        columns = list(dict.fromkeys(key for seat in seats for key, value in seat.items()
                                     if key not in SEAT_KEYS and _plain(value, blank="") is not None))
        return {"facts": plain_facts(view, HIDDEN_FACTS),
                "seat_columns": [column.replace("_", " ") for column in columns],
                "seat_rows": [{"seat": seat.get("seat", ""), "name": seat.get("name", seat.get("seat", "")),
                               "facts": [_plain(seat.get(column)) or "—" for column in columns]}
                              for seat in seats],
                "my_facts": plain_facts(view.get("me") or {}, MY_KEYS)}

    def setup_options(self) -> tuple[Option, ...]:
        """Choices of a new game's setup besides the game's rule options, stored at the top
        of the record's setup under their names (a board, an edition), each with its
        `choices` and `default`.  The plain game has none."""
        return ()

    def form_orders(self, form: Any) -> str:
        """The order text a posted decision form stands for (the plain forms post it as
        `orders`); OrderError when the form cannot be read."""
        text = form.get("orders")
        if text is None:
            raise OrderError("unknown kind of form")
        return str(text)

    # --- the rules page ------------------------------------------------------------------

    def rule_anchor(self, kind: str) -> str:
        """The id of the section of the rules page that explains decisions of `kind`, where a
        decision's one-sentence rule links to.  The layout gives every kind a section of that
        id ("decision-<kind>"); a game's summary may point to its own section instead."""
        return f"decision-{kind}"

    def rules_context(self) -> dict[str, Any]:
        """What this game's rules template needs besides the game's facts (`rules`, `shown`):
        its pictures, drawn as the board is, say.  The plain page needs nothing."""
        return {}

    # --- tests ---------------------------------------------------------------------------

    def first_order(self, decision: Mapping[str, Any]) -> str | None:
        """A legal order for one decision of a view's `me.decisions`, from its options: how
        tests and benchmarks play a seat as a client would (None: the game gives none)."""
        return None

    # --- orders queued ahead -------------------------------------------------------------

    def queue_round(self, state: State) -> int:
        """The round whose turns a queue sent now is for (OrderError: none is left)."""
        return int(state.round)

    def check_queued(self, state: State, order: Any) -> None:
        """OrderError if `order` cannot be queued ahead (checked again when it is played)."""

    # --- reports -------------------------------------------------------------------------
    # `context` is what every game's report holds (pbem/reports/content.py: format, kind,
    # round, phase, game, reader, next); `facts` the reader's facts (names, links, the
    # deadline, `facts.seat(seat)`).  Each returns the whole context its template reads.

    def report_context(self, state: State, view: Mapping[str, Any], context: dict[str, Any],
                       facts: Any) -> dict[str, Any] | None:
        """The report of the round `context["round"]` just scored (the final report when
        the game is over).  None: the plain report (pbem/reports/plain.py)."""
        return None

    def notice_context(self, state: State, view: Mapping[str, Any], context: dict[str, Any],
                       facts: Any) -> dict[str, Any] | None:
        """The notice after the phase `context["phase"]` of round `context["round"]`.  None:
        the plain notice (pbem/reports/plain.py)."""
        return None

    def next_step(self, state: State, view: Mapping[str, Any], seat: str, expected: dict[str, Any],
                  facts: Any) -> dict[str, Any]:
        """What the game waits for now and what the reader must do: `expected` is the plain
        part (text, yours, deadline, waiting_for); a game may add example orders."""
        return expected


MAX_OPTIONS = 400  # characters of one decision's choices in words: longer ones are left to the game page
# View parts the plain answers show apart (the seats, the reader's own) or never (the
# history, what the game waits for, the result, the options).
HIDDEN_FACTS = frozenset({"game", "seats", "me", "events", "decisions", "result", "options"})
SEAT_KEYS = frozenset({"seat", "name"})
MY_KEYS = frozenset({"seat", "decisions"})


def _seats(view: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    return [seat for seat in view.get("seats", []) if isinstance(seat, Mapping)]


def plain_facts(part: Mapping[str, Any], leave_out: frozenset[str] = frozenset()) -> list[tuple[str, str]]:
    """(label, text) of each fact of a part of a view (or of a result, a scoring), in its
    order, as the plain answers show it; those that are None are left out."""
    return [(str(key).replace("_", " "), shown) for key, value in part.items()
            if key not in leave_out and (shown := _plain(value)) is not None]


def _plain(value: Any, blank: str | None = None, nested: bool = False) -> str | None:
    """A part of a view as text, however deep, for a game with no words of its own for it
    (a view is all a reader gets: what the plain answers leave out, nobody sees).  A list of
    words and numbers joined by commas ("none" when empty), a truth as yes or no, None as
    `blank`; a mapping as its facts ("label text; label text"), any other list numbered from
    1 ("1: text; 2: —"), either in brackets inside another; None for what is not JSON."""
    if value is None:
        return blank
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, (str, int)):
        return str(value)
    if isinstance(value, Mapping):
        shown = "; ".join(f"{label} {text}" for label, text in
                          ((str(key).replace("_", " "), _plain(inner, nested=True)) for key, inner in value.items())
                          if text is not None)
    elif isinstance(value, (list, tuple)):
        if all(isinstance(item, (str, int)) and not isinstance(item, bool) for item in value):
            return ", ".join(map(str, value)) or "none"
        items = [_plain(item, blank="—", nested=True) for item in value]
        shown = "; ".join(f"{number}: {text}" for number, text in enumerate(items, start=1) if text is not None)
    else:
        return None
    if not shown:
        return "none"
    return f"({shown})" if nested else shown


@cache
def presentation(game: str) -> Presentation:
    """The presentation registered for the game called `game`, else the plain one."""
    found = {point.name: point for point in entry_points(group=GROUP)}
    if game in found:
        shown = found[game].load()
        if shown.game != game:
            raise ValueError(f"the presentation registered as {game!r} is {shown.game!r}'s")
        return shown
    return Presentation(game)


def template_loader() -> jinja2.BaseLoader:
    """Each registered presentation's templates, found as "games/<game>/<file>" in the
    presentation's own folder (the web's and the reports' loaders both put it beside their
    own templates)."""
    folders = {}
    for point in entry_points(group=GROUP):
        shown = presentation(point.name)
        if shown.templates is not None:
            folders[point.name] = jinja2.FileSystemLoader(str(shown.templates))
    return jinja2.PrefixLoader({"games": jinja2.PrefixLoader(folders)})
