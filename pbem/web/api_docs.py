"""The API's interactive documentation at /api/docs: Swagger UI reading /api/openapi.json.

Swagger UI's own files come from the flask-swagger-ui package (its `dist` folder, the
upstream build with its licence and VERSION file); only they are used, not the package's
blueprint, whose page starts Swagger UI with an inline script that the Content-Security-Policy
forbids.  Our page loads them from here (no CDN) and starts Swagger UI from a static file of
ours (pbem/static/api-docs.js) that reads the document's address from the page.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

import flask_swagger_ui
from flask import Blueprint, abort, render_template, send_from_directory

bp = Blueprint("api_docs", __name__)

SWAGGER_UI = Path(flask_swagger_ui.__file__).resolve().parent / "dist"
# The files the page loads, and the licence and version beside them; nothing else is served.
ASSETS = frozenset({"swagger-ui.css", "swagger-ui-bundle.js", "LICENSE", "VERSION"})


def swagger_ui_version() -> str:
    return (SWAGGER_UI / "VERSION").read_text("utf-8").strip().lstrip("v")


@bp.get("/api/docs")
def page() -> Any:
    return render_template("api/docs.html", swagger_ui_version=swagger_ui_version())


@bp.get("/api/docs/assets/<name>")
def asset(name: str) -> Any:
    if name not in ASSETS:
        abort(404)
    response = send_from_directory(SWAGGER_UI, name, max_age=86400)
    if name in ("LICENSE", "VERSION"):
        response.mimetype = "text/plain"
    return response
