"""A player downloads their own age reports from the game page; nobody else can."""
from __future__ import annotations

import subprocess

import pytest
from sqlalchemy import select

from pbem.extensions import db
from pbem.models import Game, User
from pbem.schemas import MeSchema
from pbem.services import play
from pbem.testing import first_legal_order
from service_helpers import make_game, make_user, submit, web_sign_in


def play_first_age(session, game, user):
    """First legal orders for `user` until age 1 is scored."""
    for _ in range(200):
        state_view = play.game_view(session, game, user).view
        if state_view["age_scores"]:
            return
        decision = state_view["me"]["decisions"][0]
        play.submit_for_user(session, game.id, user, first_legal_order(decision), channel="api")
    raise AssertionError("age 1 was never scored")


@pytest.fixture
def scored_game(app, client):
    with app.app_context():
        ana = make_user(db.session(), "ana@example.com", "Ana")
        game = make_game(db.session(), ana, seed=5, title="Reports <b>bold</b>")
        play_first_age(db.session(), game, ana)
        return game.id


def page_size(pdf: bytes, folder) -> str:
    path = folder / "report.pdf"
    path.write_bytes(pdf)
    info = subprocess.run(["pdfinfo", str(path)], capture_output=True, text=True, check=True).stdout
    return next(line for line in info.splitlines() if line.startswith("Page size"))


def test_the_page_links_my_reports_and_the_pdf_is_mine(app, client, scored_game, tmp_path):
    web_sign_in(client, app, "ana@example.com")
    page = client.get(f"/games/{scored_game}")
    assert f"/games/{scored_game}/reports/1.pdf".encode() in page.data
    for size, paper in (("A4", "(A4)"), ("Letter", "(letter)")):
        response = client.get(f"/games/{scored_game}/reports/1.pdf?size={size}")
        assert response.status_code == 200
        assert response.mimetype == "application/pdf"
        assert response.data.startswith(b"%PDF")
        assert paper in page_size(response.data, tmp_path)  # the page size asked for
        assert "attachment" in response.headers["Content-Disposition"]


def test_my_paper_size_is_the_default_and_a_bad_one_changes_nothing(app, client, scored_game, tmp_path):
    web_sign_in(client, app, "ana@example.com")
    assert "(A4)" in page_size(client.get(f"/games/{scored_game}/reports/1.pdf").data, tmp_path)
    assert submit(client, "/profile", "/profile", paper_size="Letter").status_code == 200
    assert "(letter)" in page_size(client.get(f"/games/{scored_game}/reports/1.pdf").data, tmp_path)
    page = client.get(f"/games/{scored_game}").get_data(as_text=True)
    assert page.index("PDF (Letter)") < page.index("PDF (A4)")  # mine first
    refused = submit(client, "/profile", "/profile", paper_size="A3", display_name="Changed")
    assert refused.status_code == 422 and b"paper size" in refused.data
    with app.app_context():
        ana = db.session.scalar(select(User).where(User.display_name == "Ana"))
        assert (ana.paper_size, MeSchema().dump(ana)["paper_size"]) == ("Letter", "Letter")


def test_another_person_gets_no_report(app, client, scored_game):
    with app.app_context():
        make_user(db.session(), "eve@example.com", "Eve")
    web_sign_in(client, app, "eve@example.com")
    response = client.get(f"/games/{scored_game}/reports/1.pdf")
    assert response.status_code in (403, 404)
    assert not response.data.startswith(b"%PDF")
    assert b"reports/1.pdf" not in client.get(f"/games/{scored_game}").data


def test_a_spectator_must_sign_in(client, scored_game):
    response = client.get(f"/games/{scored_game}/reports/1.pdf")
    assert response.status_code in (302, 401, 403)
    assert not response.data.startswith(b"%PDF")


def test_an_age_not_scored_yet_has_no_report(app, client, scored_game):
    web_sign_in(client, app, "ana@example.com")
    response = client.get(f"/games/{scored_game}/reports/2.pdf")
    assert response.status_code == 404
    assert b"no report of age 2" in response.data
    assert client.get(f"/games/{scored_game}/reports/1.pdf?size=A3").status_code == 422
    with app.app_context():
        assert db.session.get(Game, scored_game).status == Game.ACTIVE


def test_a_finished_game_lists_every_age_and_the_final_report(app, client):
    with app.app_context():
        ana = make_user(db.session(), "ana@example.com", "Ana")
        game = make_game(db.session(), ana, seed=5, title="Archive")
        for _ in range(400):
            view = play.game_view(db.session(), game, ana).view
            if view["phase"] == "over":
                break
            play.submit_for_user(db.session(), game.id, ana, first_legal_order(view["me"]["decisions"][0]),
                                 channel="api")
        game_id = game.id
    web_sign_in(client, app, "ana@example.com")
    page = client.get(f"/games/{game_id}").get_data(as_text=True)
    for age in range(1, 6):
        assert f"/games/{game_id}/reports/{age}.pdf" in page
    assert "Final report" in page and "/reports/6.pdf" not in page
    final = client.get(f"/games/{game_id}/reports/5.pdf")
    assert final.status_code == 200 and final.data.startswith(b"%PDF")
