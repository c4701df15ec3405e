"""The service names no game (docs/engine.md, "Adding a game"): outside each game's own
presentation package (pbem/games/<game>) and its templates (templates/games/<game>), no file of
the service, the worker or the templates names a game or its words.  Every text file of those
trees is read, so a template or a comment counts as much as code."""
from __future__ import annotations

import re
from pathlib import Path

import engine

ROOT = Path(__file__).resolve().parents[2]
TREES = ("pbem", "worker", "templates")
# Each game's name and words; Aztlán's seats were "tribes" until the service named no game.
WORDS = {"aztlan": r"aztl[aá]n|tribe", "coatl": r"\bc[oó]atls?\b", "duel": r"\bduel\b",
         "azteca": r"\bazteca\b|pochteca|tezcatlipoca"}


def named_games(root: Path) -> list[str]:
    """Each line under `root`'s trees that names a game outside that game's own folders."""
    files = [path for tree in TREES for path in sorted((root / tree).rglob("*"))
             if path.is_file() and "__pycache__" not in path.parts and path.suffix not in (".pyc", ".png", ".woff2")]
    found = []
    for game, words in WORDS.items():
        pattern = re.compile(words, re.IGNORECASE)
        for path in files:
            relative = path.relative_to(root)
            if relative.parts[:3] in (("pbem", "games", game), ("templates", "games", game)):
                continue
            for number, line in enumerate(path.read_text("utf-8", errors="replace").splitlines(), start=1):
                if pattern.search(line):
                    found.append(f"{relative}:{number}: {line.strip()[:100]}")
    return found


def test_the_service_names_no_game_outside_its_own_packages():
    assert set(engine.game_names()) <= set(WORDS), "add the new game's words to WORDS"
    found = named_games(ROOT)
    assert not found, "the service names a game:\n" + "\n".join(found)


def test_the_check_finds_a_game_named_in_the_service(tmp_path):
    (tmp_path / "pbem" / "services").mkdir(parents=True)
    (tmp_path / "pbem" / "services" / "oops.py").write_text("HOME = 'the tribes'\n", "utf-8")
    (tmp_path / "templates" / "games" / "aztlan").mkdir(parents=True)
    (tmp_path / "templates" / "games" / "aztlan" / "fine.html").write_text("Aztlán\n", "utf-8")
    (tmp_path / "templates" / "games" / "coatl").mkdir(parents=True)
    (tmp_path / "templates" / "games" / "coatl" / "wrong.html").write_text("an Aztlán word\n", "utf-8")
    assert named_games(tmp_path) == ["pbem/services/oops.py:1: HOME = 'the tribes'",
                                     "templates/games/coatl/wrong.html:1: an Aztlán word"]
