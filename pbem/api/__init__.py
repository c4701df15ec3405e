"""The JSON API under /api: bearer-token authentication, marshmallow schemas, OpenAPI."""
from __future__ import annotations

from flask import Blueprint

api_bp = Blueprint("api", __name__, url_prefix="/api")

from pbem.api import league_routes, routes  # noqa: E402,F401  (register the routes on api_bp)
