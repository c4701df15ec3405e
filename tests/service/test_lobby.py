"""The lobby: create (with bots, invitations, options, deadlines), invite, join, start, lists."""
from __future__ import annotations

import pytest
from sqlalchemy import select

from pbem.models import Game, OutboxMessage
from pbem.services import lobby
from pbem.services.errors import Conflict, Forbidden, Invalid
from service_helpers import BASE_URL, make_game, make_user, submit, web_sign_in


def new_game(client, **fields):
    defaults = {"title": "Friday game", "players": "3", "bots": "1", "invites": "bo@example.com"}
    return submit(client, "/games/new", "/games/new", **{**defaults, **fields})


def test_creating_a_game_from_the_form_reserves_seats_and_mails_the_invitation(app, client, session):
    web_sign_in(client, app, "ana@example.com")
    page = new_game(client, bot_kind="random", final_tiebreak="top", hours_turn="12", hours_power="")
    assert page.status_code == 200 and b"Game created" in page.data
    game = session.scalar(select(Game))
    assert (game.status, game.title, game.setup["options"]) == ("open", "Friday game", {
        "eagle_placement": "anywhere", "final_tiebreak": "top", "deck_exhausted": "reshuffle",
        "offerings_beyond_five": "square", "tie_window": "each-leader"})
    assert game.deadline_policy["hours"]["turn"] == 12 and game.deadline_policy["hours"]["power"] is None
    assert [seat.label for seat in game.seats] == ["ana", "random bot", "invited"]
    mail = session.scalar(select(OutboxMessage).where(OutboxMessage.to_address == "bo@example.com"))
    assert f"{BASE_URL}/games/{game.id}" in mail.body and "Friday game" in mail.subject
    assert b"invited" in page.data and b"Join this game" not in page.data


@pytest.mark.parametrize("fields, message", [
    ({"players": "5"}, b"for 2 to 4 players"),
    ({"title": "   "}, b"a title has 1 to 100 characters"),
    ({"players": "2", "bots": "1", "invites": "bo@example.com"}, b"do not fit in 2 seats"),
    ({"invites": "bo@example.com, bo@example.com", "bots": "0"}, b"invited twice"),
    ({"board": "atlantis"}, b"no board named"),
    ({"hours_turn": "9999"}, b"1 to 336 hours"),
])
def test_a_bad_game_is_refused_with_a_reason(app, client, session, fields, message):
    web_sign_in(client, app, "ana@example.com")
    page = new_game(client, **fields)
    assert page.status_code == 422 and message in page.data
    assert session.scalar(select(Game)) is None


def test_invited_seats_are_kept_for_the_invited_and_the_game_starts_when_full(app, session):
    ana, bo, eve = (make_user(session, f"{n}@example.com", n.title()) for n in ("ana", "bo", "eve"))
    game = make_game(session, ana, bots=(), invites=["bo@example.com"])
    assert lobby.open_games(session, eve) == [game]
    lobby.join_game(session, game.id, eve)
    assert lobby.open_games(session, eve) == []
    assert lobby.open_games(session, bo) == [game]  # the invited seat is still Bo's
    with pytest.raises(Conflict, match="no open seat"):
        lobby.join_game(session, game.id, make_user(session, "zed@example.com"))
    lobby.join_game(session, game.id, bo)
    session.refresh(game)
    assert game.status == Game.ACTIVE and game.started_at is not None
    assert sorted(p["name"] for p in game.setup["players"]) == ["Ana", "Bo", "Eve"]
    assert {seat.name for seat in game.seats} == {p["seat"] for p in game.setup["players"]}
    with pytest.raises(Conflict, match="not open"):
        lobby.join_game(session, game.id, make_user(session, "late@example.com"))


def test_join_and_leave_from_the_game_page(app, client, session):
    ana = make_user(session, "ana@example.com", "Ana")
    game = make_game(session, ana, bots=(), players=3)
    web_sign_in(client, app, "bo@example.com")
    page = submit(client, f"/games/{game.id}", f"/games/{game.id}/join")
    assert b"You joined the game" in page.data and b"(you)" in page.data
    assert client.post(f"/games/{game.id}/join", data={}).status_code == 400  # no CSRF token
    page = submit(client, f"/games/{game.id}", f"/games/{game.id}/leave")
    assert b"You left the game" in page.data
    session.expire_all()
    assert [seat.user_id for seat in session.get(Game, game.id).seats] == [ana.id, None, None]


def test_only_players_invite_and_only_the_creator_cancels(session):
    ana, bo = make_user(session, "ana@example.com"), make_user(session, "bo@example.com")
    game = make_game(session, ana, bots=(), players=3)
    with pytest.raises(Forbidden):
        lobby.invite(session, game.id, bo, "cy@example.com", base_url=BASE_URL)
    seat = lobby.invite(session, game.id, ana, "Cy@Example.com", base_url=BASE_URL)
    assert seat.invited_email == "cy@example.com"
    with pytest.raises(Conflict, match="invited already"):
        lobby.invite(session, game.id, ana, "cy@example.com", base_url=BASE_URL)
    lobby.join_game(session, game.id, bo)
    with pytest.raises(Forbidden):
        lobby.cancel_game(session, game.id, bo)
    lobby.cancel_game(session, game.id, ana)
    assert session.get(Game, game.id).status == Game.ABORTED
    assert lobby.open_games(session) == []


def test_game_lists(session):
    ana, bo = make_user(session, "ana@example.com"), make_user(session, "bo@example.com")
    running = make_game(session, ana, title="running")
    waiting = make_game(session, ana, bots=(), players=2, title="waiting")
    assert lobby.waiting_for(session, ana) == [running]
    assert {g.title for g in lobby.my_games(session, ana)} == {"running", "waiting"}
    assert lobby.my_games(session, bo) == [] and lobby.waiting_for(session, bo) == []
    assert lobby.open_games(session, bo) == [waiting] and lobby.open_games(session, ana) == []
    assert lobby.finished_games(session) == []


def test_deadline_policies_are_checked():
    defaults = {"power": 48, "turn": 24, "conflict": 24, "reaction": 24, "scoring": 24}  # Aztlán's
    assert lobby.deadline_policy(None)["hours"] == defaults
    assert lobby.deadline_policy({"hours": {"scoring": None}, "on_missed": "wait"}) == {
        "hours": {**defaults, "scoring": None}, "on_missed": "wait"}
    for bad in ({"hours": {"lunch": 3}}, {"hours": {"turn": 0}}, {"on_missed": "explode"}, {"grace": 1}):
        with pytest.raises(Invalid):
            lobby.deadline_policy(bad)


def test_rule_options_are_checked_by_the_engine(session):
    ana = make_user(session, "ana@example.com")
    with pytest.raises(Invalid, match="final_tiebreak"):
        make_game(session, ana, options={"final_tiebreak": "coin"})


def test_hostile_names_and_titles_are_escaped_everywhere(app, client, session):
    ana = make_user(session, "ana@example.com", "<b>Ana</b>")
    hostile = "<script>alert(1)</script>"
    running = make_game(session, ana, title=hostile)
    waiting = make_game(session, ana, bots=(), title=hostile)
    for url in ("/", f"/games/{running.id}", f"/games/{waiting.id}"):
        body = client.get(url).data
        assert b"<script>alert(1)" not in body and b"&lt;script&gt;alert(1)" in body, url
        assert b"<b>Ana</b>" not in body
    assert b"&lt;b&gt;Ana&lt;/b&gt;" in client.get(f"/games/{running.id}").data


def test_no_invitation_mail_for_those_who_turned_them_off(session):
    ana, bo = make_user(session, "ana@example.com"), make_user(session, "bo@example.com", "Bo")
    bo.notify_invites = False
    session.commit()
    game = make_game(session, ana, bots=(), invites=["bo@example.com", "cy@example.com"])
    invited = session.scalars(select(OutboxMessage.to_address).where(OutboxMessage.topic == "invitation")).all()
    assert invited == ["cy@example.com"]
    assert lobby.open_games(session, bo) == [game]  # the seat is still kept for Bo


def test_deadline_policies_follow_the_game():
    # The test game's kinds and hours, not Aztlán's.
    assert lobby.deadline_policy(None, "duel")["hours"] == {"bid": 24, "pick": 12}
    with pytest.raises(Invalid, match="unknown kind of decision 'power'; known: bid, pick"):
        lobby.deadline_policy({"hours": {"power": 3}}, "duel")
    with pytest.raises(Invalid, match="unknown game 'chess'"):
        lobby.deadline_policy(None, "chess")
