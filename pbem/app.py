"""The Flask application factory."""
from __future__ import annotations

from typing import Any, Mapping

from flask import Flask, g, session
from flask_wtf.csrf import CSRFError
from jinja2 import BaseLoader, ChoiceLoader, FileSystemLoader

import pbem.leagues.models  # noqa: F401  - the leagues' tables join the metadata
import pbem.mail.models  # noqa: F401  - the gateway's table joins the metadata
import pbem.outbox.models  # noqa: F401  - and so do the tables of outgoing mail
from pbem.api import api_bp
from pbem.checks import warn_missing_parts
from pbem.config import ROOT, load_config
from pbem.extensions import csrf, db, limiter
from pbem.games import template_loader as game_templates
from pbem.inputs import DatabaseInt, JSONProvider, refuse_hostile_input
from pbem.logs import redact_secret_links
from pbem.mail.webhook import bp as mail_bp
from pbem.services.accounts import session_user
from pbem.transactions import end_read_only
from pbem.web import register as register_web

# Content-Security-Policy: our own scripts and styles only; inline style attributes are
# allowed for the SVG board (fills and strokes), never inline scripts.
CSP = ("default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
       "img-src 'self' data:; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; "
       "form-action 'self'")


def create_app(config: Mapping[str, Any] | None = None) -> Flask:
    app = Flask(__name__, template_folder=str(ROOT / "templates"), static_folder="static")
    app.config.update(load_config(config))
    # Hostile input gets a clear answer before any view reads it (pbem/inputs.py).
    app.json = JSONProvider(app)
    app.url_map.converters["int"] = DatabaseInt  # before any route is added
    redact_secret_links(app)  # sign-in and confirmation links never reach a log
    app.jinja_loader = template_loader()  # the service's templates, then each game's own
    app.jinja_env.autoescape = True  # every template, whatever its file name
    app.jinja_env.trim_blocks = app.jinja_env.lstrip_blocks = True

    db.init_app(app)
    # Runs before Flask-SQLAlchemy removes the session (teardowns run last added first).
    app.teardown_appcontext(lambda _error: end_read_only(db.session()))
    csrf.init_app(app)
    limiter.init_app(app)

    register_web(app)
    app.register_blueprint(api_bp)
    csrf.exempt(api_bp)  # bearer tokens, no cookies: nothing for a forged form to ride on
    app.register_blueprint(mail_bp)
    csrf.exempt(mail_bp)  # signed webhook and signed unsubscribe links; no session is used

    app.before_request(refuse_hostile_input)
    app.before_request(_load_user)
    app.after_request(_security_headers)
    app.register_error_handler(CSRFError, _csrf_error)
    warn_missing_parts(app.config)  # once per process, loudly: Pango, the rasteriser, fonts (pbem/checks.py)
    return app


def template_loader() -> BaseLoader:
    """templates/, then each game presentation's templates under "games/<game>/"."""
    return ChoiceLoader([FileSystemLoader(str(ROOT / "templates")), game_templates()])


def _load_user() -> None:
    g.user = session_user(db.session(), session.get("uid"), session.get("gen", 0))
    if g.user is None and "uid" in session:
        session.clear()  # the account is gone, or it signed out since this session began


def _security_headers(response: Any) -> Any:
    response.headers.setdefault("Content-Security-Policy", CSP)
    response.headers.setdefault("X-Content-Type-Options", "nosniff")
    response.headers.setdefault("X-Frame-Options", "DENY")
    # Sign-in links carry a token in the path: never send it on as a referrer.
    response.headers.setdefault("Referrer-Policy", "same-origin")
    return response


def _csrf_error(error: CSRFError) -> Any:
    from flask import render_template
    return render_template("error.html", title="Form expired",
                           message="The form was too old or came from elsewhere. Go back, reload the page "
                                   "and try again."), 400
