"""What every request must look like before any view reads it (docs/service.md, "Security").

- Ids and numbers in paths fit the database's INTEGER columns (1 to 2^31 - 1); any other
  number is a 404, never a database error.
- JSON bodies are standard JSON (no NaN or Infinity) nested at most MAX_JSON_DEPTH deep; a
  deeper one is refused before the parser could run out of stack.
- No path, query, form field or JSON string (keys included) holds a control character or a
  lone surrogate (pbem.text.forbidden_in_input): the request is refused with 400, so
  nothing of it reaches the database.  Names and titles are also made one line of visible
  text where they are stored (pbem.models.OneLine).
"""
from __future__ import annotations

import json
import math
from typing import Any, Iterator

from flask import request
from flask.json.provider import DefaultJSONProvider
from werkzeug.exceptions import BadRequest, NotFound
from werkzeug.routing import IntegerConverter, Map

from pbem.text import forbidden_in_input

MAX_ID = 2 ** 31 - 1  # PostgreSQL's INTEGER, the type of every id column
MAX_JSON_DEPTH = 32
# Blueprints that read their body raw (the signed mail webhook): their body is theirs to check.
RAW_BODY_BLUEPRINTS = frozenset({"mail"})


class DatabaseInt(IntegerConverter):
    """`<int:...>` in every route: a non-negative number the database can hold."""

    def __init__(self, map: Map, fixed_digits: int = 0, min: int | None = None, max: int | None = MAX_ID,
                 signed: bool = False) -> None:
        super().__init__(map, fixed_digits, min, max, signed)


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def _finite(text: str) -> float:
    number = float(text)
    if math.isinf(number):  # 1e400: too large for a number we could use
        raise ValueError(f"{text[:20]} is too large")
    return number


def _too_deep(data: Any, limit: int) -> bool:
    stack = [(data, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, (dict, list)):
            if depth > limit:
                return True
            stack.extend((child, depth + 1) for child in (item.values() if isinstance(item, dict) else item))
    return False


class JSONProvider(DefaultJSONProvider):
    """The app's JSON (`app.json`), which request.get_json() parses with: a ValueError here
    becomes its usual answer (400, or None when called with silent=True)."""

    def loads(self, s: str | bytes, **kwargs: Any) -> Any:
        try:
            parsed = json.loads(s, parse_constant=_refuse_constant, parse_float=_finite, **kwargs)
        except RecursionError:
            raise ValueError("JSON nested too deeply") from None
        if _too_deep(parsed, MAX_JSON_DEPTH):
            raise ValueError(f"JSON nested more than {MAX_JSON_DEPTH} deep")
        return parsed


def _strings(data: Any) -> Iterator[str]:
    stack = [data]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            yield item
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)


def _request_texts() -> Iterator[str]:
    for key, value in request.args.items(multi=True):
        yield key
        yield value
    if request.blueprint in RAW_BODY_BLUEPRINTS:
        return
    for key, value in request.form.items(multi=True):
        yield key
        yield value
    if request.is_json:
        yield from _strings(request.get_json(silent=True))


def refuse_hostile_input() -> None:
    """A before-request hook: refuse control characters anywhere in the request."""
    if forbidden_in_input(request.path):
        raise NotFound("There is nothing at this address.")
    if any(forbidden_in_input(text) for text in _request_texts()):
        raise BadRequest("The request holds a control character (such as NUL) or a broken character; "
                         "nothing was changed. Send plain text.")
