"""What a report or a notice says, as a JSON-able dict (the report's context), for any game.

Pure functions of a game record and a few game-level facts the engine does not know (the
game's title, players' display names, the reader's time zone, the next deadline, links).
The engine says where a game stands: `state.milestones()` lists the phases completed, a
`scored` one ends a round's scoring; a report follows each scored milestone, a notice may
follow the others.  The game's presentation (pbem/games) says what its reports hold, from
the reader's *view* (`state.view(seat)`) at the moment described and the public facts
(each round's scoring, the result, whose turn it is): never from the full state, so a
report holds only what its seat may know.

    round_report(record, "red", 2, title="Friday game", tz="Europe/Paris", deadline=dt)
    final_report(record, "red", title=...)
    phase_notice(record, "red", 2, "bidding", ...)
    reports_for_record(record, ...)  -> (seat, round, context) for every scored round
    next_step(record, "red", ...)    -> what the reader must do when the record ends
    Moment.of_round(record, 2)       -> every seat's report of round 2 from one replay

The report of the round whose scoring ends the game is the final report (kind "final"):
that round's results and the end of the game in one report.  The other reports' kind is
the game's round name (its `round_name`, "round" say), a notice's is "notice".
"""
from __future__ import annotations

from datetime import datetime
from typing import Any, Callable, Iterator, Mapping

from engine import get_game
from engine.core import Milestone, State
from engine.records import replay, replay_steps
from pbem.games import presentation
from pbem.games.reporting import Facts, joined
from pbem.reports import plain
from pbem.reports.safety import format_deadline
from pbem.text import MAX_NAME, MAX_TITLE, clean_link, clean_text

FORMAT = "pbem-report/1"
FINAL, NOTICE = "final", "notice"
LINK_NAMES = ("game", "orders", "report", "rules", "settings")


class ReportError(ValueError):
    """A report that cannot be made from this record (unknown seat, round not reached)."""


# --- replaying to a milestone ---------------------------------------------------------------

def _steps(record: dict[str, Any]) -> Iterator[State]:
    """The game after each order of the record (the initial state is skipped)."""
    steps = replay_steps(record)
    next(steps)
    return steps


def _replay_to(record: dict[str, Any], wanted: Callable[[Milestone], bool], what: str) -> tuple[State, Milestone]:
    """The game right after the order that completes the first milestone `wanted` picks."""
    seen = 0
    state = None
    for state in _steps(record):
        passed = state.milestones()
        found = next((m for m in passed[seen:] if wanted(m)), None)
        if found is not None:
            return state, found
        seen = len(passed)
    round_name = get_game(state.game).round_name if state is not None else "round"
    raise ReportError(f"the record does not reach {what.format(round=round_name)}")


def _scored(record: dict[str, Any]) -> Iterator[tuple[Milestone, State]]:
    """Replay once, yielding (milestone, state) right after each round's scoring.  The
    state is live: use it before asking for the next."""
    seen = 0
    for state in _steps(record):
        passed = state.milestones()
        for milestone in passed[seen:]:
            if milestone.scored:
                yield milestone, state
        seen = len(passed)


def final_round(state: State) -> int | None:
    """The round whose report is the final report: the game ended with its scoring (None:
    the game goes on, or ended otherwise)."""
    passed = state.milestones()
    return passed[-1].round if state.is_over() and passed and passed[-1].scored else None


def _recorded_names(record: dict[str, Any]) -> dict[str, str]:
    names = {}
    for player in record.get("players") or ():
        player = {"seat": player} if isinstance(player, str) else player
        if isinstance(player, dict) and isinstance(player.get("seat"), str):
            name = player.get("name", player["seat"])
            if isinstance(name, str):
                names[player["seat"]] = name
    return names


def facts_for(state: State, record: dict[str, Any], *, title: Any = "", tz: Any = "UTC",
              deadline: datetime | None = None, names: Mapping[str, Any] | None = None,
              links: Mapping[str, Any] | None = None) -> Facts:
    shown = presentation(state.game)
    given, recorded = dict(names or {}), _recorded_names(record)
    cleaned = {}
    for seat in state.seats:
        fallback = shown.seat_title(seat)
        cleaned[seat] = clean_text(given.get(seat) or recorded.get(seat) or fallback, MAX_NAME) or fallback
    kept: dict[str, str | None] = dict.fromkeys(LINK_NAMES)
    for key, value in (links or {}).items():
        link = clean_link(value)
        if key in LINK_NAMES and link:
            kept[key] = link
    return Facts(game=get_game(state.game), shown=shown, seats=tuple(state.seats),
                 title=clean_text(title, MAX_TITLE) if title else "", names=cleaned, links=kept,
                 deadline=format_deadline(deadline, tz))


def _check_seat(state: State, seat: str) -> None:
    if seat not in state.seats:
        raise ReportError(f"no seat {seat!r} in this game")


def _check_round(number: Any) -> None:
    if isinstance(number, bool) or not isinstance(number, int) or number < 1:
        raise ReportError("a round is a whole number from 1")


def _base(state: State, seat: str, kind: str, milestone: Milestone, facts: Facts,
          view: Mapping[str, Any]) -> dict[str, Any]:
    """What every game's report and notice holds."""
    return {"format": FORMAT, "kind": kind, "round": milestone.round, "phase": milestone.phase,
            "game": facts.header(), "reader": facts.seat(seat), "next": _expected(state, view, seat, facts)}


def _expected(state: State, view: Mapping[str, Any], seat: str, facts: Facts) -> dict[str, Any]:
    """What the game waits for now and what the reader must do (public decisions only), then
    what the game's presentation adds."""
    owed = state.decisions(options=False)
    mine = [d for d in owed if d.seat == seat]
    others = list(dict.fromkeys(d.seat for d in owed if d.seat != seat))
    expected: dict[str, Any] = {"phase": state.phase, "round": state.round, "yours": bool(mine), "orders": [],
                                # A deadline binds only a seat that owes a decision.
                                "deadline": facts.deadline if mine else None, "text": "", "help": "", "position": "",
                                "waiting_for": [facts.seat(s) for s in others]}
    if state.is_over():
        expected["text"] = "The game is over. Thank you for playing."
    elif mine:
        kind = next((k for k in facts.game.decision_kinds if k.name == mine[0].kind), None)
        expected["text"] = f"It is your turn to {kind.ask if kind else 'decide'}."
        expected["help"] = kind.help if kind else ""
        # What a turn mail would show (its board, hand, choices): a report that tells its
        # reader it is their turn stands in for that mail, so one reply can answer it.
        expected["position"] = facts.shown.turn_text(state, view, facts.names)
    else:
        waiting = joined([s["who"] for s in expected["waiting_for"]]) if others else "the other players"
        expected["text"] = f"Nothing for you to do now: the game waits for {waiting}."
    return facts.shown.next_step(state, view, seat, expected, facts)


# --- the reports ------------------------------------------------------------------------------

def _report(state: State, record: dict[str, Any], seat: str, milestone: Milestone,
            **given: Any) -> dict[str, Any]:
    """The report of the round `milestone` scored, for `seat`, from the game just after."""
    _check_seat(state, seat)
    facts = facts_for(state, record, **given)
    view = state.view(seat)
    kind = FINAL if state.is_over() else facts.game.round_name
    base = _base(state, seat, kind, milestone, facts, view)
    context = facts.shown.report_context(state, view, base, facts)
    return plain.report(facts.shown, state, view, base, facts) if context is None else context


def round_report(record: dict[str, Any], seat: str, number: int, *, title: Any = "", tz: Any = "UTC",
                 deadline: datetime | None = None, names: Mapping[str, Any] | None = None,
                 links: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The report of round `number` for `seat`; the last round's is the final report.

    title: the game's title; names: seat -> display name (default: the record's names);
    tz: the reader's IANA time zone; deadline: the next deadline (aware, or naive UTC);
    links: {"game", "orders", "report", "rules", "settings"} -> http(s) URL.
    """
    return Moment.of_round(record, number).report(seat, title=title, tz=tz, deadline=deadline, names=names,
                                                  links=links)


def final_report(record: dict[str, Any], seat: str, **facts: Any) -> dict[str, Any]:
    """The end-of-game report: the last round's results and the end of the game."""
    number = final_round(replay(record))
    if number is None:
        raise ReportError("the record does not reach the end of the game")
    return round_report(record, seat, number, **facts)


def reports_for_record(record: dict[str, Any], *, title: Any = "", tz: Any = "UTC",
                       deadlines: Mapping[int, datetime] | None = None,
                       names: Mapping[str, Any] | None = None, links: Mapping[str, Any] | None = None,
                       seats: list[str] | None = None) -> Iterator[tuple[str, int, dict[str, Any]]]:
    """(seat, round, context) for every seat and every round scored in the record,
    replaying it once.  tz: one zone for all, or seat -> zone; deadlines: round -> the
    deadline that follows that round's report."""
    for milestone, state in _scored(record):
        for seat in seats or state.seats:
            zone = tz.get(seat, "UTC") if isinstance(tz, Mapping) else tz
            yield seat, milestone.round, _report(state, record, seat, milestone, title=title, tz=zone,
                                                 deadline=(deadlines or {}).get(milestone.round), names=names,
                                                 links=links)


def next_step(record: dict[str, Any], seat: str, *, title: Any = "", tz: Any = "UTC",
              deadline: datetime | None = None, names: Mapping[str, Any] | None = None,
              links: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The `next` section of a context as of the record's last order: what `seat` must do
    then and by when.  A mail sent after an advance that went on past the phase its report
    describes (bots played on) tells what is expected at the moment it is sent."""
    return Position(record).next_step(seat, title=title, tz=tz, deadline=deadline, names=names, links=links)


def phase_notice(record: dict[str, Any], seat: str, number: int, after: str, *, title: Any = "",
                 tz: Any = "UTC", deadline: datetime | None = None,
                 names: Mapping[str, Any] | None = None,
                 links: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """A short notice (no PDF) after the phase `after` of round `number`, one that ends
    without a scoring (a scored phase gets its round's report)."""
    return Moment.after_phase(record, number, after).notice(seat, title=title, tz=tz, deadline=deadline,
                                                            names=names, links=links)


# --- every seat of one moment -----------------------------------------------------------------

class Moment:
    """A record replayed once to a milestone, and every seat's report or notice of it built
    from that one state: what a worker renders for all the seats of a milestone, instead of
    replaying the record once per seat.  Each context is built from its reader's view only,
    exactly as `round_report` / `phase_notice` build it alone (tests/reports check both give
    the same context for every seat).

        moment = Moment.of_round(record, 3)           # or Moment.after_phase(record, 3, "bidding")
        contexts = {seat: moment.report(seat, title=..., tz=...) for seat in moment.seats}
    """

    def __init__(self, record: dict[str, Any], state: State, milestone: Milestone):
        self.record, self.state, self.milestone = record, state, milestone

    @classmethod
    def of_round(cls, record: dict[str, Any], number: int) -> "Moment":
        """Just after round `number`'s scoring (its report; the last round's is the final report)."""
        _check_round(number)
        state, milestone = _replay_to(record, lambda m: m.scored and m.round == number,
                                      f"the scoring of {{round}} {number}")
        return cls(record, state, milestone)

    @classmethod
    def after_phase(cls, record: dict[str, Any], number: int, after: str) -> "Moment":
        """Just after the phase `after` of round `number`, one that ends without a scoring."""
        _check_round(number)
        state, milestone = _replay_to(record, lambda m: m.round == number and m.phase == after,
                                      f"the end of the {after} phase of {{round}} {number}")
        if milestone.scored:
            raise ReportError(f"the {after} phase ends with a scoring: its report follows it, not a notice")
        return cls(record, state, milestone)

    @property
    def seats(self) -> list[str]:
        return list(self.state.seats)

    def report(self, seat: str, **given: Any) -> dict[str, Any]:
        """`seat`'s report of the round (given: title, tz, deadline, names, links)."""
        return _report(self.state, self.record, seat, self.milestone, **given)

    def notice(self, seat: str, **given: Any) -> dict[str, Any]:
        """`seat`'s notice after the phase (given: title, tz, deadline, names, links)."""
        state, milestone = self.state, self.milestone
        _check_seat(state, seat)
        facts = facts_for(state, self.record, **given)
        view = state.view(seat)
        base = _base(state, seat, NOTICE, milestone, facts, view)
        context = facts.shown.notice_context(state, view, base, facts)
        return plain.notice(facts.shown, state, view, base, facts) if context is None else context


class Position:
    """A record replayed once to its last order: what each seat must do then (`next_step`
    for every seat of a mail run, from one replay)."""

    def __init__(self, record: dict[str, Any]):
        self.record, self.state = record, replay(record)

    def next_step(self, seat: str, **given: Any) -> dict[str, Any]:
        """The `next` section of `seat`'s context as of the record's last order (given: title,
        tz, deadline, names, links)."""
        _check_seat(self.state, seat)
        facts = facts_for(self.state, self.record, **given)
        return _expected(self.state, self.state.view(seat), seat, facts)
