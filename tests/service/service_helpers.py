"""Helpers for the service tests: read HTML forms like a browser, sign in through the
mailed link, make people and games through the application layer."""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from html.parser import HTMLParser
from typing import Any

from sqlalchemy import select

from pbem.extensions import db
from pbem.models import Game, OutboxMessage, User
from pbem.services import accounts, lobby, play

BASE_URL = "http://pbem.test"


# ---- HTML forms -----------------------------------------------------------------------------

@dataclass
class Form:
    action: str
    method: str
    attrs: dict[str, str]
    fields: list[dict[str, Any]] = field(default_factory=list)  # inputs, selects, textareas in order

    def field(self, name: str) -> dict[str, Any]:
        return next(f for f in self.fields if f["name"] == name)

    def names(self) -> list[str]:
        return [f["name"] for f in self.fields if f["name"]]

    def options(self, name: str) -> list[str]:
        """A select's option values, or the values of a radio or checkbox group."""
        found = [f for f in self.fields if f["name"] == name]
        if found and found[0]["tag"] == "select":
            return found[0]["options"]
        return [f["value"] for f in found]

    def data(self, **chosen: Any) -> dict[str, Any]:
        """What a browser would post: defaults (hidden, checked, selected), then `chosen`
        (a value of None leaves the field out, like an unticked box)."""
        out: dict[str, Any] = {}
        for f in self.fields:
            name = f["name"]
            if not name or f.get("type") in ("submit", "button"):
                continue
            if f["tag"] == "select":
                out[name] = f["selected"] if f["selected"] is not None else (f["options"] or [""])[0]
            elif f.get("type") == "radio":
                if f.get("checked"):
                    out[name] = f["value"]
            elif f.get("type") == "checkbox":
                if f.get("checked"):
                    out.setdefault(name, []).append(f["value"])
            else:
                out[name] = f.get("value", "")
        out.update(chosen)
        return {name: value for name, value in out.items() if value is not None}


class _FormParser(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.forms: list[Form] = []
        self.current: Form | None = None
        self.select: dict[str, Any] | None = None
        self.textarea: dict[str, Any] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        if tag == "form":
            self.current = Form(a.get("action", ""), a.get("method", "get").lower(), a)
            self.forms.append(self.current)
        elif self.current is None:
            return
        elif tag == "input":
            self.current.fields.append({"tag": "input", "name": a.get("name", ""), "type": a.get("type", "text"),
                                        "value": a.get("value", "on" if a.get("type") in ("radio", "checkbox") else ""),
                                        "checked": "checked" in a})
        elif tag == "select":
            self.select = {"tag": "select", "name": a.get("name", ""), "options": [], "selected": None, "attrs": a}
            self.current.fields.append(self.select)
        elif tag == "option" and self.select is not None:
            self.select["options"].append(a.get("value", ""))
            if "selected" in a:
                self.select["selected"] = a.get("value", "")
        elif tag == "textarea":
            self.textarea = {"tag": "textarea", "name": a.get("name", ""), "value": ""}
            self.current.fields.append(self.textarea)

    def handle_endtag(self, tag: str) -> None:
        if tag == "form":
            self.current = None
        elif tag == "select":
            self.select = None
        elif tag == "textarea":
            self.textarea = None

    def handle_data(self, data: str) -> None:
        if self.textarea is not None:
            self.textarea["value"] += data


def forms(html: str | bytes) -> list[Form]:
    parser = _FormParser()
    parser.feed(html.decode() if isinstance(html, bytes) else html)
    return parser.forms


def form_with(html: str | bytes, action_part: str, **attrs: str) -> Form:
    found = [f for f in forms(html) if action_part in f.action
             and all(f.attrs.get(k.replace("_", "-")) == v for k, v in attrs.items())]
    assert found, f"no form posting to {action_part!r} with {attrs}"
    return found[0]


def submit(client: Any, page_url: str, action_part: str, follow: bool = True, **chosen: Any) -> Any:
    """GET a page, fill the form that posts to `action_part`, post it (CSRF token included)."""
    page = client.get(page_url)
    assert page.status_code == 200, page.status_code
    form = form_with(page.data, action_part)
    return client.post(form.action, data=form.data(**chosen), follow_redirects=follow)


# ---- people -----------------------------------------------------------------------------------

def last_link(session: Any, address: str) -> str:
    body = session.scalar(select(OutboxMessage.body).where(OutboxMessage.to_address == address)
                          .order_by(OutboxMessage.id.desc()))
    assert body, f"no mail to {address}"
    match = re.search(re.escape(BASE_URL) + r"(/\S+)", body)
    assert match, body
    return match.group(1)


def web_sign_in(client: Any, app: Any, address: str) -> None:
    """Sign in like a person: ask for a link, open it from the outbox, press the button."""
    response = submit(client, "/signin", "/signin", email=address)
    assert b"Check your mail" in response.data
    with app.app_context():
        link = last_link(db.session(), address.strip().lower())
    response = submit(client, link, link)
    assert response.status_code == 200


def make_user(session: Any, address: str, name: str | None = None) -> User:
    """A person, signed up through the same service calls as the web uses."""
    accounts.request_sign_in(session, address, base_url=BASE_URL)
    token = last_link(session, address).rsplit("/", 1)[1]
    user = accounts.complete_sign_in(session, token)
    if name:
        accounts.update_profile(session, user, display_name=name, time_zone="UTC", notify_turn=True,
                                notify_results=True, notify_invites=True)
    return user


def make_game(session: Any, creator: User, *, players: int = 3, bots: tuple[str, ...] = ("heuristic", "random"),
              seed: int = 7, **extra: Any) -> Game:
    game = lobby.create_game(session, creator, lobby.NewGame(title=extra.pop("title", "Test game"), players=players,
                                                             bots=bots, seed=seed, **extra),
                             base_url=BASE_URL)
    return session.get(Game, game.id)


def decision_forms(html: str | bytes) -> list[Form]:
    """The game page's decision forms."""
    return [f for f in forms(html) if "decision" in f.attrs.get("class", "")]


def owed(session: Any, game: Game, user: User) -> dict[str, Any] | None:
    """The decision the user's seat owes now, with its options (None: none)."""
    session.expire_all()
    found = play.game_view(session, session.get(Game, game.id), user).view.get("me", {}).get("decisions", [])
    return found[0] if found else None
