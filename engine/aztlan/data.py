"""The boards and editions shipped with the engine.  The only files the engine reads."""
from __future__ import annotations

import json
import re
from functools import lru_cache
from importlib import resources
from typing import Any

from engine.aztlan.board import Board, load_board
from engine.aztlan.edition import Edition, load_edition
from engine.core import SetupError

_NAME = re.compile(r"^[a-z0-9][a-z0-9-]{0,40}$")


def _read(folder: str, name: str) -> Any:
    if not _NAME.match(name):
        raise SetupError(f"no {folder[:-1]} named {name!r}")
    try:
        text = resources.files("engine.aztlan").joinpath(folder, f"{name}.json").read_text("utf-8")
    except FileNotFoundError:
        raise SetupError(f"no {folder[:-1]} named {name!r}; shipped: {', '.join(names(folder))}") from None
    return json.loads(text)


def names(folder: str) -> list[str]:
    return sorted(entry.name[:-5] for entry in resources.files("engine.aztlan").joinpath(folder).iterdir()
                  if entry.name.endswith(".json"))


@lru_cache(maxsize=None)
def packaged_board(name: str) -> Board:
    return load_board(_read("boards", name))


@lru_cache(maxsize=None)
def packaged_edition(name: str) -> Edition:
    return load_edition(_read("editions", name))
