"""A Cóatl game on the web: the game page shows the position with Cóatl's own template (the
picture, every card in words, the reader's own cards), the plain decision forms play it,
and another seat's page never shows the reader's hand or secret temple."""
from __future__ import annotations

import re


from pbem.games import presentation
from pbem.models import Game
from pbem.services import lobby, play
from service_helpers import decision_forms, make_game, owed, web_sign_in

BO = "bo@example.com"


def test_a_coatl_game_page_shows_the_position_and_plays_through_the_forms(app, client, session, ana):
    game = make_game(session, ana, game="coatl", players=2, bots=("heuristic",), seed=11)
    state_view = play.game_view(session, game, ana).view
    hand = state_view["me"]["dealt"]
    web_sign_in(client, app, "ana@example.com")
    url = f"/games/{game.id}"
    page = client.get(url).data.decode()
    assert "<h2>Face-up prophecies</h2>" in page and "<h2>Common temples</h2>" in page
    assert "Your draw (keep up to 3)" in page and f"<li class=\"card\">{hand[0]} (" in page
    assert "(secret)</li>" in page and 'class="piece" data-piece="' in page  # the picture, inline
    assert re.search(r"in a row: |each \w+ piece", page)  # requirements in words
    shown = presentation("coatl")
    played = []
    for _ in range(6):
        decision = owed(session, game, ana)
        order = shown.first_order(decision)
        [form] = decision_forms(client.get(url).data)
        assert form.attrs["data-kind"] == decision["kind"]
        done = client.post(form.action, data=form.data(orders=order), follow_redirects=True)
        assert f"Applied: {order}.".encode() in done.data, done.data[-600:]
        played.append(order)
    assert played[0].startswith("keep") and any(order.startswith("take") for order in played)
    page = client.get(url).data.decode()
    assert "Your draw" not in page and "Board: <code>heads" in page
    assert "took body space" in page or "took head space" in page or "took tail space" in page  # the history


def test_another_seats_page_shows_nothing_of_a_hand_or_secret_temple(app, client, session, ana, bo):
    """Twin games, the same but for what Ana keeps: Bo's pages are the same."""
    pages = []
    for n, keep in ((1, "keep none"), (2, None)):
        game = make_game(session, ana, title=f"Twin {n}", game="coatl", players=2, bots=(), invites=[BO], seed=3)
        lobby.join_game(session, game.id, bo)
        game = session.get(Game, game.id)
        decision = owed(session, game, ana)
        play.submit_for_user(session, game.id, ana, keep or f"keep {' '.join(map(str, decision['options']['dealt'][:3]))}",
                             channel="web")
        pages.append(game.id)
    web_sign_in(client, app, BO)
    seen = []
    for game_id in pages:
        html = client.get(f"/games/{game_id}").data.decode()
        html = re.sub(r'name="csrf_token" value="[^"]*"', "", html).replace(f"/games/{game_id}", "/games/N")
        html = re.sub(r'<strong class="deadline-at"[^>]*>[^<]*</strong>', "", html)
        seen.append(re.sub(r"orders\+\w+@", "orders+X@", html).replace(f"Twin {1 + pages.index(game_id)}", "Twin"))
    assert seen[0] == seen[1] and "Your draw (keep up to 3)" in seen[0]
