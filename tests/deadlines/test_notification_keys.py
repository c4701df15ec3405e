"""Every notification about a game and a seat (reminders, missed deadlines, replacement
offers, the host's extensions and pauses, refused queued turns) is queued once per game,
event and seat (an idempotency key: a tick or advance run again sends nothing new), with the
seat's reply address as Reply-To and a List-Unsubscribe link that the sender honours.
Invitations are keyed per game and invitee."""
from __future__ import annotations

from typing import Any

from sqlalchemy import update

from pbem.outbox.delivery import build
from pbem.outbox.seat_tokens import seat_reply_address
from pbem.outbox.models import MailDelivery
from pbem.outbox.settings import load
from pbem.models import Game, OutboxMessage, User
from pbem.services import accounts, deadlines, lobby, turn_queue
from deadline_helpers import HOUR, SECOND, fresh, mails, make_user, play_own, policy_game, seat_of, tick, two_humans


def _seat_mail(app: Any, session: Any, row: OutboxMessage, game: Game, user: User) -> str:
    """Check a notification's key, Reply-To and List-Unsubscribe; its key."""
    extra = session.get(MailDelivery, row.id)
    seat = seat_of(session, game, user)
    assert extra is not None and extra.key is not None, row.subject
    assert extra.key.startswith(f"{row.topic}:{game.id}:") and extra.key.endswith(f":{seat.name}")
    assert extra.reply_to == seat_reply_address(session, seat)
    message = build(session, row, extra, load(app.config))
    assert message["Reply-To"] == extra.reply_to
    assert message["List-Unsubscribe"].startswith("<http") and message["List-Unsubscribe-Post"]
    return extra.key


def test_reminders_are_keyed_per_decision_and_seat_and_a_retried_tick_sends_none_again(app, session, ana, bo):
    game = two_humans(session, ana, bo)
    at = game.deadline_at - 2 * HOUR + SECOND
    tick(session, at)
    sent = mails(session, topic="reminder")
    assert sorted(m.to_address for m in sent) == ["ana@example.com", "bo@example.com"]
    keys = {_seat_mail(app, session, m, game, ana if m.to_address.startswith("ana") else bo) for m in sent}
    assert len(keys) == 2
    # The same tick again, as if its first run had queued the mails but lost its bookkeeping.
    session.execute(update(Game).where(Game.id == game.id).values(reminded=None))
    session.commit()
    tick(session, at)
    assert len(mails(session, topic="reminder")) == 2


def test_a_missed_deadline_and_the_replacement_offer_are_keyed_with_the_seats_reply_address(app, session, ana):
    game = policy_game(session, ana, replace_after=1)  # Ana hosts and misses
    tick(session, game.deadline_at + SECOND)
    missed = mails(session, "ana@example.com", "missed")
    offers = mails(session, "ana@example.com", "replacement")
    assert len(missed) == 1 and len(offers) == 2  # as the host, and as the seat's player
    keys = {_seat_mail(app, session, row, game, ana) for row in missed + offers}
    assert len(keys) == 3


def test_under_wait_seat_and_host_each_get_one_keyed_mail(app, session, ana, bo):
    game = two_humans(session, ana, bo, on_missed="wait")
    play_own(session, game, ana)
    tick(session, fresh(session, game).deadline_at + SECOND)
    for person in (ana, bo):
        [row] = mails(session, person.primary_address, "missed")
        _seat_mail(app, session, row, game, person)


def test_who_turned_deadline_mails_off_gets_none(session, ana, bo):
    accounts.update_profile(session, bo, display_name="Bo", time_zone="UTC", notify_turn=False,
                            notify_results=True, notify_invites=True)
    game = two_humans(session, ana, bo, on_missed="wait")
    play_own(session, game, ana)
    tick(session, fresh(session, game).deadline_at + SECOND)
    assert [m.to_address for m in mails(session, topic="missed")] == ["ana@example.com"]


def test_each_extension_pause_and_resume_is_its_own_keyed_mail(app, session, ana, bo):
    game = two_humans(session, ana, bo)
    now = game.decision_at + HOUR
    deadlines.extend_deadline(session, game.id, ana, 12, now)
    deadlines.extend_deadline(session, game.id, ana, 12, now)
    deadlines.pause_game(session, game.id, ana, now)
    deadlines.resume_game(session, game.id, ana, now + HOUR)
    rows = mails(session, "bo@example.com", "deadline")
    title = game.title
    assert [r.subject for r in rows] == [f"{title}: deadline extended"] * 2 + [f"{title} is paused",
                                                                               f"{title} is running again"]
    assert len({_seat_mail(app, session, row, fresh(session, game), bo) for row in rows}) == 4


def test_a_refused_queued_turn_is_told_in_a_keyed_mail(app, session, ana):
    game = policy_game(session, ana, bots=("heuristic", "random"))
    turn_queue.queue_turns(session, game.id, ana, "place 5 eagle 6\nplace 7")  # no Eagle card in age 1
    play_own(session, game, ana)
    [row] = mails(session, "ana@example.com", "queue-error")
    _seat_mail(app, session, row, game, ana)


def test_an_invitation_is_keyed_per_game_and_invitee(app, session, ana):
    game = policy_game(session, ana, invites=("cy@example.com",))
    other = policy_game(session, ana, invites=("cy@example.com",))
    lobby._mail_invitation(session, fresh(session, game), ana, "cy@example.com", "http://pbem.test")  # a retry
    session.commit()
    rows = mails(session, "cy@example.com", "invitation")
    assert len(rows) == 2  # one per game
    keys = {session.get(MailDelivery, row.id).key for row in rows}
    assert {key.split(":")[1] for key in keys} == {str(game.id), str(other.id)}
    assert not any("cy@example.com" in key for key in keys)
