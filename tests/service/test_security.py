"""Answers to hostile input, one case each: where sign-in sends the browser back to, what
sign-out ends, names that try to display as something else, ids and dates out of range,
JSON nested too deep, control characters (docs/service.md, "Security")."""
from __future__ import annotations


import pytest
from sqlalchemy import func, select, text

from pbem.extensions import db
from pbem.models import ApiToken, Game, OutboxMessage, User, Vacation, now
from pbem.services import accounts
from service_helpers import form_with, last_link, make_game, submit, web_sign_in

BIDI = "\u202e\u2066\u200b"


def sign_in_with_next(app, client, next_url):
    submit(client, "/signin?" + next_url, "/signin", email="ana@example.com")
    with app.app_context():
        link = last_link(db.session(), "ana@example.com")
    return client.post(link, data=form_with(client.get(link).data, link).data())


@pytest.mark.parametrize("target", ["next=/%09/evil.example", "next=/%0A/evil.example", "next=/%0D%0A/evil.example",
                                    "next=%2F%2Fevil.example", "next=/%5Cevil.example", "next=https://evil.example/",
                                    "next=/%E2%80%AE/evil.example", "next=%20//evil.example"])
def test_sign_in_sends_the_browser_only_to_a_local_page(app, client, target):
    assert sign_in_with_next(app, client, target).headers["Location"] == "/"


def test_sign_in_goes_back_to_the_page_that_asked(app, client):
    assert sign_in_with_next(app, client, "next=/profile%3Fx%3D1").headers["Location"] == "/profile?x=1"


def test_a_session_cookie_copied_before_sign_out_is_dead_after_it(app, client):
    web_sign_in(client, app, "ana@example.com")
    copied = client.get_cookie("session").value
    thief = app.test_client()
    thief.set_cookie("session", copied)
    assert thief.get("/profile").status_code == 200  # the copy works while the session lives
    page = client.get("/profile")
    client.post("/signout", data=form_with(page.data, "/signout").data())
    assert client.get("/profile").status_code == 302
    gone = thief.get("/profile")
    assert gone.status_code == 302 and "/signin" in gone.headers["Location"]


def test_sign_out_everywhere_on_the_profile_ends_every_browser_session(app, client):
    web_sign_in(client, app, "ana@example.com")
    laptop = app.test_client()
    web_sign_in(laptop, app, "ana@example.com")
    page = client.get("/profile")
    button = form_with(page.data, "/signout")
    assert b"Sign out everywhere" in page.data
    client.post(button.action, data=button.data())
    assert laptop.get("/profile").status_code == 302 and client.get("/profile").status_code == 302
    web_sign_in(laptop, app, "ana@example.com")  # signing in again works as before
    assert laptop.get("/profile").status_code == 200


def test_names_and_titles_show_no_invisible_formatting_anywhere(app, client, session, ana):
    """A row written before the rule (or by anything but the services) still shows clean."""
    game = make_game(session, ana, bots=("heuristic",), players=2, title="Plain")
    token, secret = accounts.create_api_token(session, ana, "bot")
    with app.app_context(), db.engine.begin() as connection:  # raw SQL: no model type in the way
        connection.execute(text("UPDATE users SET display_name = :v WHERE id = :id"),
                           {"v": f"An{BIDI}a\u2069", "id": ana.id})
        connection.execute(text("UPDATE games SET title = :v WHERE id = :id"), {"v": f"Ev{BIDI}il", "id": game.id})
        connection.execute(text("UPDATE api_tokens SET name = :v WHERE id = :id"), {"v": f"t{BIDI}k", "id": token.id})
    web_sign_in(client, app, "ana@example.com")
    bearer = {"Authorization": f"Bearer {secret}"}
    shown = [client.get(url).get_data(as_text=True) for url in ("/", "/profile", f"/games/{game.id}")]
    shown += [client.get(url, headers=bearer).get_data(as_text=True)
              for url in ("/api/me", f"/api/games/{game.id}", "/api/games?list=mine")]
    assert all("Ana" in page or "Evil" in page for page in shown)
    assert not [page for page in shown if any(char in page for char in BIDI + "\u2069")]
    # Mail subjects built from the title and the name.
    session.expire_all()
    accounts.add_address(session, session.get(User, ana.id), "second@example.com", base_url="http://x")
    subjects = session.scalars(select(OutboxMessage.subject)).all()
    assert subjects and not [s for s in subjects if any(char in s for char in BIDI)]


def test_names_and_titles_are_stored_as_one_line_of_visible_text(app, client, session):
    web_sign_in(client, app, "ana@example.com")
    submit(client, "/profile", "/profile", display_name=f" Ana{BIDI}\t Maria\u200d ")
    submit(client, "/profile", "/profile/tokens", name=f"my{BIDI}\u2069 bot")
    submit(client, "/games/new", "/games/new", title=f"Game{BIDI} \u2067one\u2069", bots="2")
    stored = [session.scalar(select(func.min(User.display_name))),
              session.scalar(select(ApiToken.name)), session.scalar(select(Game.title))]
    raw = [session.execute(text(f"SELECT {column} FROM {table}")).scalar()
           for table, column in (("users", "display_name"), ("api_tokens", "name"), ("games", "title"))]
    assert stored == raw == ["Ana Maria", "my bot", "Game one"]


def test_a_name_of_invisible_characters_only_is_refused(app, client, session):
    web_sign_in(client, app, "ana@example.com")
    response = submit(client, "/profile", "/profile", follow=False,
                      display_name="\u202e\u200b\u2066\U000e0041\u3164\u115f")  # tags and fillers too
    assert response.status_code == 422 and b"a display name has 1 to 60 characters" in response.data
    assert session.scalar(select(User.display_name)) == "ana"


@pytest.mark.parametrize("url", ["/games/2147483648", "/api/games/2147483648", "/api/games/9223372036854775808/view",
                                 "/games/1/reports/99999999999999999999.pdf", "/api/vacations/-1"])
def test_ids_out_of_the_databases_range_are_not_found(client, url):
    response = client.open(url, method="DELETE" if "vacations" in url else "GET")
    assert response.status_code == 404, response.status_code
    if url.startswith("/api/"):
        assert response.json["error"] == "not-found"


@pytest.mark.parametrize("start,end", [("9999-12-30", "9999-12-31"), ("0001-01-01", "0001-01-02"),
                                       ("today", "9999-12-31"), ("today", "0001-01-01")])
def test_vacation_dates_far_out_are_refused_with_a_reason(app, client, session, ana, start, end):
    today = str(now().date())
    start, end = (today if start == "today" else start), (today if end == "today" else end)
    token = {"Authorization": f"Bearer {accounts.create_api_token(session, ana, 't')[1]}"}
    answer = client.post("/api/vacations", json={"start": start, "end": end}, headers=token)
    assert answer.status_code == 422 and "vacation" in answer.json["message"], answer.json
    web_sign_in(client, app, "ana@example.com")
    page = submit(client, "/profile", "/profile/vacations", start=start, end=end)
    assert b"Not done: a vacation" in page.data
    assert session.scalar(select(func.count(Vacation.id))) == 0


@pytest.mark.parametrize("body,reason", [("[" * 100_000 + "]" * 100_000, "nested too deeply"),
                                         ('{"orders": ' + "[" * 40 + "]" * 40 + "}", "nested more than 32 deep"),
                                         ('{"orders": NaN}', "NaN is not JSON"),
                                         ('{"orders": 1e400}', "1e400 is too large")])
def test_json_nested_too_deep_or_not_standard_is_refused_saying_why(client, session, ana, body, reason):
    token = {"Authorization": f"Bearer {accounts.create_api_token(session, ana, 't')[1]}"}
    game = make_game(session, ana, players=2, bots=("heuristic",))
    answer = client.post(f"/api/games/{game.id}/orders", data=body, content_type="application/json", headers=token)
    assert answer.status_code == 422 and reason in answer.json["message"], answer.json


@pytest.mark.parametrize("where", ["form", "json", "query", "key"])
def test_control_characters_are_refused_before_anything_reads_them(app, client, session, ana, where):
    token = {"Authorization": f"Bearer {accounts.create_api_token(session, ana, 't')[1]}"}
    web_sign_in(client, app, "ana@example.com")
    if where == "json":
        answer = client.post("/api/games", json={"title": "a\x00b", "bots": ["heuristic"]}, headers=token)
        assert answer.status_code == 400 and "control character" in answer.json["message"]
    else:
        form = form_with(client.get("/games/new").data, "/games/new")
        data = form.data(title="T", bots="2")
        if where == "form":
            data["title"] = "T\x00"
        elif where == "key":
            data["x\x1b"] = "1"
        url = "/games/new?next=%00" if where == "query" else "/games/new"
        answer = client.post(url, data=data)
        assert answer.status_code == 400 and b"control character" in answer.data
    assert session.scalar(select(func.count(Game.id))) == 0
