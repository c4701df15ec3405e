"""Azteca's decision forms (pbem/games/azteca/forms.py): every order the bots play in whole games
can be sent with the choices its form offers, the posted fields make the order text a mail
would carry, and malformed fields are refused with a clear error."""
from __future__ import annotations

from dataclasses import replace

import pytest
from werkzeug.datastructures import MultiDict

from engine.azteca import GAME
from engine.azteca.deal_orders import DEAL_ORDERS, DealAnswer, DealOffer, Lend
from engine.azteca.orders import Play
from engine.azteca.war_orders import Move, Plan, Reorganise, war_text
from engine.core import OrderError
from pbem.games import presentation
from pbem.games.azteca import forms
from tests.games.azteca_form_fields import deal_fields, form_fields, offered

SHOWN = presentation("azteca")
GAMES = [("form-1", 4), ("form-2", 4), ("form-3", 3)]
DEALS = {"big_deal": "on", "pirogue_express": "on"}  # 18.0's options


def posted(kind: str, fields: dict) -> MultiDict:
    items = [("kind", kind)]
    for name, value in fields.items():
        items += [(name, item) for item in value] if isinstance(value, list) else [(name, value)]
    return MultiDict(items)


def check_offered(choice: dict, fields: dict) -> None:
    """Every value the fields use is one the form offers."""
    offers = offered(choice)
    for name, value in fields.items():
        used = value if isinstance(value, list) else [value]
        assert set(used) <= set(offers.get(name, [])), (choice["kind"], name, used, offers.get(name))


def new_state(seed: str, players: int, options: dict | None = None):
    seats = GAME.seating(seed, players)
    return GAME.new_game({"game": "azteca", "seed": seed, "players": [{"seat": s, "name": s} for s in seats],
                          "options": options or {}})


@pytest.mark.parametrize("seed, players", GAMES)
def test_every_bot_order_of_a_game_goes_through_its_form(seed, players):
    state = new_state(seed, players)
    bots = [GAME.make_bot("random", f"{seed}:{s}") for s in range(players)]
    kinds = set()
    reorganised: dict[int, Reorganise] = {}  # a seat's reorganisation, sent with its next move
    for _ in range(20_000):
        waiting = state.waiting()
        if not waiting:
            break
        s = waiting[0]
        seat = state.seats[s]
        [choice] = forms.choices(state.view(seat))
        order = bots[s].order(state, s)
        sent = order
        if isinstance(order, Plan) and not choice["o"]["controls"]:  # consent to cross no zone: not asked
            sent = replace(order, allow=None)
        if isinstance(order, Play):
            assert f"{order.card} {order.target}".strip() in offered(choice)["play"]
        elif isinstance(order, Reorganise):  # the form sends it with the move that follows
            reorganised[s] = order
        else:
            fields = form_fields(sent)
            check_offered(choice, fields)
            before = reorganised.pop(s, None) if isinstance(order, Move) and order.army else None
            if before:
                fields["reorganise"] = war_text(before).removeprefix("reorganise ")
            text = SHOWN.form_orders(posted(choice["kind"], fields))
            *first, read = state.parse(text)
            assert first == ([before] if before else [])
            if isinstance(order, Move) and order.army:  # the form names the destination only
                assert (read.army, read.route[-1], read.raid) == (order.army, order.route[-1], order.raid)
            else:
                assert read == sent, (text, sent)
            kinds.add(choice["kind"])
        if not isinstance(order, (Reorganise, Move)):
            reorganised.pop(s, None)
        state.apply(seat, order)
    assert state.is_over()
    assert kinds >= {"army", "place", "cards", "purchase", "look", "bid", "send", "plan", "march", "urn",
                     "tezcatlipoca"}


def test_every_kind_is_covered_by_the_bot_games():
    """Over the games above, the forms of every kind of decision are sent at least once."""
    kinds = set()
    for seed, players in GAMES:
        state = new_state(seed, players)
        bots = [GAME.make_bot("random", f"{seed}:{s}") for s in range(players)]
        while state.waiting():
            s = state.waiting()[0]
            kinds.add(state.decisions()[0].kind)
            state.apply(state.seats[s], bots[s].order(state, s))
    assert kinds == {kind.name for kind in GAME.decision_kinds}


def test_a_card_play_rides_with_the_answer():
    form = posted("urn", {"points": "3", "play": "tlenamacac"})
    assert SHOWN.form_orders(form) == "quetzalcoatl 3\nplay tlenamacac"


def test_a_free_text_order_stands_for_the_fields():
    form = posted("army", {"A-w": "4", "orders": "army A 4w, B 3w, C 3w, R 3j"})
    assert SHOWN.form_orders(form) == "army A 4w, B 3w, C 3w, R 3j"


def test_a_move_carries_its_reorganisation_first():
    form = posted("march", {"army": "A", "to": "chalco", "reorganise": "A 2w 1j, R 2w", "raid": "yes"})
    assert SHOWN.form_orders(form) == "reorganise A 2w 1j, R 2w\nmove A chalco raid"


@pytest.mark.parametrize("kind, fields, error", [
    ("dike", {}, "choose the shore"),
    ("place", {"territory": "chalco; army A 9w"}, "not one of the choices"),
    ("army", {"A-w": "-1"}, "not one of the choices"),
    ("army", {}, "spread your warriors"),
    ("look", {"lot": ["1"]}, "two slave-market cards"),
    ("bid", {"lot": "1", "tributes": "9" * 40}, "not one of the choices"),
    ("fight", {"action": "flee"}, "continue the lake battle"),
    ("reserve", {"answer": "retreat A"}, "not one of the choices"),
    ("march", {"army": "A"}, "choose where the army goes"),
    ("march", {"army": "A", "to": "chalco", "reorganise": "A 2w; pass"}, "reorganise: boxes and counters"),
    ("urn", {"points": "2", "play": "tlaloc\x00"}, "play: a card"),
    ("nonsense", {}, "unknown kind of form"),
])
def test_malformed_fields_are_refused_with_a_clear_error(kind, fields, error):
    with pytest.raises(OrderError, match=error):
        SHOWN.form_orders(posted(kind, fields))


# ---- deals (18.0's options) ------------------------------------------------------------------

def deal_kind(order) -> str:
    return order.verb if isinstance(order, DealAnswer) else type(order).__name__


@pytest.mark.parametrize("seed, players", [("deal-1", 4), ("deal-2", 3)])
def test_every_bot_deal_goes_through_the_deal_part(seed, players):
    """Each offer, answer and loan of boats the bots make is sent with choices the deal part
    offers, alone (without the answer) or with it, and the engine reads back the same order."""
    state = new_state(seed, players, DEALS)
    bots = [GAME.make_bot("random", f"{seed}:{s}") for s in range(players)]
    kinds = set()
    while state.waiting() and kinds != {"DealOffer", "accept", "decline", "withdraw", "Lend"}:
        s = state.waiting()[0]
        order = bots[s].order(state, s)
        if isinstance(order, DEAL_ORDERS):
            [choice] = forms.choices(state.view(state.seats[s]))
            fields = deal_fields(order)
            check_offered(choice, fields)
            alone = SHOWN.form_orders(posted(choice["kind"], {**fields, "without_answer": "yes"}))
            assert state.parse(alone) == [order], alone
            kinds.add(deal_kind(order))
        state.apply(state.seats[s], order)
    assert kinds == {"DealOffer", "accept", "decline", "withdraw", "Lend"}


def test_no_deal_part_without_the_options():
    state = new_state("form-1", 4)
    for _ in range(300):
        s = state.waiting()[0]
        assert all(choice["deal"] is None for choice in forms.choices(state.view(state.seats[s])))
        state.apply(state.seats[s], GAME.make_bot("random", f"x:{s}").order(state, s))


@pytest.mark.parametrize("fields, text", [
    ({"deal-to": "toltecs", "give-tributes": "3", "give-card": ["tlaloc", "raid"], "take-boats": ["2", "4"]},
     "offer toltecs 3 tributes, card raid, card tlaloc for boats 2 4"),
    ({"deal-to": "toltecs", "give-card": ["raid", "raid"]}, "offer toltecs card raid, card raid"),
    ({"deal-to": "aztecs", "take-tributes": "2", "take-card": ["tlaloc"]}, "offer aztecs nothing for 2 tributes, card tlaloc"),
    ({"deal-to": "aztecs", "give-boats": ["3", "all"]}, "offer aztecs boats all"),
    ({"deal-answer": "accept aztecs 1"}, "accept aztecs 1"),
    ({"deal-answer": "decline aztecs 2"}, "decline aztecs 2"),
    ({"deal-answer": "withdraw toltecs 1"}, "withdraw toltecs 1"),
    ({"lend-to": "toltecs", "lend-boats": ["4", "2"]}, "lend toltecs boats 2 4"),
    ({"lend-to": "toltecs", "lend-boats": ["all"]}, "lend toltecs boats all"),
])
def test_each_kind_of_deal_makes_the_text_a_mail_would_carry(fields, text):
    """With the answer (and a card play) or alone; the engine reads what the form wrote."""
    assert SHOWN.form_orders(posted("urn", {"points": "3", "play": "tlenamacac", **fields})) == \
        f"quetzalcoatl 3\n{text}\nplay tlenamacac"
    alone = SHOWN.form_orders(posted("dike", {**fields, "without_answer": "yes"}))
    assert alone == text
    [order] = new_state("form-1", 4).parse(alone)
    assert isinstance(order, (DealOffer, DealAnswer, Lend))


def test_an_offer_a_loan_and_an_answer_go_together():
    fields = {"deal-to": "toltecs", "give-tributes": "1", "deal-answer": "accept aztecs 1",
              "lend-to": "aztecs", "lend-boats": ["1"], "without_answer": "yes"}
    assert SHOWN.form_orders(posted("bid", fields)) == \
        "offer toltecs 1 tributes\naccept aztecs 1\nlend aztecs boats 1"


@pytest.mark.parametrize("fields, error", [
    ({"deal-to": "toltecs"}, "choose what you give or what you ask"),
    ({"deal-to": "toltecs", "give-tributes": "0", "take-tributes": "0"}, "choose what you give or what you ask"),
    ({"give-tributes": "2"}, "choose the player you make it to"),
    ({"take-card": ["tlaloc"]}, "choose the player you make it to"),
    ({"lend-to": "toltecs"}, "tick the lake zones"),
    ({"lend-boats": ["2"]}, "choose the player you lend"),
    ({"deal-to": "Toltecs; bid 9"}, "deal-to: not one of the choices"),
    ({"deal-to": "toltecs", "give-tributes": "-1"}, "give-tributes: not one of the choices"),
    ({"deal-to": "toltecs", "give-tributes": "9" * 40}, "give-tributes: not one of the choices"),
    ({"deal-to": "toltecs", "give-card": ["tlaloc\nbid 1 9"]}, "give-card: not one of the choices"),
    ({"deal-to": "toltecs", "give-card": ["raid"] * 13}, "give-card: not one of the choices"),
    ({"deal-to": "toltecs", "take-boats": ["0"]}, "take-boats: not one of the choices"),
    ({"lend-to": "toltecs", "lend-boats": ["2 3"]}, "lend-boats: not one of the choices"),
    ({"deal-answer": "accept aztecs 1\nbid 1 9"}, "deal-answer: not one of the choices"),
    ({"deal-answer": "steal aztecs 1"}, "deal-answer: not one of the choices"),
    ({"without_answer": "yes"}, "choose a deal to send, or send your answer"),
])
def test_malformed_deal_fields_are_refused_with_a_clear_error(fields, error):
    with pytest.raises(OrderError, match=error):
        SHOWN.form_orders(posted("urn", {"points": "1", **fields}))
