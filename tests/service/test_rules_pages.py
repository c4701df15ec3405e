"""Rules at hand, for every registered game (docs/service.md, "Rules pages"): each game's rules
page (/rules/<game>) has a section for every kind of decision and every option, with what each
option value does; a decision owed on the game page explains its rule in one sentence and links
to an anchor that exists on that page; the new-game form explains every option value where it
is chosen; cards explain themselves on a tap (a <details>), not only on hover; the mail HELP
answer says where the rules are."""
from __future__ import annotations

import html
import re
from html.parser import HTMLParser

import pytest
from markupsafe import escape
from sqlalchemy import select

import engine
from engine.azteca.components import packaged_edition
from pbem.games import presentation
from pbem.mail import render
from pbem.models import Game
from pbem.services import play
from service_helpers import make_game, make_user, web_sign_in

GAMES = engine.game_names()


class _Ids(HTMLParser):
    """Every id on a page, and every link's href."""

    def __init__(self) -> None:
        super().__init__()
        self.ids: set[str] = set()
        self.links: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        if found.get("id"):
            self.ids.add(str(found["id"]))
        if tag == "a" and found.get("href"):
            self.links.append(str(found["href"]))


def parsed(page: bytes | str) -> _Ids:
    parser = _Ids()
    parser.feed(page.decode() if isinstance(page, bytes) else page)
    return parser


def text_of(page: bytes) -> str:
    """The page's text, tags dropped and entities read, whitespace squeezed (none before a
    punctuation mark that followed a tag)."""
    text = re.sub(r"(?:<[^>]+>)+\s*(?=[:;,.)])", "", page.decode())
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", text)))


def test_every_registered_game_declares_its_rules_and_option_meanings():
    """What the pages show comes from the games themselves: a one-sentence rule for every kind
    of decision, a meaning for every value of every option with choices."""
    assert {"aztlan", "coatl", "duel"} <= set(GAMES)
    for name, game in engine.games().items():
        for kind in game.decision_kinds:
            assert kind.rule.strip().endswith("."), (name, kind.name)
        for option in game.options:
            for value in option.choices:
                assert option.meaning(value), (name, option.name, value)


@pytest.mark.parametrize("game", GAMES)
def test_a_games_rules_page_has_a_section_for_each_decision_and_option(client, game):
    rules = engine.get_game(game)
    shown = presentation(game)
    page = client.get(f"/rules/{game}")
    assert page.status_code == 200
    found = parsed(page.data)
    words = text_of(page.data)
    assert f"Rules of {rules.title}" in words
    assert {"decisions"} <= found.ids
    for kind in rules.decision_kinds:
        assert f"decision-{kind.name}" in found.ids and shown.rule_anchor(kind.name) in found.ids, kind.name
        assert kind.rule in words and kind.help in words
    if rules.options:
        assert "options" in found.ids
    for option in rules.options:
        assert f"option-{option.name}" in found.ids
        for value in option.choices:
            assert f"{value}: {option.meaning(value)}" in words or f"{value} (default): {option.meaning(value)}" in words
    # Every link inside the page leads to an id it has.
    for href in found.links:
        if href.startswith("#"):
            assert href[1:] in found.ids, href
    assert f'href="/games/new?game={game}"' in page.data.decode()


def test_the_rules_index_lists_every_game_and_an_unknown_game_is_not_found(client):
    index = client.get("/rules")
    assert index.status_code == 200
    for game in GAMES:
        assert f'href="/rules/{game}"' in index.data.decode()
    for unknown in ("chess", "AZTLAN", "..", "aztlan%00", "%E2%80%AE"):
        assert client.get(f"/rules/{unknown}").status_code == 404, unknown


def test_the_games_own_summaries_carry_their_pictures(client):
    """Aztlán's scoring example is the board drawn with its own drawing; Cóatl's example is a
    cóatl drawn as the reports draw one, and its caption adds up."""
    board = client.get("/rules/aztlan").data.decode()
    assert board.count("<svg") == 1 and 'id="rules-' in board and "3 + 2 × 2 = 7" in board
    pieces = client.get("/rules/coatl").data.decode()
    assert pieces.count("<svg") == 1 and "In all 8 points." in pieces


def test_azteca_rules_draw_the_valley_and_explain_every_card(client):
    """Azteca's summary shows the valley as the game page draws it, and every card of the
    edition with what it does, where a card on the game page links."""
    page = client.get("/rules/azteca").data.decode()
    assert page.count("<svg") == 1 and 'id="rules-title"' in page
    for card in packaged_edition().cards:
        assert f'<dt id="card-{card.key}">{html.escape(card.name)}' in page
        assert str(escape(card.text)) in page  # as Jinja escapes it


@pytest.mark.parametrize("game", GAMES)
def test_the_new_game_form_explains_each_option_value_and_links_the_rules(app, client, game):
    web_sign_in(client, app, "ana@example.com")
    page = client.get(f"/games/new?game={game}")
    assert page.status_code == 200
    assert f'href="/rules/{game}"' in page.data.decode()
    words = text_of(page.data)
    for option in engine.get_game(game).options:
        assert option.help in words
        for value in option.choices:
            assert option.meaning(value) in words, (option.name, value)
    # Each meaning sits just after its own option's field, not in a list of all of them.
    form = page.data.decode()
    for option in engine.get_game(game).options:
        if option.choices:
            after = form.split(f'name="{option.name}"', 1)[1]
            meanings = after.split('class="option-values"', 1)[1].split("</ul>", 1)[0]
            assert all(option.meaning(value) in html.unescape(meanings) for value in option.choices)


def two_or_fewest(session, creator, rules):
    """A running game of `rules` for two players, or its fewest (Azteca takes 3): the creator and bots."""
    players = max(2, rules.min_players)
    return make_game(session, creator, game=rules.name, players=players, bots=(rules.stand_in,) * (players - 1))


@pytest.mark.parametrize("game", GAMES)
def test_an_owed_decision_explains_its_rule_and_links_its_section(app, client, session, game):
    ana = make_user(session, "ana@example.com", "Ana")
    rules = engine.get_game(game)
    made = two_or_fewest(session, ana, rules)
    web_sign_in(client, app, "ana@example.com")
    page = client.get(f"/games/{made.id}")
    assert page.status_code == 200
    owed = play.game_view(session, session.get(Game, made.id), ana).view["me"]["decisions"]
    assert owed, "the creator owes the first decision"
    kinds = {kind.name: kind for kind in rules.decision_kinds}
    notes = page.data.decode().split('class="owe"', 1)[1]
    rules_ids = parsed(client.get(f"/rules/{game}").data).ids
    for decision in owed:
        kind = kinds[decision["kind"]]
        assert html.escape(kind.rule, quote=False) in notes or kind.rule in html.unescape(notes)
        anchor = presentation(game).rule_anchor(kind.name)
        assert f'href="/rules/{game}#{anchor}"' in notes and anchor in rules_ids
    assert f'href="/rules/{game}"' in page.data.decode()  # the page's own link to the rules


def test_aztlan_cards_explain_themselves_on_a_tap(app, client, session):
    """Each power card in the reader's hand is a <details>: its meaning opens on a tap (no
    script, no hover), and its summary's title shows it on hover too."""
    ana = make_user(session, "ana@example.com", "Ana")
    made = make_game(session, ana, game="aztlan", players=2, bots=("heuristic",))
    web_sign_in(client, app, "ana@example.com")
    page = client.get(f"/games/{made.id}").data.decode()
    hand = page.split('class="hand"', 1)[1].split("</section>", 1)[0]
    notes = re.findall(r'<details class="card-note"><summary title="([^"]+)">(\d)</summary>\s*<p>([^<]+)', hand)
    assert [number for _, number, _ in notes] == ["4", "5", "6", "7", "8", "9"]
    for title, number, meaning in notes:
        assert title == meaning.strip() and meaning.startswith(f"Power {number} per pawn")
    assert 'href="/rules/aztlan#power"' in hand


def test_coatl_sacrifice_tokens_explain_themselves_on_a_tap(app, client, session):
    ana = make_user(session, "ana@example.com", "Ana")
    made = make_game(session, ana, game="coatl", players=2, bots=("heuristic",))
    web_sign_in(client, app, "ana@example.com")
    page = client.get(f"/games/{made.id}").data.decode()
    tokens = re.findall(r'<details class="card-note"><summary title="[^"]+">([^<]+)</summary>', page)
    assert set(tokens) == {"Perfect Pick", "See the Future", "Priest Commitment"}
    assert 'href="/rules/coatl#token-future"' in page


def test_the_open_game_page_links_each_chosen_option_to_its_rule(app, client, session):
    ana = make_user(session, "ana@example.com", "Ana")
    made = make_game(session, ana, game="aztlan", players=3, bots=(), options={"tie_window": "first-leader"})
    page = client.get(f"/games/{made.id}").data.decode()
    assert 'href="/rules/aztlan#option-tie_window"' in page
    assert "only the first tied leader in conflict order may break the tie" in page


@pytest.mark.parametrize("game", GAMES)
def test_the_mail_help_answer_says_where_the_rules_are(app, session, game):
    ana = make_user(session, "ana@example.com", "Ana")
    made = two_or_fewest(session, ana, engine.get_game(game))
    view = play.game_view(session, session.get(Game, made.id), ana).view
    with app.app_context():
        answer = render.help_text(session.scalar(select(Game)), view)
        base = app.config["PBEM_BASE_URL"]
    assert f"The rules of {engine.get_game(game).title}: {base}/rules/{game}" in answer
