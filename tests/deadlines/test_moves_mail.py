"""Opponents' moves by mail (pbem/services/moves_mail.py): "each", "digest" and "off"; the
daily digest driven by the tick's controllable clock.

The invariant behind most tests: every event a reader may see and did not do themselves is
told to them exactly once, in order, across their "moves" mails and the "since your last
news" part of their turn mails."""
from __future__ import annotations

from datetime import datetime, timedelta, timezone
from zoneinfo import ZoneInfo

import pytest
from sqlalchemy import select, update
from sqlalchemy.orm import Session

from pbem.games.aztlan.sentences import describe_all
from pbem.outbox.delivery import build
from pbem.outbox.seat_tokens import seat_reply_address
from pbem.outbox.models import MailDelivery
from pbem.outbox.settings import load
from pbem.models import Seat, User
from pbem.services import accounts, advance, play
from pbem.services.errors import Invalid
from pbem.services.kinds import decision_kinds
from pbem.services.state import game_state
from deadline_helpers import HOUR, SECOND, fresh, mails, owes, pending, play_own, seat_of, tick, two_humans
from service_helpers import submit, web_sign_in

NO_DEADLINES = {kind: None for kind in decision_kinds("aztlan")}  # only the digest acts on the clock here
PARIS = ZoneInfo("Europe/Paris")
RECAP = "Since your last news:"


def prefer(session, user, moves, *, zone="UTC", hour=8, turn_mails=True):
    accounts.update_profile(session, user, display_name=user.display_name, time_zone=zone, notify_turn=turn_mails,
                            notify_results=True, notify_invites=True, opponent_moves=moves, digest_hour=hour)


def game_of(session, ana, bo):
    return two_humans(session, ana, bo, hours=NO_DEADLINES)


def play_rounds(session, game, people, rounds):
    """Each of `people` plays what they owe, `rounds` times over."""
    for _ in range(rounds):
        for person in people:
            if owes(session, game, person) and not pending(session, game, person):
                play_own(session, game, person)


def moves_mails(session, user):
    return mails(session, to=user.primary_address, topic="moves")


def news(body):
    return [line for line in body.splitlines() if line.startswith("  ")]


def told(session, user, game=None):
    """The news lines mailed to `user` (of `game`'s section only, if given), oldest first."""
    lines = []
    for mail in mails(session, to=user.primary_address):
        if mail.topic == "turn" and RECAP in mail.body and (game is None or f"(game {game.id})" in mail.subject):
            lines += news(mail.body.split(RECAP, 1)[1])
        elif mail.topic == "moves":
            for section in mail.body.split("\n\n"):
                if game is None or f"(game {game.id})" in section.split("\n", 1)[0] + mail.subject:
                    lines += news(section)
    return lines


def expected(session, game, user):
    """Everything the reader's own view lists that others did, worded as on the game page."""
    view = play.game_view(session, fresh(session, game), user).view
    names = {p["seat"]: p["name"] for p in fresh(session, game).setup["players"]}
    state = game_state(session, fresh(session, game))
    public = [e for e in view["events"] if not e["type"].startswith("my-")]  # private events are never mailed
    texts = describe_all(public, names, {t.id: t.name for t in state.board.territories})
    mine = (f"{user.display_name} ", "You ")
    return [f"  age {e['age']}: {e['text']}" if e["age"] else f"  {e['text']}" for e in texts
            if not e["text"].startswith(mine) and f": {user.display_name} draws nothing" not in e["text"]]


def next_local(zone, hour):
    """The next time it is `hour`:00 in `zone`, as aware UTC."""
    local = datetime.now(timezone.utc).astimezone(zone)
    at = local.replace(hour=hour, minute=0, second=0, microsecond=0)
    if at <= local:
        at = (at + timedelta(days=1)).replace(hour=hour)
    return at.astimezone(timezone.utc)


# ---- "each" ----------------------------------------------------------------------------------

def test_each_tells_every_opponent_move_once_and_never_the_readers_own(session, ana, bo):
    prefer(session, ana, "each")
    game = game_of(session, ana, bo)
    play_rounds(session, game, [ana, bo], 6)
    sent = moves_mails(session, ana)
    assert len(sent) >= 2  # one per advance with news, not one per game
    assert told(session, ana) == expected(session, game, ana)
    assert any("Bo placed a pawn" in line for line in told(session, ana))
    assert not any("Ana placed" in line or "You " in line for line in told(session, ana))
    assert all(RECAP not in m.body for m in mails(session, to=ana.primary_address, topic="turn"))
    # Bo kept the default (digest): no mail after each move.
    assert moves_mails(session, bo) == []
    # Advancing again, nothing new: nothing more.
    advance.advance(session, game.id)
    assert len(moves_mails(session, ana)) == len(sent)


def test_each_mail_keys_name_the_game_the_seat_and_the_events(session, ana, bo):
    """...and a reply to one acts for the reader's seat: Reply-To is its token address."""
    prefer(session, ana, "each")
    game = game_of(session, ana, bo)
    play_rounds(session, game, [ana, bo], 3)
    extras = [session.get(MailDelivery, m.id) for m in moves_mails(session, ana)]
    keys = [extra.key for extra in extras]
    seat = next(s for s in fresh(session, game).seats if s.user_id == ana.id)
    seat_name = seat.name
    assert {extra.reply_to for extra in extras} == {seat_reply_address(session, seat)}
    assert keys and all(key.startswith(f"moves:{game.id}:{seat_name}:") for key in keys)
    ranges = [tuple(map(int, key.rsplit(":", 1)[1].split("-"))) for key in keys]
    assert all(a < b for a, b in ranges) and all(prev[1] == nxt[0] for prev, nxt in zip(ranges, ranges[1:]))


# ---- "off" -----------------------------------------------------------------------------------

def test_off_sends_nothing_about_opponents(session, ana, bo):
    prefer(session, ana, "off")
    game = game_of(session, ana, bo)
    play_rounds(session, game, [ana, bo], 5)
    at = next_local(ZoneInfo("UTC"), 8)
    assert ana.id not in tick(session, at).digests
    assert moves_mails(session, ana) == []
    assert told(session, bo)  # Bo kept the default: he heard of them (turn-mail recaps, digest)
    assert mails(session, to=ana.primary_address, topic="turn")  # turn mails still come
    assert told(session, ana) == []


# ---- "digest" ---------------------------------------------------------------------------------

def test_a_digest_bundles_several_games_once_a_day_at_the_local_hour(session, ana, bo):
    prefer(session, ana, "digest", zone="Europe/Paris", hour=8, turn_mails=False)
    prefer(session, bo, "off")
    first = game_of(session, ana, bo)
    second = game_of(session, ana, bo)
    for game in (first, second):
        play_rounds(session, game, [ana, bo], 4)
    assert moves_mails(session, ana) == []  # nothing until the hour
    eight = next_local(PARIS, 8)
    assert tick(session, eight - timedelta(minutes=1)).digests == []
    assert moves_mails(session, ana) == []

    assert tick(session, eight).digests == [ana.id]
    [digest] = moves_mails(session, ana)
    assert f"(game {first.id})" in digest.body and f"(game {second.id})" in digest.body
    assert eight.astimezone(PARIS).date().isoformat() in digest.subject
    for game in (first, second):
        assert told(session, ana, game) == expected(session, game, ana)
    # Once a day: later ticks that day send nothing.
    assert tick(session, eight + HOUR / 2).digests == []
    assert tick(session, eight + 15 * HOUR).digests == []
    # The next day, nothing new: no mail at all.
    assert tick(session, eight + 24 * HOUR).digests == []
    assert len(moves_mails(session, ana)) == 1
    # New moves in one game: the day after, a digest with that game only, and only the new moves.
    play_rounds(session, first, [ana, bo], 3)
    assert tick(session, eight + 48 * HOUR).digests == [ana.id]
    latest = moves_mails(session, ana)[-1]
    assert f"(game {first.id})" in latest.body and f"(game {second.id})" not in latest.body
    assert told(session, ana, first) == expected(session, first, ana)


def test_a_digest_whose_day_mark_was_lost_is_not_mailed_twice(session, ana, bo):
    """The day's mail is keyed per person and local day: if the "done today" mark is lost (a
    restore, a hand edit), the next tick finds the key taken and queues no second mail."""
    prefer(session, ana, "digest", zone="Europe/Paris", hour=8, turn_mails=False)
    prefer(session, bo, "off")
    game = game_of(session, ana, bo)
    play_rounds(session, game, [ana, bo], 3)
    eight = next_local(PARIS, 8)
    assert tick(session, eight).digests == [ana.id]
    session.execute(update(User).where(User.id == ana.id).values(digest_on=None))
    session.execute(update(Seat).where(Seat.user_id == ana.id).values(events_reported=0))
    session.commit()
    assert tick(session, eight + HOUR).digests == [ana.id]
    assert len(moves_mails(session, ana)) == 1
    session.expire_all()
    assert session.get(User, ana.id).digest_on == eight.astimezone(PARIS).date()


def test_the_digest_hour_is_the_readers_local_hour(session, ana, bo):
    prefer(session, ana, "digest", zone="Asia/Tokyo", hour=21, turn_mails=False)
    prefer(session, bo, "off")
    game = game_of(session, ana, bo)
    play_rounds(session, game, [ana, bo], 3)
    nine_pm = next_local(ZoneInfo("Asia/Tokyo"), 21)
    assert nine_pm.hour == 12  # 21:00 in Tokyo is noon UTC
    assert tick(session, nine_pm - timedelta(seconds=30)).digests == []
    assert tick(session, nine_pm).digests == [ana.id]


def test_a_digest_waits_while_an_advance_holds_the_readers_seat_on_postgresql(session, ana, bo):
    if session.get_bind().dialect.name != "postgresql":
        pytest.skip("SQLite has one write lock: a second writer waits instead of skipping")
    prefer(session, ana, "digest", hour=8, turn_mails=False)
    prefer(session, bo, "off")
    game = game_of(session, ana, bo)
    play_rounds(session, game, [ana, bo], 3)
    eight = next_local(ZoneInfo("UTC"), 8)
    seat = next(s for s in fresh(session, game).seats if s.user_id == ana.id)
    with Session(session.get_bind()) as holder:
        holder.execute(update(Seat).where(Seat.id == seat.id).values(events_reported=Seat.events_reported))
        assert tick(session, eight).digests == []  # skipped, not waited for: no deadlock
        holder.rollback()
    assert moves_mails(session, ana) == []
    assert tick(session, eight + SECOND).digests == [ana.id]
    assert told(session, ana) == expected(session, game, ana)


def test_a_turn_mail_tells_what_happened_since_and_the_digest_does_not_repeat_it(session, ana, bo):
    prefer(session, ana, "digest", hour=8)
    game = game_of(session, ana, bo)
    play_rounds(session, game, [ana, bo], 5)
    recaps = [m for m in mails(session, to=ana.primary_address, topic="turn") if RECAP in m.body]
    assert recaps and any("Bo " in line for m in recaps for line in news(m.body))
    tick(session, next_local(ZoneInfo("UTC"), 8))
    assert told(session, ana) == expected(session, game, ana)  # each event once, in either mail


def test_no_mail_ever_holds_what_the_reader_may_not_see(session, ana, bo):
    """The mails are read from the reader's own view, not another seat's.  Public events are
    the same in every view and private ones are never told, so what tells them apart is the
    count: once a seat has had a private event the reader has not (the bot skips a scoring
    turn), another seat's view would move the reader's cursor wrongly and skip or repeat news."""
    prefer(session, ana, "each")
    game = game_of(session, ana, bo)
    differed = False
    for _ in range(30):
        play_rounds(session, game, [ana, bo], 1)
        state = game_state(session, fresh(session, game))
        seat = seat_of(session, game, ana)
        assert seat.events_reported == len(state.events_for(state.seats.index(seat.name)))
        differed |= len({len(state.events_for(index)) for index in range(len(state.seats))}) > 1
    assert differed, "the views never differed: this test could not tell them apart"
    assert told(session, ana) == expected(session, game, ana)
    bodies = "\n".join(m.body for m in mails(session, to=ana.primary_address))
    assert "You chose power card" not in bodies and "You drew" not in bodies and "Your scoring" not in bodies
    assert "has chosen a power card" in bodies


def test_a_hostile_player_name_is_plain_text_on_one_line(session, ana, bo):
    hostile = '<img src="file:///etc/passwd"> Bo & co\nSince your last news:'
    accounts.update_profile(session, bo, display_name=hostile, time_zone="UTC", notify_turn=True,
                            notify_results=True, notify_invites=True)
    prefer(session, ana, "each")
    game = game_of(session, ana, bo)
    play_rounds(session, game, [ana, bo], 4)
    flat = " ".join(hostile.split())
    lines = told(session, ana)
    assert any(line.startswith("  age ") and flat in line for line in lines)
    assert not any("&lt;" in m.body or "&amp;" in m.body for m in moves_mails(session, ana))
    assert all(session.scalar(select(MailDelivery.html).where(MailDelivery.outbox_id == m.id)) is None
               for m in moves_mails(session, ana))


# ---- preferences ---------------------------------------------------------------------------

def test_the_default_is_the_digest_at_eight(session, ana):
    assert (ana.opponent_moves, ana.digest_hour) == ("digest", 8)


@pytest.mark.parametrize("moves, hour", [("sometimes", 8), ("each", 24), ("each", "7am"), ("each", -1)])
def test_bad_preferences_are_refused_and_change_nothing(session, ana, moves, hour):
    with pytest.raises(Invalid):
        accounts.update_profile(session, ana, display_name="Changed", time_zone="UTC", notify_turn=False,
                                notify_results=True, notify_invites=True, opponent_moves=moves, digest_hour=hour)
    session.expire_all()
    user = session.get(User, ana.id)
    assert (user.display_name, user.notify_turn, user.opponent_moves, user.digest_hour) == ("Ana", True, "digest", 8)


def test_the_profile_page_and_the_api_show_and_change_the_preference(app, client, session):
    web_sign_in(client, app, "cy@example.com")
    response = submit(client, "/profile", "/profile", display_name="Cy", opponent_moves="each", digest_hour="19")
    assert b"Profile saved." in response.data
    user = session.scalar(select(User).where(User.display_name == "Cy"))
    assert (user.opponent_moves, user.digest_hour) == ("each", 19)
    refused = submit(client, "/profile", "/profile", follow=False, display_name="Cy", opponent_moves="each",
                     digest_hour="25")
    assert refused.status_code == 422
    session.expire_all()
    assert session.get(User, user.id).digest_hour == 19
    token = accounts.create_api_token(session, user, "test")[1]
    me = client.get("/api/me", headers={"Authorization": f"Bearer {token}"}).get_json()
    assert (me["opponent_moves"], me["digest_hour"]) == ("each", 19)


def test_a_moves_mail_can_be_unsubscribed_in_one_click(app, client, session, ana, bo):
    prefer(session, ana, "each")
    game = game_of(session, ana, bo)
    play_rounds(session, game, [ana, bo], 3)
    row = moves_mails(session, ana)[0]
    settings = load(app.config)
    header = build(session, row, session.get(MailDelivery, row.id), settings)["List-Unsubscribe"]
    assert client.post(header.strip("<>").split(settings.base_url, 1)[1]).status_code == 200
    session.expire_all()
    assert session.get(User, ana.id).opponent_moves == "off"
    before = len(moves_mails(session, ana))
    play_rounds(session, game, [ana, bo], 3)
    assert len(moves_mails(session, ana)) == before
