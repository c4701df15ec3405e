"""Press: messages to the whole table or privately to one seat, on the web and the API.

A table of three people (Ana hosts, Bo, Cy) and Eve watching.  A private message is read by
its two seats only: never by the third seat, an observer, the API history, the record or any
mail to someone else.  Mutes, reports, the host's switch, the press rules, the limits and
hostile text."""
from __future__ import annotations

import json
from typing import Any

import pytest
from sqlalchemy import select

from pbem.models import Game, OutboxMessage, PressMessage, PressReport
from pbem.outbox.models import MailDelivery
from pbem.services import accounts, lobby, press, resign
from pbem.services.errors import Conflict
from pbem.models import now
from service_helpers import forms, make_game, make_user, web_sign_in

SECRET = "meet me at the volcano, just us two"


@pytest.fixture
def table(app: Any, session: Any) -> dict[str, Any]:
    people = {name: make_user(session, f"{name}@example.com", name.title()) for name in ("ana", "bo", "cy", "eve")}
    game = make_game(session, people["ana"], players=3, bots=(), invites=["bo@example.com", "cy@example.com"])
    for name in ("bo", "cy"):
        lobby.join_game(session, game.id, people[name])
    session.expire_all()
    game = session.get(Game, game.id)
    assert game.status == Game.ACTIVE and game.press_rule == "all"
    seats = {name: next(s.name for s in game.seats if s.user_id == people[name].id) for name in ("ana", "bo", "cy")}
    tokens = {name: {"Authorization": f"Bearer {accounts.create_api_token(session, people[name], 't')[1]}"}
              for name in people}
    return {"game_id": game.id, "people": people, "seats": seats, "tokens": tokens,
            "url": f"/api/games/{game.id}/press"}


def send(client: Any, table: dict[str, Any], who: str, text: str, to: str | None = None) -> Any:
    return client.post(table["url"], json={"text": text, "to": to}, headers=table["tokens"][who])


def read(client: Any, table: dict[str, Any], who: str | None) -> dict[str, Any]:
    answer = client.get(table["url"], headers=table["tokens"][who] if who else {})
    assert answer.status_code == 200
    return answer.json


def texts(listing: dict[str, Any]) -> list[str]:
    return [m["text"] for m in listing["messages"]]


def mails_to(session: Any, address: str) -> list[OutboxMessage]:
    session.expire_all()
    return list(session.scalars(select(OutboxMessage).where(OutboxMessage.to_address == address,
                                                            OutboxMessage.topic == "press")))


def test_public_press_by_api_reaches_every_seat_and_observers_and_each_player_by_mail(client, session, table):
    sent = send(client, table, "ana", "Hello table!\nGood luck.")
    assert sent.status_code == 201, sent.json
    assert sent.json["to"] is None and sent.json["seat"] == table["seats"]["ana"] and sent.json["author"] == "Ana"
    for who in ("ana", "bo", "cy", "eve", None):
        assert texts(read(client, table, who)) == ["Hello table!\nGood luck."]
    assert mails_to(session, "ana@example.com") == []  # never to the author
    for name in ("bo", "cy"):
        [mail] = mails_to(session, f"{name}@example.com")
        assert "Hello table!\nGood luck." in mail.body and "answer the whole table" in mail.body
        reply_to = session.get(MailDelivery, mail.id).reply_to
        assert reply_to.startswith("press+")


def test_a_private_message_is_read_by_its_two_seats_only(client, session, table):
    bo = table["seats"]["bo"]
    sent = send(client, table, "ana", SECRET, to=bo.upper())  # seat names in any case
    assert sent.status_code == 201 and sent.json["to"] == bo
    assert texts(read(client, table, "ana")) == [SECRET] and texts(read(client, table, "bo")) == [SECRET]
    for who in ("cy", "eve", None):
        assert SECRET not in json.dumps(read(client, table, who))
    # Not in the API history or view of anyone, the author included (press is not an event).
    for who in ("ana", "bo", "cy", "eve"):
        for what in ("history", "view", "deadline"):
            page = client.get(f"/api/games/{table['game_id']}/{what}", headers=table["tokens"][who])
            assert SECRET not in page.get_data(as_text=True)
    # The web page: Bo reads it, Cy and a stranger do not.
    pages = {}
    for who in ("bo", "cy", "eve"):
        browser = client.application.test_client()
        web_sign_in(browser, client.application, f"{who}@example.com")
        pages[who] = browser.get(f"/games/{table['game_id']}").get_data(as_text=True)
    assert SECRET in pages["bo"] and "privately to" in pages["bo"]
    assert SECRET not in pages["cy"] and SECRET not in pages["eve"]
    assert SECRET not in client.get(f"/games/{table['game_id']}").get_data(as_text=True)
    # Mail: to Bo only, with a reply address of the private thread.
    assert [m.to_address for m in session.scalars(select(OutboxMessage).where(
        OutboxMessage.body.contains(SECRET)))] == ["bo@example.com"]
    # The finished game's record (everyone resigns; bots play on to the end) holds no press.
    assert send(client, table, "cy", "good game").status_code == 201
    for who in ("ana", "bo", "cy"):
        resign.resign_seat(session, table["game_id"], table["people"][who], now())
    session.expire_all()
    assert session.get(Game, table["game_id"]).status == Game.FINISHED
    record = client.get(f"/games/{table['game_id']}/record.json").get_data(as_text=True)
    assert record.startswith("{") and SECRET not in record
    assert SECRET not in client.get(f"/api/games/{table['game_id']}/record").get_data(as_text=True)
    # Finished games keep their press: the public part for everyone; the private part goes with
    # the seats, which nobody plays now that they resigned.
    for who in ("ana", "bo", "eve", None):
        assert texts(read(client, table, who)) == ["good game"]


def test_web_press_to_all_and_to_one_seat(app, client, session, table):
    web_sign_in(client, app, "ana@example.com")
    page = client.get(f"/games/{table['game_id']}").get_data(as_text=True)
    [form] = [f for f in forms(page) if f.action.endswith("/press")]
    assert set(form.options("to")) == {"all", table["seats"]["bo"], table["seats"]["cy"]}
    answer = client.post(form.action, data={**form.data(), "text": "to all <b>bold</b>"}, follow_redirects=True)
    assert answer.status_code == 200 and "Message sent to the whole table" in answer.get_data(as_text=True)
    assert "to all &lt;b&gt;bold&lt;/b&gt;" in answer.get_data(as_text=True)  # escaped, never markup
    answer = client.post(form.action, data={**form.data(), "to": table["seats"]["cy"], "text": "psst"},
                         follow_redirects=True)
    assert "privately" in answer.get_data(as_text=True)
    assert texts(read(client, table, "cy")) == ["to all <b>bold</b>", "psst"]
    assert texts(read(client, table, "bo")) == ["to all <b>bold</b>"]


def test_a_muted_seat_is_neither_read_nor_mailed(client, session, table):
    cy = table["seats"]["cy"]
    muted = client.post(f"{table['url']}/mute", json={"seat": cy}, headers=table["tokens"]["bo"])
    assert muted.status_code == 200 and muted.json["muted"] == [cy]
    assert send(client, table, "cy", "spam spam").status_code == 201
    assert texts(read(client, table, "bo")) == [] and texts(read(client, table, "ana")) == ["spam spam"]
    assert mails_to(session, "bo@example.com") == [] and len(mails_to(session, "ana@example.com")) == 1
    unmuted = client.post(f"{table['url']}/mute", json={"seat": cy, "mute": False}, headers=table["tokens"]["bo"])
    assert unmuted.json["muted"] == [] and texts(read(client, table, "bo")) == ["spam spam"]
    own = client.post(f"{table['url']}/mute", json={"seat": table["seats"]["bo"]}, headers=table["tokens"]["bo"])
    assert own.status_code == 422


def test_notify_press_off_sends_no_press_mail(client, session, table):
    bo = table["people"]["bo"]
    accounts.update_profile(session, bo, display_name="Bo", time_zone="UTC", notify_turn=True, notify_results=True,
                            notify_invites=True, notify_press=False)
    assert send(client, table, "ana", "hi").status_code == 201
    assert mails_to(session, "bo@example.com") == [] and len(mails_to(session, "cy@example.com")) == 1


def test_a_report_reaches_the_operators_who_can_hide_the_message(app, client, session, table, monkeypatch):
    monkeypatch.setitem(app.config, "PBEM_OPERATORS", "eve@example.com")
    message_id = send(client, table, "cy", "rude words").json["id"]
    report_url = f"{table['url']}/{message_id}/report"
    assert client.post(report_url, json={"reason": "insults"}, headers=table["tokens"]["bo"]).status_code == 201
    assert client.post(report_url, json={"reason": "again"}, headers=table["tokens"]["bo"]).status_code == 409
    private = send(client, table, "cy", "for ana only", to=table["seats"]["ana"]).json["id"]
    # A message one cannot read cannot be reported (nor learnt about).
    assert client.post(f"{table['url']}/{private}/report", json={"reason": "x"},
                       headers=table["tokens"]["bo"]).status_code == 404
    operator = app.test_client()
    web_sign_in(operator, app, "eve@example.com")
    listing = operator.get("/admin/press").get_data(as_text=True)
    assert "rude words" in listing and "insults" in listing
    bo_browser = app.test_client()
    web_sign_in(bo_browser, app, "bo@example.com")
    assert bo_browser.get("/admin/press").status_code == 403
    [report] = session.scalars(select(PressReport))
    hidden = operator.post(f"/admin/press/{report.id}/hide", data={"csrf_token": _csrf(operator)})
    assert hidden.status_code == 302
    assert texts(read(client, table, "ana")) == ["for ana only"] and texts(read(client, table, "bo")) == []


def _csrf(browser: Any) -> str:
    page = browser.get("/profile").get_data(as_text=True)
    return next(f.data()["csrf_token"] for f in forms(page) if "csrf_token" in f.data())


def test_the_host_switches_press_off_and_new_press_is_refused_clearly(client, session, table):
    switch = f"{table['url']}/switch"
    assert client.post(switch, json={"off": True}, headers=table["tokens"]["bo"]).status_code == 403
    assert client.post(switch, json={"off": True}, headers=table["tokens"]["ana"]).json["off"] is True
    refused = send(client, table, "bo", "still there?")
    assert refused.status_code == 409 and "host switched press off" in refused.json["message"]
    assert session.scalar(select(PressMessage.id)) is None
    assert client.post(switch, json={"off": False}, headers=table["tokens"]["ana"]).json["can_send"] is True
    assert send(client, table, "bo", "back").status_code == 201


@pytest.mark.parametrize("rule", ["none", "public"])
def test_the_press_rule_chosen_at_creation_is_enforced(client, session, rule):
    ana = make_user(session, "ana@example.com", "Ana")
    headers = {"Authorization": f"Bearer {accounts.create_api_token(session, ana, 't')[1]}"}
    game = client.post("/api/games", json={"title": "Quiet", "players": 3, "bots": ["heuristic", "random"],
                                           "press": rule}, headers=headers).json
    assert game["press_rule"] == rule
    url = f"/api/games/{game['id']}/press"
    other = game["seats"][1]["name"]
    private = client.post(url, json={"text": "deal?", "to": other}, headers=headers)
    assert private.status_code == 409
    public = client.post(url, json={"text": "hello"}, headers=headers)
    assert public.status_code == (409 if rule == "none" else 201)
    assert ("no press" in private.json["message"]) if rule == "none" else ("public press only" in private.json["message"])
    bad = client.post("/api/games", json={"title": "X", "press": "loud"}, headers=headers)
    assert bad.status_code == 422


def test_press_is_rate_limited_on_the_web_and_api(app, client, session, table):
    app.config["PBEM_PRESS_LIMIT"] = "2 per minute"
    try:
        assert [send(client, table, "bo", f"m{n}").status_code for n in range(3)] == [201, 201, 429]
        web_sign_in(client, app, "cy@example.com")
        page = client.get(f"/games/{table['game_id']}").get_data(as_text=True)
        [form] = [f for f in forms(page) if f.action.endswith("/press")]
        codes = [client.post(form.action, data={**form.data(), "text": f"w{n}"}).status_code for n in range(3)]
        assert codes == [302, 302, 429]
    finally:
        app.config["PBEM_PRESS_LIMIT"] = "10 per minute"


def test_a_seat_has_an_hourly_limit_on_every_channel(app, client, session, table):
    app.config["PBEM_PRESS_PER_HOUR"] = 2
    try:
        codes = [send(client, table, "bo", f"m{n}").status_code for n in range(3)]
        assert codes == [201, 201, 429]
        refused = send(client, table, "bo", "one more")
        assert refused.json["error"] == "rate-limited" and "last hour" in refused.json["message"]
        with pytest.raises(press.PressLimited):
            with app.app_context():
                press.post(session, table["game_id"], table["people"]["bo"], "by mail", channel="email")
    finally:
        app.config["PBEM_PRESS_PER_HOUR"] = 30


def test_wrong_seat_and_observers_cannot_send(client, session, table):
    assert send(client, table, "eve", "I am watching").status_code == 403
    assert client.post(table["url"], json={"text": "anon"}).status_code == 401
    assert send(client, table, "ana", "x", to="nobody").status_code == 422
    assert send(client, table, "ana", "x", to=table["seats"]["ana"]).status_code == 422
    with pytest.raises(Conflict):  # a game that has not started has no press
        waiting = make_game(session, table["people"]["eve"], bots=(), title="Open")
        seat_game = session.get(Game, waiting.id)
        seat_game.seats[0].name = "x"
        press.post_for_seat(session, seat_game, seat_game.seats[0], "hello", to=None, channel="web")
    assert session.scalar(select(PressMessage.id)) is None


def test_hostile_text_is_cleaned_or_refused(app, client, session, table):
    cleaned = send(client, table, "ana", "a\u202eevil\u202c b\u200b\r\n\r\n\r\n\r\nline \u2066two\u2069")
    assert cleaned.status_code == 201 and cleaned.json["text"] == "aevil b\n\nline two"
    assert send(client, table, "ana", "x" * 2001).status_code == 422
    assert send(client, table, "ana", "a\x00b").status_code in (400, 422)
    assert send(client, table, "ana", "\u200b\u202e \n\n").status_code == 422  # nothing visible
    web_sign_in(client, app, "bo@example.com")
    html = "<script>alert(1)</script><img src=x onerror=alert(2)>"
    assert send(client, table, "cy", html).status_code == 201
    page = client.get(f"/games/{table['game_id']}").get_data(as_text=True)
    assert "<script>alert(1)" not in page and "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    [mail] = [m for m in mails_to(session, "bo@example.com") if "alert" in m.body]
    assert "\n" not in mail.subject and "\u202e" not in mail.body
    stored = session.scalars(select(PressMessage.text)).all()
    assert all("\u202e" not in text and "\u200b" not in text for text in stored)


def test_open_pages_learn_of_public_press_but_not_that_two_seats_talk(client, session, table):
    from pbem import live
    before = live.stamp(session, table["game_id"])
    assert send(client, table, "ana", "private", to=table["seats"]["bo"]).status_code == 201
    session.expire_all()
    assert live.stamp(session, table["game_id"]) == before
    assert send(client, table, "ana", "public").status_code == 201
    session.expire_all()
    assert live.stamp(session, table["game_id"]) != before
