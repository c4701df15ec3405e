"""The browser side: blueprints for sign-in, profile, lobby, game pages and the dev outbox.

Helpers shared by the blueprints live here: who is signed in, where to go after sign-in,
how service errors become pages, and time shown in the reader's time zone.
"""
from __future__ import annotations

from datetime import datetime
from functools import wraps
from typing import Any, Callable, TypeVar
from urllib.parse import urlsplit

from flask import Flask, current_app, flash, g, make_response, redirect, render_template, request, url_for

from pbem.models import User
from pbem.services.clock import hours_text
from pbem.services.errors import ServiceError
from pbem.timezones import when, zone_of

F = TypeVar("F", bound=Callable[..., Any])


def register(app: Flask) -> None:
    from pbem.web import api_docs, auth, dev, game, lobby, ops, press, profile, reply_address, review, rules, turns

    for module in (auth, profile, lobby, game, press, rules, turns, reply_address, review, ops, dev, api_docs):
        app.register_blueprint(module.bp)
    app.register_error_handler(ServiceError, service_error)
    app.register_error_handler(400, lambda e: http_error(400, "bad-request", "Bad request", e.description))
    app.register_error_handler(413, lambda e: http_error(413, "too-large", "Too large",
                                                         "The request is larger than this service takes."))
    app.register_error_handler(404, lambda e: http_error(404, "not-found", "Not found",
                                                         "There is nothing at this address."))
    app.register_error_handler(405, lambda e: http_error(405, "method-not-allowed", "Not allowed",
                                                         "This address does not take that method."))
    app.register_error_handler(429, lambda e: http_error(429, "rate-limited", "Slow down",
                                                         f"Too many requests ({e.description}); try again later.",
                                                         e.get_response().headers))
    app.jinja_env.filters["localtime"] = localtime
    app.jinja_env.filters["when"] = lambda moment: when(moment, current_user())
    app.jinja_env.filters["reserve"] = hours_text  # a clock's reserve in seconds, as hours or days
    app.jinja_env.globals["base_url"] = lambda: current_app.config["PBEM_BASE_URL"]


def current_user() -> User | None:
    return getattr(g, "user", None)


def signed_in() -> User:
    """The signed-in person, in a view behind `login_required`."""
    user = current_user()
    if user is None:
        raise RuntimeError("signed_in() outside a login_required view")
    return user


def login_required(view: F) -> F:
    @wraps(view)
    def wrapped(*args: Any, **kwargs: Any) -> Any:
        if current_user() is None:
            flash("Sign in first.", "info")
            return redirect(url_for("auth.signin", next=request.full_path.rstrip("?")))
        return view(*args, **kwargs)
    return wrapped  # type: ignore[return-value]


def safe_next(target: str | None, default: str = "/") -> str:
    """Only local paths: a sign-in must never bounce the browser to another site.  Browsers
    drop tabs and newlines from a URL and read a backslash as a slash, so "/%09/evil.example"
    (a tab) would be "//evil.example" to them: any whitespace, control or backslash is refused."""
    if (not target or not target.startswith("/") or target.startswith("//") or "\\" in target
            or any(char.isspace() or not char.isprintable() for char in target)):
        return default
    parts = urlsplit(target)
    if parts.scheme or parts.netloc:
        return default
    return target


def no_referrer(view: F) -> F:
    """For pages whose address is a secret (a sign-in link): their own requests (style
    sheet, the form's post, the page after it) send no Referer that would carry it on."""
    @wraps(view)
    def wrapped(*args: Any, **kwargs: Any) -> Any:
        response = make_response(view(*args, **kwargs))
        response.headers["Referrer-Policy"] = "no-referrer"
        return response
    return wrapped  # type: ignore[return-value]


def service_error(error: ServiceError) -> Any:
    if request.blueprint == "api":
        from pbem.api.errors import error_response
        return error_response(error.status, error.code, error.message)
    return render_template("error.html", title="That did not work", message=error.message), error.status


def http_error(status: int, code: str, title: str, message: str, headers: Any = None) -> Any:
    """An HTTP error as JSON under /api/, else as a page."""
    if request.path.startswith("/api/"):
        from pbem.api.errors import error_response
        response = error_response(status, code, message)
    else:
        response = current_app.make_response((render_template("error.html", title=title, message=message), status))
    for name in ("Retry-After", "X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset"):
        if headers is not None and name in headers:
            response.headers[name] = headers[name]
    return response


def back(default: str, message: str | None = None, category: str = "info") -> Any:
    """Redirect after a form post (to the page the form was on)."""
    if message:
        flash(message, category)
    return redirect(safe_next(request.form.get("next"), default))


def localtime(moment: datetime | None, fmt: str = "%Y-%m-%d %H:%M %Z") -> str:
    if moment is None:
        return ""
    user = current_user()
    return moment.astimezone(zone_of(user)).strftime(fmt)
