"""Notifications: mails queued in the outbox, in the transaction of the change they announce,
so a notification exists exactly when that change was committed.

- `mail_user`: a mail to a person's primary address, unless they turned mail on that topic off.
- `mail_seat`: every notification about a game that is not a turn or result mail (reminders,
  missed deadlines, the host's controls, replacements, queued turns refused): keyed per game,
  event and recipient's seat, with the seat's reply address.
- "turn" (`queue_turn_mail`): a person who newly owes a decision (and wants turn mails) is
  told which one, with what they need to decide it (the game's `turn_text`: the board, their
  hand, their choices), so one reply can answer it.  After a backlog only the newest turn mail of a game goes out (delivery
  withholds the older ones).
- "result" (`queue_result_mail`): when the game ends, every person in it (who wants results)
  gets the result.

Mails are built from public facts (the kind of decision, the published result) and the
reader's own view, never from the full state.  What an advance owes its players is in pbem/services/announce.py; richer
turn reports and age reports are rendered elsewhere (pbem/services/report_mail.py); the
outbox is delivered by its own worker.
"""
from __future__ import annotations

import logging
from typing import Any, Iterable

from sqlalchemy.orm import Session

from pbem.games import presentation
from pbem.models import Game, Seat, User
from pbem.outbox.delivery import PREFERENCES
from pbem.outbox.messages import Mail, queued_keys, send_mail, send_mails
from pbem.outbox.seat_tokens import seat_reply_address, seat_reply_addresses
from pbem.services import kinds, links, moves_mail
from pbem.services.clock import clock_text
from pbem.services.links import base_url
from pbem.services.policy import policy_of
from pbem.services.state import player_names
from pbem.timezones import when
from pbem.writes import Write

log = logging.getLogger(__name__)

MAX_POSITION = 8000  # characters of the position in a turn mail: a long board is cut, at a line


def mail_user(session: Session, user: User | None, subject: str, body: str, *, topic: str,
              key: str | None = None, reply_to: str | None = None) -> bool:
    """Queue a mail to a person's primary address, unless they turned mail on this topic off
    (the preference its List-Unsubscribe link sets).  Mails about a game and a seat go through
    `mail_seat`, which adds the idempotency key and the seat's reply address."""
    address = user.primary_address if user is not None else None
    if not address or not wants(user, topic):
        return False
    send_mail(session, address, subject, body, topic=topic, key=key, reply_to=reply_to)
    return True


def wants(user: User, topic: str) -> bool:
    preference = PREFERENCES.get(topic)
    return preference is None or getattr(user, preference) not in (False, "off")


def turn_subject(game: Game) -> str:
    return f"Your turn in {game.title} (game {game.id})"


def queue_turn_mail(session: Session, game: Game, state: Any, seat: Seat, seq: int | None = None) -> None:
    """The "your turn" mail of a seat that owes a decision in `state` (nothing if it owes
    none or its person wants no turn mails): what is asked, the clock, what the reader needs
    to decide (`position_text`), how to answer; one per seat and moment `seq` (the order-log
    length, by default `state`'s).  Also the fallback of a report mail that failed to render."""
    queue_turn_mails(session, game, state, [seat], seq)


def queue_turn_mails(session: Session, game: Game, state: Any, seats: Iterable[Seat], seq: int | None = None, *,
                     locked: bool = False, logged: bool = False) -> None:
    """`queue_turn_mail` for each of these seats of one game, in a few statements however
    many they are: the mails queued already, the reply addresses and the digest readers'
    cursors are read for all of them at once.  From an advance: `locked`, it holds the
    seats' rows (moves_mail.since_last_turns); `logged`, it logged the order-log lines that
    make this moment, so no mail of the moment can be queued yet (the log only grows)."""
    owed = {d.seat: d.kind for d in reversed(state.decisions(options=False))}  # a seat's first decision
    moment = len(state.order_log()) if seq is None else seq
    asked = {}
    for seat in seats:
        user = seat.user
        if user is not None and user.primary_address and user.notify_turn and owed.get(seat.name or ""):
            asked[f"turn:{game.id}:{moment}:{seat.name}"] = seat
    for key in queued_keys(session, asked) if not logged else ():  # asked before the news is claimed
        del asked[key]
    if not asked:
        return
    views = {seat.name: state.view(seat.name) for seat in asked.values()}  # one per seat, for news and position
    cursors: list[Write] = []  # the digest readers' cursors, moved with the mails
    recaps = moves_mail.since_last_turns(session, game, state, list(asked.values()),
                                         locked=cursors if locked else None, views=views)
    reply_to = seat_reply_addresses(session, list(asked.values()))
    url = links.game(base_url(), game.id)
    clock = policy_of(game).clock
    mails = []
    for key, seat in asked.items():
        user = seat.user
        assert user is not None and user.primary_address is not None and seat.name is not None
        timing = f"{clock_text(seat, clock)} Due by {when(seat.deadline_at, user)}.\n\n" \
            if clock is not None and seat.deadline_at is not None else ""
        position = position_text(game, state, seat, views[seat.name])
        # Replies go to the seat's own token address; one mail per seat and decision.
        mails.append(Mail(user.primary_address, turn_subject(game),
                          f"{game.title}: it is your turn to {kinds.ask(game.kind, owed[seat.name])}.\n\n{timing}"
                          + (f"{position}\n\n" if position else "")
                          + "Reply to this mail with your orders, one per line (send HELP for help), "
                          f"or open the game:\n{url}\n" + recaps.get(seat.id, ""),
                          topic="turn", reply_to=reply_to[seat.name], key=key))
    send_mails(session, mails, writes=cursors)


def position_text(game: Game, state: Any, seat: Seat, view: dict[str, Any] | None = None) -> str:
    """What the seat's reader needs to decide, from its own view (the game's `turn_text`;
    `view` if the caller has it), cut to MAX_POSITION characters.  A presentation that fails
    leaves it out: the turn mail is every other mail's fallback and must go out."""
    try:
        seen = state.view(seat.name) if view is None else view
        text = presentation(game.kind).turn_text(state, seen, player_names(game)).strip("\n")
    except Exception as error:  # noqa: BLE001 - the class only: a message could quote the hand
        log.error("game %s: the %s seat's turn text failed (%s)", game.id, seat.name, type(error).__name__)
        return ""
    if len(text) <= MAX_POSITION:
        return text
    return text[:text.rfind("\n", 0, MAX_POSITION)] + "\n(The rest is on the game page.)"


def mail_seat(session: Session, game: Game, user: User | None, event: str, subject: str, body: str, *,
              topic: str) -> bool:
    """A notification about `game` to a person (a seat's player, or the host): once per game,
    `event` and recipient, keyed "<topic>:<game>:<event>:<seat>", so a tick or advance run
    twice or retried queues it once; Reply-To is their seat's token address, so a reply acts
    for that seat.  A person without a seat here (a host who resigned, a replaced player) is
    named "user<id>" in the key and gets no Reply-To.  Whether a mail went out (or was queued
    already); False if they have no address or turned mail on this topic off."""
    mail = seat_mail(session, game, user, event, subject, body, topic=topic)
    if mail is None:
        return False
    send_mail(session, mail.to, mail.subject, mail.body, topic=topic, key=mail.key, reply_to=mail.reply_to)
    return True


def seat_mail(session: Session, game: Game, user: User | None, event: str, subject: str, body: str, *,
              topic: str) -> Mail | None:
    """`mail_seat`'s mail, built and not queued, for a caller that sends it with its other
    writes (`send_mails`, after asking `queued_keys` for its key); None where `mail_seat`
    sends nothing."""
    address = user.primary_address if user is not None else None
    if user is None or not address or not wants(user, topic):
        return None
    seat = next((s for s in game.seats if s.user_id == user.id and s.name), None)
    key = seat_mail_key(topic, game.id, event, seat.name if seat and seat.name else f"user{user.id}")
    return Mail(address, subject, body, topic, key=key, reply_to=seat_reply_address(session, seat) if seat else None)


def seat_mail_key(topic: str, game_id: int, event: str, who: str) -> str:
    """The idempotency key of `mail_seat`'s mail to `who` (a seat's name, or "user<id>")."""
    return f"{topic}:{game_id}:{event}:{who}"


def queue_result_mail(session: Session, game: Game, state: Any, seat: Seat) -> None:
    """The plain "game over" mail, to a person who wants results; once per seat."""
    queue_result_mails(session, game, state, [seat])


def queue_result_mails(session: Session, game: Game, state: Any, seats: Iterable[Seat]) -> None:
    """`queue_result_mail` for these seats of one game, in a few statements however many."""
    told = {f"result:{game.id}:{seat.name}": seat for seat in seats
            if seat.user is not None and seat.user.primary_address and seat.user.notify_results}
    for key in queued_keys(session, told):
        del told[key]
    if not told:
        return
    result = state.result()
    names = {player["seat"]: player["name"] for player in game.setup.get("players", [])}
    lines = [f"{rank}. {names.get(seat, seat)}: {result['scores'][seat]}"
             for rank, seat in enumerate(result["ranking"], start=1)]
    url = links.game(base_url(), game.id)
    body = (f"{game.title} is over. {names.get(result['winner'], result['winner'])} wins.\n\n"
            + "\n".join(lines) + f"\n\nThe whole game, its record and a replay:\n{url}\n")
    reply_to = seat_reply_addresses(session, list(told.values()))
    mails = []
    for key, seat in told.items():
        assert seat.user is not None and seat.user.primary_address is not None and seat.name is not None
        # HISTORY, BOARD still answer after the end: the seat's reply address stays.
        mails.append(Mail(seat.user.primary_address, f"{game.title}: game over", body, topic="result",
                          reply_to=reply_to[seat.name], key=key))
    send_mails(session, mails)
