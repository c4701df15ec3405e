"""Plain-text answers to the mail commands, each built from the reader seat's view only
(`state.view(seat)`), never from the full state."""
from __future__ import annotations

from datetime import datetime
from typing import Any

from pbem.games.aztlan.sentences import card_title, describe_all
from pbem.mail.commands import COMMANDS, Picked
from pbem.models import Game, User
from pbem.services.kinds import decision_kinds
from pbem.services.play import GameView
from pbem.timezones import when

HISTORY_LINES = 30
IGNORED_LINES = 100  # quoted back at most; a mail's reply text is at most 32 KiB anyway
IGNORED_CHARS = 100

HELP = """Commands (any case, one per line, several per mail):
  HELP                 this list
  STATUS               what the game waits for, and the deadline
  BOARD                the board as your seat sees it
  HAND                 your cards
  HISTORY              what happened lately
  QUEUE                your queued development turns; QUEUE followed by turns (one per line)
                       replaces the queue with them
  CANCEL, CANCEL 2     cancel all queued turns, or queued turn number 2
  VACATION 2026-12-20 2027-01-03, VACATION OFF
  RESIGN               asks for confirmation; RESIGN CONFIRM hands your seat to a bot
Any other line is a game order (docs: orders); all orders of one mail are checked together:
all are carried out, or none.  Write END on a line to stop reading there."""

assert all(name in HELP for name in COMMANDS)


def names_of(game: Game) -> dict[str, str]:
    return {p["seat"]: p["name"] for p in game.setup.get("players", [])}


def territories_of(state: Any) -> dict[int, str]:
    return {t.id: t.name for t in state.board.territories}


def _who(game: Game, seat: str) -> str:
    name = names_of(game).get(seat)
    return f"{name} ({seat})" if name and name != seat else seat


def heading(game: Game, view: dict[str, Any]) -> str:
    return f"{game.title} (game {game.id}), age {view.get('age')}, {view.get('phase')}"


def expected(game: Game, view: dict[str, Any]) -> str:
    mine = (view.get("me") or {}).get("decisions") or []
    if not mine:
        return "Nothing is asked of you now."
    known = decision_kinds(game.kind)
    asked = dict.fromkeys(d["kind"] for d in mine)
    # What each kind of decision is answered with (docs/orders.md).
    return "You are asked to " + "; ".join(
        f"{known[name].ask}: {known[name].help}" if name in known else f"{name}: see the orders page"
        for name in asked) + "."


def waiting_for(seen: GameView) -> str:
    """Who the game still waits for, and for what: seats whose orders are in (bots count as
    in: they decide the moment the others have) are left out; the reader is "you"."""
    me = seen.seat.name if seen.seat is not None else None
    known = decision_kinds(seen.game.kind)
    owed = [f"{'you' if d['seat'] == me else _who(seen.game, d['seat'])} "
            f"({known[d['kind']].ask if d['kind'] in known else d['kind']})"
            for d in seen.view.get("decisions", []) if d["seat"] not in seen.submitted]
    return "Waiting for: " + (", ".join(owed) if owed else "nobody: every order is in") + "."


def status(seen: GameView, user: User | None) -> str:
    game, view = seen.game, seen.view
    lines = [heading(game, view) + "."]
    if game.status == Game.FINISHED:
        result = view.get("result") or {}
        winner = result.get("winner")
        lines.append(f"The game is over{': ' + _who(game, winner) + ' wins' if winner else ''}.")
        return "\n".join(lines)
    lines.append(waiting_for(seen))
    lines.append(expected(game, view))
    if seen.my_pending:
        lines.append("Your orders waiting: " + "; ".join(seen.my_pending) + ".")
    deadline: datetime | None = getattr(game, "deadline_at", None)
    lines.append(f"Deadline: {when(deadline, user)}." if deadline else "Deadline: none set.")
    return "\n".join(lines)


def board(game: Game, state: Any, view: dict[str, Any]) -> str:
    lines = [f"Board of {heading(game, view)}:"]
    pawns = view.get("pawns", {})
    for t in state.board.territories:
        here = pawns.get(str(t.id), {})
        if not here:
            continue
        who = ", ".join(f"{people} {count}" for people, count in sorted(here.items()))
        lines.append(f"  {t.id:>2} {t.name} ({t.type}): {who}{'  [shared]' if len(here) > 1 else ''}")
    if len(lines) == 1:
        lines.append("  no pawns on the board yet")
    empty = [str(t.id) for t in state.board.territories if not pawns.get(str(t.id))]
    if empty:
        lines.append("  empty: " + " ".join(empty))
    lines.append("Score track: " + ", ".join(
        f"{_who(game, s['seat'])} {s['score']}" for s in view.get("seats", [])) + ".")
    lines.append("Pawns: " + "; ".join(
        f"{p['people']} {p['to_place']} to place, {p['reserve']} in reserve, {p['removed']} removed"
        for p in view.get("peoples", [])) + ".")
    played = [f"{_who(game, s['seat'])} {s['power_card']}" for s in view.get("seats", []) if s.get("power_card")]
    if played:
        lines.append("Power cards this age: " + ", ".join(played) + ".")
    return "\n".join(lines)


def hand(view: dict[str, Any]) -> str:
    me = view.get("me") or {}
    cards = me.get("hand") or []
    lines = ["Your prosperity cards: " + (", ".join(card_title(c) for c in cards) if cards else "none") + "."]
    if me.get("power_card") is not None:
        lines.append(f"Your power card this age: {me['power_card']}.")
    if me.get("power_left"):
        lines.append("Power cards left in your hand: " + ", ".join(str(c) for c in me["power_left"]) + ".")
    return "\n".join(lines)


def history(game: Game, state: Any, view: dict[str, Any], limit: int = HISTORY_LINES) -> str:
    events = describe_all(view.get("events", []), names_of(game), territories_of(state))
    if not events:
        return "Nothing has happened yet."
    shown = events[-limit:]
    head = f"The last {len(shown)} of {len(events)} events:" if len(events) > limit else "What happened:"
    return head + "\n" + "\n".join(f"  age {e['age']}: {e['text']}" if e.get("age") else f"  {e['text']}"
                                   for e in shown)


def help_text(game: Game | None, view: dict[str, Any] | None) -> str:
    text = HELP
    if game is not None and view is not None:
        text += "\n\n" + expected(game, view)
    return text


RULE = ("Orders go first, one per line; the first line after them that is not an order ends them, "
        "and anything from there on (thanks, a signature, the quoted mail) is not read.")


def ignored_text(picked: Picked) -> str:
    """The lines of the mail that were read but not taken as orders, quoted back, so that a
    line meant as an order never goes unnoticed ("" when there are none)."""
    sections = []
    for title, lines in (("Before your orders", picked.before), ("After your orders", picked.after)):
        if not lines:
            continue
        shown = [f"    > {_cut(line)}" for line in lines[:IGNORED_LINES]]
        if len(lines) > IGNORED_LINES:
            shown.append(f"    (and {len(lines) - IGNORED_LINES} more lines)")
        sections.append(f"{title}, not read as orders:\n" + "\n".join(shown))
    return "\n\n".join(sections) + ("\n\n" + RULE if sections else "")


def _cut(line: str) -> str:
    return line if len(line) <= IGNORED_CHARS else line[:IGNORED_CHARS] + "..."


def no_orders(game: Game, seen: GameView | None, picked: Picked) -> str:
    """The answer to a mail without orders or commands: short and friendly, not an error."""
    lines = ["Thanks for your mail. No orders or commands were found in it, so nothing was carried out."]
    if seen is not None:
        lines.append(heading(game, seen.view) + ". " + waiting_for(seen))
        lines.append(expected(game, seen.view))
    lines.append("To send orders, reply with them on the first lines of your mail, one per line "
                 "(send HELP for the commands).")
    text = "\n\n".join(lines)
    ignored = ignored_text(picked)
    return text + ("\n\n" + ignored if ignored else "")
