"""Identity by email: one-time sign-in links, profiles, several addresses, API tokens."""
from __future__ import annotations

import re
from datetime import timedelta

import pytest
from sqlalchemy import select

from pbem.config import load_config
from pbem.extensions import db
from pbem.models import ApiToken, EmailAddress, EmailToken, OutboxMessage, User, now
from pbem.services import accounts
from service_helpers import form_with, last_link, make_user, submit, web_sign_in


def outbox(app, address=None):
    with app.app_context():
        query = select(OutboxMessage).order_by(OutboxMessage.id)
        if address:
            query = query.where(OutboxMessage.to_address == address)
        return [(m.to_address, m.subject, m.body) for m in db.session.scalars(query)]


def test_signing_in_by_link_creates_the_account_and_signs_in(app, client):
    web_sign_in(client, app, "Ana@Example.com ")
    home = client.get("/")
    assert b"ana</a>" in home.data  # the display name starts as the address's local part
    with app.app_context():
        user = db.session.scalar(select(User))
        assert [a.address for a in user.addresses] == ["ana@example.com"]


def test_a_sign_in_link_works_once(app, client):
    submit(client, "/signin", "/signin", email="ana@example.com")
    with app.app_context():
        link = last_link(db.session(), "ana@example.com")
    assert client.get(link).status_code == 200  # showing the button does not spend it
    form = form_with(client.get(link).data, link)
    assert client.post(link, data=form.data()).status_code == 302
    other = app.test_client()
    again = other.post(link, data=form_with(other.get(link).data, link).data())
    assert again.status_code == 400 and b"not valid any more" in again.data


def test_an_expired_link_does_not_sign_in(app, client):
    submit(client, "/signin", "/signin", email="ana@example.com")
    with app.app_context():
        link = last_link(db.session(), "ana@example.com")
        token = db.session.scalar(select(EmailToken))
        token.expires_at = now() - timedelta(seconds=1)
        db.session.commit()
    response = client.post(link, data=form_with(client.get(link).data, link).data())
    assert response.status_code == 400
    assert client.get("/profile").status_code == 302  # still signed out


def test_links_are_stored_hashed(app, client):
    submit(client, "/signin", "/signin", email="ana@example.com")
    with app.app_context():
        token = last_link(db.session(), "ana@example.com").rsplit("/", 1)[1]
        stored = db.session.scalar(select(EmailToken.token_hash))
    assert stored == accounts.hash_token(token) and token not in stored


def test_the_answer_does_not_tell_who_has_an_account(app, client, session):
    make_user(session, "known@example.com")
    known = submit(client, "/signin", "/signin", email="known@example.com")
    unknown = submit(client, "/signin", "/signin", email="new@example.com")
    assert known.data.replace(b"known", b"X") == unknown.data.replace(b"new", b"X")


def test_a_bad_address_is_refused(client):
    response = submit(client, "/signin", "/signin", email="not an address")
    assert response.status_code == 422 and b"does not look like an email address" in response.data


def test_sign_in_is_rate_limited_per_address(app, client):
    app.config["PBEM_SIGNIN_LIMIT"] = "2 per minute"
    try:
        for _ in range(2):
            assert submit(client, "/signin", "/signin", email="ana@example.com").status_code == 200
        assert submit(client, "/signin", "/signin", email="ana@example.com").status_code == 429
        assert submit(client, "/signin", "/signin", email="bo@example.com").status_code == 200
    finally:
        app.config["PBEM_SIGNIN_LIMIT"] = "100 per minute"
    assert len(outbox(app, "ana@example.com")) == 2


def test_sign_in_is_rate_limited_per_ip(app, client):
    app.config["PBEM_SIGNIN_IP_LIMIT"] = "3 per minute"
    try:
        codes = [submit(client, "/signin", "/signin", email=f"p{i}@example.com").status_code for i in range(4)]
    finally:
        app.config["PBEM_SIGNIN_IP_LIMIT"] = "1000 per minute"
    assert codes == [200, 200, 200, 429]


def test_forms_without_the_csrf_token_are_refused(client):
    response = client.post("/signin", data={"email": "ana@example.com"})
    assert response.status_code == 400 and b"Form expired" in response.data


def test_after_sign_in_only_local_pages_are_followed(app, client):
    submit(client, "/signin?next=//evil.example/x", "/signin", email="ana@example.com")
    with app.app_context():
        link = last_link(db.session(), "ana@example.com")
    response = client.post(link, data=form_with(client.get(link).data, link).data())
    assert response.headers["Location"] == "/"


def test_the_session_cookie_is_httponly_and_samesite(app, client):
    web_sign_in(client, app, "ana@example.com")
    cookie = client.get_cookie("session")
    assert cookie.http_only and cookie.same_site == "Lax" and not cookie.secure


def test_secure_cookies_and_a_secret_key_come_from_the_environment(monkeypatch):
    monkeypatch.setenv("PBEM_SECURE_COOKIES", "1")
    monkeypatch.setenv("SECRET_KEY", "from-env")
    config = load_config({"PBEM_ENV": "production"})
    assert config["SESSION_COOKIE_SECURE"] and config["SECRET_KEY"] == "from-env"
    monkeypatch.delenv("SECRET_KEY")
    with pytest.raises(RuntimeError, match="SECRET_KEY"):
        load_config({"PBEM_ENV": "production"})
    with pytest.warns(UserWarning, match="development key"):
        assert load_config({"PBEM_ENV": "development"})["SECRET_KEY"]


def test_profile_changes_are_saved_and_checked(app, client):
    web_sign_in(client, app, "ana@example.com")
    response = submit(client, "/profile", "/profile", display_name="  Ana   Lopez ", time_zone="Europe/Rome",
                      notify_results=None)
    assert b"Profile saved" in response.data
    with app.app_context():
        user = db.session.scalar(select(User))
        assert (user.display_name, user.time_zone, user.notify_turn, user.notify_results) == \
            ("Ana Lopez", "Europe/Rome", True, False)
    bad = submit(client, "/profile", "/profile", time_zone="Mars/Olympus")
    assert bad.status_code == 422 and b"unknown time zone" in bad.data


def test_the_profile_offers_real_time_zones_only(app, client):
    """Links for old software and files that are no zone are in the database but not offered."""
    web_sign_in(client, app, "ana@example.com")
    page = client.get("/profile").get_data(as_text=True)
    offered = set(re.findall(r'<option value="([^"]+)"', page))
    assert {"UTC", "Europe/Rome", "America/Argentina/Buenos_Aires", "Pacific/Auckland"} <= offered
    assert not offered & {"Factory", "localtime", "posixrules", "US/Pacific", "Etc/GMT+5", "EST5EDT"}
    refused = submit(client, "/profile", "/profile", time_zone="Factory")
    assert refused.status_code == 422 and b"unknown time zone" in refused.data


def test_a_new_address_is_confirmed_before_it_is_used(app, client):
    web_sign_in(client, app, "ana@example.com")
    submit(client, "/profile", "/profile/addresses", email="ana@work.example")
    mails = outbox(app, "ana@work.example")
    assert len(mails) == 1 and "Confirm" in mails[0][1]
    with app.app_context():
        assert db.session.scalar(select(EmailAddress).where(EmailAddress.address == "ana@work.example")) is None
        link = last_link(db.session(), "ana@work.example")
    submit(client, link, link)
    with app.app_context():
        user = db.session.scalar(select(User))
        assert sorted(a.address for a in user.addresses) == ["ana@example.com", "ana@work.example"]
    # Signing in with the second address reaches the same person.
    other = app.test_client()
    web_sign_in(other, app, "ana@work.example")
    with app.app_context():
        assert db.session.query(User).count() == 1


def test_someone_elses_confirmation_link_does_not_add_the_address(app, client, session):
    web_sign_in(client, app, "ana@example.com")
    submit(client, "/profile", "/profile/addresses", email="shared@example.com")
    link = last_link(session, "shared@example.com")
    intruder = app.test_client()
    web_sign_in(intruder, app, "eve@example.com")
    response = intruder.post(link, data=form_with(intruder.get(link).data, link).data())
    assert response.status_code == 403
    assert session.scalar(select(EmailAddress).where(EmailAddress.address == "shared@example.com")) is None
    # The link still works for the person it was sent for.
    assert submit(client, link, link).status_code == 200
    assert session.scalar(select(EmailAddress).where(EmailAddress.address == "shared@example.com")) is not None


def test_an_address_of_another_person_gets_no_mail(app, client, session):
    make_user(session, "bo@example.com")
    web_sign_in(client, app, "ana@example.com")
    before = len(outbox(app, "bo@example.com"))
    submit(client, "/profile", "/profile/addresses", email="bo@example.com")
    assert len(outbox(app, "bo@example.com")) == before


def test_the_only_address_cannot_be_removed(session):
    user = make_user(session, "ana@example.com")
    with pytest.raises(accounts.Invalid):
        accounts.remove_address(session, user, user.addresses[0].id)


def test_api_tokens_are_shown_once_stored_hashed_and_revocable(app, client):
    web_sign_in(client, app, "ana@example.com")
    page = submit(client, "/profile", "/profile/tokens", name="my bot")
    secret = page.data.split(b'<code id="new-token">')[1].split(b"</code>")[0].decode()
    assert secret.startswith("pbem_")
    assert secret.encode() not in client.get("/profile").data
    with app.app_context():
        assert db.session.scalar(select(ApiToken.token_hash)) == accounts.hash_token(secret)
    headers = {"Authorization": f"Bearer {secret}"}
    assert client.get("/api/me", headers=headers).json["display_name"] == "ana"
    with app.app_context():
        token_id = db.session.scalar(select(ApiToken.id))
    submit(client, "/profile", f"/profile/tokens/{token_id}/revoke")
    assert client.get("/api/me", headers=headers).status_code == 401
