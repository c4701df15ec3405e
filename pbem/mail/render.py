"""Plain-text answers to the mail commands, each built from the reader seat's view only
(`state.view(seat)`), never from the full state; what is game-specific (the board and hand
in words, event sentences) comes from the game's presentation (pbem.games)."""
from __future__ import annotations

from datetime import datetime
from typing import Any

from engine import get_game
from pbem.games import presentation
from pbem.mail.commands import COMMANDS, Picked
from pbem.models import Game, User
from pbem.services import links
from pbem.services.clock import clock_text
from pbem.services.kinds import decision_kinds
from pbem.services.play import GameView
from pbem.services.policy import policy_of
from pbem.services.schedule import due_of
from pbem.services.state import player_names
from pbem.timezones import when

HISTORY_LINES = 30
IGNORED_LINES = 100  # quoted back at most; a mail's reply text is at most 32 KiB anyway
IGNORED_CHARS = 100

HELP_START = """Commands (any case, one per line, several per mail):
  HELP                 this list
  STATUS               what the game waits for, and the deadline
  BOARD                the board as your seat sees it
  HAND                 your cards
  HISTORY              what happened lately"""
# For a game whose presentation lets seats queue orders ahead: {title} is the kind's.
HELP_QUEUE = """
  QUEUE                your queued {title}s; QUEUE followed by {title}s (one per line)
                       replaces the queue with them
  CANCEL, CANCEL 2     cancel all queued {title}s, or queued {title} number 2"""
HELP_END = """
  VACATION 2026-12-20 2027-01-03, VACATION OFF
  RESIGN               asks for confirmation; RESIGN CONFIRM hands your seat to a bot
  PRESS ALL: text      a message to the whole table; PRESS <seat>: text, privately to one
                       seat (if the game allows it); a reply to a press mail answers its thread
Any other line is a game order (docs: orders); all orders of one mail are checked together:
all are carried out, or none.  Write END on a line to stop reading there."""

assert all(name in HELP_START + HELP_QUEUE + HELP_END for name in COMMANDS)


def _who(game: Game, seat: str) -> str:
    name = player_names(game).get(seat)
    return f"{name} ({seat})" if name and name != seat else seat


def moment(game: Game, at: Any) -> str:
    """Where the game stands, as the game names its rounds: "round 2, picking".  `at` is
    anything with the game's public round and phase (a State, a GameView)."""
    return f"{get_game(game.kind).round_name} {at.round}, {at.phase}"


def heading(game: Game, at: Any) -> str:
    return f"{game.title} (game {game.id}), {moment(game, at)}"


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
    lines = [heading(game, seen) + "."]
    if game.status == Game.FINISHED:
        result = view.get("result") or {}
        winner = result.get("winner")
        lines.append(f"The game is over{': ' + _who(game, winner) + ' wins' if winner else ''}.")
        return "\n".join(lines)
    lines.append(waiting_for(seen))
    lines.append(expected(game, view))
    if seen.my_pending:
        lines.append("Your orders waiting: " + "; ".join(seen.my_pending) + ".")
    deadline: datetime | None = due_of(game, seen.seat) if seen.seat is not None else game.deadline_at
    lines.append(f"Deadline: {when(deadline, user)}." if deadline else "Deadline: none set.")
    clock = policy_of(game).clock
    if clock is not None and seen.seat is not None:
        lines.append(clock_text(seen.seat, clock))
    return "\n".join(lines)


def board(game: Game, state: Any, view: dict[str, Any]) -> str:
    return (f"Board of {heading(game, state)}:\n"
            + presentation(game.kind).board_text(state, view, player_names(game)))


def hand(game: Game, view: dict[str, Any]) -> str:
    return presentation(game.kind).hand_text(view)


def history(game: Game, state: Any, view: dict[str, Any], limit: int = HISTORY_LINES) -> str:
    lines = presentation(game.kind).event_lines(view.get("events", []), player_names(game), state)
    if not lines:
        return "Nothing has happened yet."
    shown = lines[-limit:]
    head = f"The last {len(shown)} of {len(lines)} events:" if len(lines) > limit else "What happened:"
    return head + "\n" + "\n".join(shown)


def help_text(game: Game | None, view: dict[str, Any] | None) -> str:
    """The commands (QUEUE and CANCEL for a game whose orders may be queued ahead, in its
    words), in a running game what the reader is asked now, and where the game's rules are."""
    queued = presentation(game.kind).queued_kind if game is not None else None
    kinds = decision_kinds(game.kind) if game is not None else {}
    text = HELP_START + (HELP_QUEUE.format(title=kinds[queued].title) if queued in kinds else "") + HELP_END
    if game is not None and view is not None:
        text += "\n\n" + expected(game, view)
    if game is not None:
        text += f"\n\nThe rules of {get_game(game.kind).title}: {links.rules(links.base_url(), game.kind)}"
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
        lines.append(heading(game, seen) + ". " + waiting_for(seen))
        lines.append(expected(game, seen.view))
    lines.append("To send orders, reply with them on the first lines of your mail, one per line "
                 "(send HELP for the commands).")
    text = "\n\n".join(lines)
    ignored = ignored_text(picked)
    return text + ("\n\n" + ignored if ignored else "")
