"""JSON error answers: {"error": code, "message": text, ...}."""
from __future__ import annotations

from typing import Any

from flask import jsonify


def error_response(status: int, code: str, message: str, **extra: Any) -> Any:
    body = {"error": code, "message": message, **{k: v for k, v in extra.items() if v}}
    response = jsonify(body)
    response.status_code = status
    if status == 401:
        response.headers["WWW-Authenticate"] = 'Bearer realm="pbem"'
    return response
