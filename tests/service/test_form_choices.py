"""Legal options only: at every decision of a played game, the game page's form offers the
seat exactly the choices the API's view gives it (`view.me.decisions[].options`), no more
and none pre-selected that the seat did not pick; the map outlines the territories a choice
can take."""
from __future__ import annotations

import html
import re

import pytest

import engine
from pbem.models import Game
from pbem.services import accounts, play
from service_helpers import decision_forms, make_game, web_sign_in
from test_forced_answers import BOTS, my_seat, person_answer

FORM_SEED = 13  # Aztlán: Ana's seat holds Sacred Games at a battle against it, so it answers one
MAX_CHECKS = 400  # decisions compared per game (a whole Aztlán or Duel game has fewer)


def values(form, name):
    """A field's offered values without the blank "none" entry of a select."""
    return [value for value in form.options(name) if value != ""]


def strings(items):
    return [str(item) for item in items]


def no_preselected_choice(form):
    """Nothing the seat decides is ticked for it (the map's click target is no choice)."""
    ticked = [f["name"] for f in form.fields if f.get("checked") and f["name"] != "map_target"]
    assert not ticked, ticked


def check_aztlan(form, decision, page):
    kind, o = decision["kind"], decision["options"]
    no_preselected_choice(form)
    if kind == "power":
        assert values(form, "card") == strings(o["cards"])
    elif kind == "turn":
        assert values(form, "place") == strings(o["place"])
        assert values(form, "move_from") == strings(o["move_from"])
        assert ("eagle" in form.names()) == o["eagle"]
        outlined = sorted(int(t) for t in re.findall(r'data-highlight="(\d+)"', page))
        assert outlined == sorted(o["move_from"])
    elif kind == "conflict":
        settle = {name[len("settle-"):] for name in form.names() if name.startswith("settle-")}
        assert settle == set(strings(o["won"] + o["tied"]))
        tlatoani = ["tlatoani-battle", "tlatoani-coexist"] if o["tlatoani"] else []
        for t in o["won"]:
            assert values(form, f"settle-{t}") == ["battle", "coexist"]
        for t in o["tied"]:
            assert values(form, f"settle-{t}") == ["tie", *tlatoani]
    elif kind == "reaction":
        assert form.field("territory")["value"] == str(o["territory"])
        assert values(form, "answer") == ["accept", *(["sacred"] if o["sacred_games"] else [])]
        assert f'data-highlight="{o["territory"]}"' in page
    elif kind == "scoring":
        assert values(form, "blessing") == strings(o["blessings"])
        assert values(form, "rafts") == ([f"{a}-{b}" for a, b in o["rafts_pairs"]] if o["rafts"] else [])
        assert ("wild" in form.names()) == o["wild"]
    else:
        raise AssertionError(f"unknown kind {kind}")


def check_coatl(form, decision, page):
    kind, o = decision["kind"], decision["options"]
    no_preselected_choice(form)
    if kind == "keep":
        assert values(form, "keep") == strings(o["dealt"])
        return
    choose = o if kind == "choose" else o["choose"]
    assert sorted(values(form, "card")) == sorted(strings(choose["row"]))
    if kind == "choose":
        assert sorted(values(form, "discard")) == sorted(strings(o["hand"]))
    else:
        assert sorted(values(form, "take")) == sorted(f"{kind} {space}" for kind, spaces in o["take"].items()
                                                      for space in spaces)


def check_plain(form, decision, page):
    """A game with no forms of its own: a text box, and the choices listed beside it."""
    assert form.names() == ["csrf_token", "kind", "orders"]
    listed = re.search(r"Your choices:(.*?)</p>", page, re.S)
    for label, value in decision["options"].items():
        shown = ", ".join(map(str, value)) if isinstance(value, list) else str(value)
        assert f"{label} {shown}" in html.unescape(listed.group(1)), (label, shown)


CHECKS = {"aztlan": check_aztlan, "coatl": check_coatl}


@pytest.mark.parametrize("name", sorted(engine.games()))
def test_every_form_offers_exactly_the_apis_options(app, client, session, ana, name):
    game = make_game(session, ana, game=name, players=4, bots=BOTS, seed=FORM_SEED)
    game_id = game.id
    token = {"Authorization": f"Bearer {accounts.create_api_token(session, ana, 'forms')[1]}"}
    web_sign_in(client, app, "ana@example.com")
    check = CHECKS.get(name, check_plain)
    kinds = set()
    for _ in range(MAX_CHECKS):
        session.expire_all()
        game = session.get(Game, game_id)
        if game.status == Game.FINISHED:
            break
        assert my_seat(game, ana).waiting
        decisions = client.get(f"/api/games/{game_id}/view", headers=token).json["view"]["me"]["decisions"]
        page = client.get(f"/games/{game_id}").data.decode()
        forms = decision_forms(page)
        assert len(forms) == len(decisions)
        for form, decision in zip(forms, decisions, strict=True):
            assert form.field("kind")["value"] == decision["kind"]
            check(form, decision, page)
            kinds.add(decision["kind"])
        play.submit_for_user(session, game_id, ana, person_answer(session, game, ana), channel="api")
    else:
        raise AssertionError("the game did not end")
    assert kinds == {kind.name for kind in engine.get_game(name).decision_kinds} - UNASKED.get(name, set())


# Kinds this seed never asks the person: Cóatl's See the Future follow-up (its form's choices
# are checked against the options in tests/games/test_coatl_forms.py).
UNASKED = {"coatl": {"choose"}}
