"""The web forms and JSON API for deadlines, host controls, queued turns, takeovers and
vacations; times in the reader's time zone."""
from __future__ import annotations

from datetime import date, timedelta
from zoneinfo import ZoneInfo

from sqlalchemy import select

from pbem.models import Game, User
from pbem.services import accounts, deadlines
from pbem.timezones import iso_utc, when
from deadline_helpers import (SECOND, events, fresh, make_user, policy_game, seat_of, tick, two_humans,
                              until_owes)
from service_helpers import form_with, forms, submit, web_sign_in


def signed_in_user(client, app, session, address, zone="UTC"):
    web_sign_in(client, app, address)
    user = session.scalar(select(User).join(User.addresses).where(accounts.EmailAddress.address == address))
    accounts.update_profile(session, user, display_name=address.split("@")[0].title(), time_zone=zone,
                            notify_turn=True, notify_results=True, notify_invites=True)
    return user


def token(session, user):
    return {"Authorization": f"Bearer {accounts.create_api_token(session, user, 'test')[1]}"}


def test_the_game_page_shows_the_deadline_in_the_readers_zone_and_host_controls(app, client, session):
    ana = signed_in_user(client, app, session, "ana@example.com", "Asia/Tokyo")
    game = policy_game(session, ana)
    url, before = f"/games/{game.id}", game.deadline_at
    page = client.get(url).data.decode()
    local = before.astimezone(ZoneInfo("Asia/Tokyo"))
    assert f"{local:%H:%M} JST" in page and "Host controls" in page
    # Extend through the form: logged, and shown in the game's log.
    response = submit(client, url, "/deadline/extend", hours="5")
    assert b"Deadline extended." in response.data
    assert fresh(session, game).deadline_at == before + timedelta(hours=5)
    assert "extended the deadline by 5 hours" in response.data.decode()
    # A refusal comes back as a message.
    response = submit(client, url, "/deadline/extend", hours="72")
    assert b"Not done: at most 72 hours of extension per decision; 67 left" in response.data
    # Pause and resume.
    assert b"Game paused" in submit(client, url, "/pause").data
    page = client.get(url).data.decode()
    assert "Paused" in page and "Resume the game" in page
    assert b"Game resumed." in submit(client, url, "/resume").data


def test_spectators_and_players_do_not_get_host_controls(app, client, session):
    ana = make_user(session, "ana@example.com", "Ana")
    game = policy_game(session, ana)
    assert "Host controls" not in client.get(f"/games/{game.id}").data.decode()
    signed_in_user(client, app, session, "bo@example.com")
    page = client.get(f"/games/{game.id}").data.decode()
    assert "Host controls" not in page and "Deadline" in page
    forged = client.post(f"/games/{game.id}/pause", data={"csrf_token": form_with(
        client.get("/profile").data, "/profile").data()["csrf_token"]}, follow_redirects=True)
    assert b"only the host" in forged.data and fresh(session, game).paused_at is None


def test_queued_turns_through_the_page(app, client, session):
    ana = signed_in_user(client, app, session, "ana@example.com")
    game = policy_game(session, ana, bots=("heuristic", "random"))
    url = f"/games/{game.id}"
    response = submit(client, url, "/queue", turns="place 12\nplace 13\nplace 14")
    assert b"Queued 3 turn(s)." in response.data
    page = response.data.decode()
    assert "Queued turns" in page and "<code>place 13</code>" in page
    response = client.post(f"{url}/queue/cancel", data=form_with(client.get(url).data, "/queue/cancel").data(),
                           follow_redirects=True)  # the first form cancels turn 1
    assert b"cancelled" in response.data and "<code>place 12</code>" not in response.data.decode()
    queue_form = next(f for f in forms(client.get(url).data) if f.action.endswith("/queue"))
    response = client.post(queue_form.action, data=queue_form.data(turns="card 3"), follow_redirects=True)
    assert "is not a development turn" in response.data.decode(), response.data.decode()[-3000:]


def test_missed_turns_and_takeover_on_the_pages(app, client, session):
    ana = make_user(session, "ana@example.com", "Ana")
    bo = make_user(session, "bo@example.com", "Bo")
    game = two_humans(session, ana, bo, replace_after=1)
    until_owes(session, game, bo, [ana])
    tick(session, fresh(session, game).deadline_at + SECOND)
    seat_name = seat_of(session, game, bo).name
    signed_in_user(client, app, session, "cy@example.com")
    home = client.get("/").data.decode()
    assert "Seats to take over" in home and f"/games/{game.id}" in home
    page = client.get(f"/games/{game.id}").data.decode()
    assert "(missed: default" in page and "open for takeover" in page
    response = submit(client, f"/games/{game.id}", "/takeover")
    assert b"You took over the seat" in response.data
    assert fresh(session, game).seats and next(
        s for s in fresh(session, game).seats if s.name == seat_name).user.primary_address == "cy@example.com"


def test_vacations_on_the_profile_and_away_on_the_game_page(app, client, session):
    ana = make_user(session, "ana@example.com", "Ana")
    bo = signed_in_user(client, app, session, "bo@example.com", "Europe/Paris")
    game = two_humans(session, ana, bo)
    today = fresh(session, game).decision_at.astimezone(ZoneInfo("Europe/Paris")).date()
    response = submit(client, "/profile", "/profile/vacations", start=today.isoformat(),
                      end=(today + timedelta(days=20)).isoformat())
    assert b"Not done: a vacation lasts at most 14 days" in response.data
    response = submit(client, "/profile", "/profile/vacations", start=today.isoformat(),
                      end=(today + timedelta(days=3)).isoformat())
    assert b"Vacation noted." in response.data and b"Away from" in response.data
    page = client.get(f"/games/{game.id}").data.decode()
    assert "is away until" in page
    response = submit(client, "/profile", "/cancel")
    assert b"Vacation cancelled." in response.data


def test_the_api(app, client, session):
    ana = make_user(session, "ana@example.com", "Ana")
    accounts.update_profile(session, ana, display_name="Ana", time_zone="America/New_York", notify_turn=True,
                            notify_results=True, notify_invites=True)
    bo = make_user(session, "bo@example.com", "Bo")
    game = two_humans(session, ana, bo)
    ana_h, bo_h = token(session, ana), token(session, bo)
    url = f"/api/games/{game.id}"
    seen = client.get(f"{url}/deadline", headers=ana_h).json
    deadline = fresh(session, game).deadline_at
    assert seen["deadline"]["utc"] == iso_utc(deadline) and seen["deadline"]["utc"].endswith("+00:00")
    assert seen["deadline"]["local"] == when(deadline, ana) and seen["time_zone"] == "America/New_York"
    assert seen["kind"] == "power" and sorted(seen["owing"]) == sorted(s.name for s in game.seats if s.user_id)
    assert client.get(f"{url}/deadline").json["time_zone"] == "UTC"  # spectators: UTC
    assert client.get(url).json["deadline_at"]
    # Host controls: only the host; capped; logged.
    assert client.post(f"{url}/deadline/extend", json={"hours": 5}, headers=bo_h).status_code == 403
    extended = client.post(f"{url}/deadline/extend", json={"hours": 5}, headers=ana_h)
    assert extended.status_code == 200 and extended.json["extensions"]["this_decision"] == 1
    assert client.post(f"{url}/deadline/extend", json={"hours": 99}, headers=ana_h).status_code == 422
    assert client.post(f"{url}/pause", headers=ana_h).json["paused"]
    assert client.post(f"{url}/pause", headers=ana_h).status_code == 409
    assert client.post(f"{url}/resume", headers=ana_h).json["paused"] is None
    assert [e["type"] for e in client.get(f"{url}/deadline").json["log"]] == ["extend", "pause", "resume"]
    # Queued turns.
    assert client.put(f"{url}/queue", json={"turns": "place 1\nplace 2"}, headers=bo_h).json == {
        "turns": ["place 1", "place 2"]}
    assert client.delete(f"{url}/queue/1", headers=bo_h).json == {"turns": ["place 2"]}
    assert client.delete(f"{url}/queue/5", headers=bo_h).status_code == 422
    assert client.get(f"{url}/queue", headers=bo_h).json == {"turns": ["place 2"]}
    assert client.delete(f"{url}/queue", headers=bo_h).json == {"turns": []}
    assert client.get(f"{url}/queue").status_code == 401
    # Vacations.
    start = date.today() + timedelta(days=30)
    made = client.post("/api/vacations", json={"start": start.isoformat(), "end": (start + timedelta(days=2)).isoformat()},
                       headers=bo_h)
    assert made.status_code == 201
    assert [v["id"] for v in client.get("/api/vacations", headers=bo_h).json["vacations"]] == [made.json["id"]]
    too_long = client.post("/api/vacations", json={"start": start.isoformat(),
                                                   "end": (start + timedelta(days=20)).isoformat()}, headers=bo_h)
    assert too_long.status_code == 422 and "14 days" in too_long.json["message"]
    assert client.delete(f"/api/vacations/{made.json['id']}", headers=bo_h).json == {"vacations": []}
    # Takeover of a seat that is not offered.
    cy_h = token(session, make_user(session, "cy@example.com", "Cy"))
    assert client.post(f"{url}/takeover", json={"seat": seat_of(session, game, bo).name},
                       headers=cy_h).status_code == 409
    paths = client.get("/api/openapi.json").json["paths"]
    assert {"/api/games/{game_id}/deadline", "/api/games/{game_id}/queue", "/api/vacations"} <= set(paths)


def test_takeover_through_the_api(app, client, session):
    ana = make_user(session, "ana@example.com", "Ana")
    bo = make_user(session, "bo@example.com", "Bo")
    game = two_humans(session, ana, bo, replace_after=1)
    until_owes(session, game, bo, [ana])
    tick(session, fresh(session, game).deadline_at + SECOND)
    seat_name = seat_of(session, game, bo).name
    assert client.get(f"/api/games/{game.id}/deadline").json["takeover"] == [seat_name]
    cy = make_user(session, "cy@example.com", "Cy")
    taken = client.post(f"/api/games/{game.id}/takeover", json={"seat": seat_name}, headers=token(session, cy))
    assert taken.status_code == 200
    assert next(s for s in taken.json["seats"] if s["name"] == seat_name)["player"] == "Cy"
    assert "took over" in events(session, game, "takeover")[-1].text
    assert client.get(f"/api/games/{game.id}/view", headers=token(session, cy)).json["seat"] == seat_name


def test_a_new_game_form_sets_the_policy(app, client, session):
    signed_in_user(client, app, session, "ana@example.com")
    submit(client, "/games/new", "/games/new", title="Policy game", players="3", bots="2", default="minimal",
           replace_after="5", vacation="bot", abandoned="minimal")
    game = session.scalar(select(Game))
    policy = deadlines.policy_of(game)
    assert (policy.default, policy.replace_after, policy.vacation, policy.abandoned) == ("minimal", 5, "bot", "minimal")
