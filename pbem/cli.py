"""The `pbem` command: replay game records, play bot games, and run the service."""
from __future__ import annotations

import json
import random
import sys
from typing import Any

import click

from engine import get_game
from engine.core import SetupError
from engine.records import ReplayError, replay


@click.group()
def main() -> None:
    """pbem: play-by-email board games (Aztlán)."""


def _summary(state: Any) -> dict[str, Any]:
    """Each age's scoring breakdown per seat, and the final result once the game is over."""
    out: dict[str, Any] = {
        "game": state.game,
        "complete": state.is_over(),
        "ages": [{"age": age, "scores": scores} for age, scores in enumerate(state.age_scores, start=1)],
    }
    if state.is_over():
        result = state.result()
        out.update(final_scores=result["scores"], bonuses=result["bonuses"],
                   ranking=result["ranking"], winner=result["winner"], tiebreak=result["tiebreak"])
    else:
        out["waiting"] = [d.public() for d in state.decisions(options=False)]
    return out


def _load_json(path: str) -> Any:
    try:
        with open(path, encoding="utf-8") as handle:
            return json.load(handle)
    except (OSError, ValueError) as error:
        raise click.ClickException(f"cannot read {path}: {error}") from None


@main.command("replay")
@click.argument("record_path", metavar="RECORD.json")
def replay_command(record_path: str) -> None:
    """Replay a game record and print its results as JSON (docs/records.md).

    Stops with exit status 1 at the first illegal order; the JSON then holds the
    results so far and the error.
    """
    record = _load_json(record_path)
    try:
        state = replay(record)
    except SetupError as error:
        raise click.ClickException(str(error)) from None
    except ReplayError as error:
        out = _summary(error.state)
        out["error"] = {"message": str(error), "order": error.index + 1, "line": error.line}
        click.echo(json.dumps(out, indent=2, ensure_ascii=False))
        click.echo(f"pbem replay: {error}", err=True)
        sys.exit(1)
    click.echo(json.dumps(_summary(state), indent=2, ensure_ascii=False))


@main.command("play")
@click.option("--bots", default="heuristic,random,random", show_default=True,
              help="One bot per player, comma-separated: random or heuristic (2 to 4 names).")
@click.option("--seed", default=None, help="Seed of the game (default: random).")
@click.option("--board", default="default", show_default=True, help="A packaged board name.")
@click.option("--edition", default="default", show_default=True, help="A packaged edition name.")
@click.option("--option", "options", multiple=True, metavar="NAME=VALUE",
              help="A rule option (docs/rules.md), e.g. final_tiebreak=top. Repeatable.")
@click.option("--out", "out_path", default=None, help="Write the game record here.")
def play_command(bots: str, seed: str | None, board: str, edition: str, options: tuple[str, ...],
                 out_path: str | None) -> None:
    """Play a whole game between bots and write its record."""
    from engine.aztlan.bots import make_bot, play_out

    names = [name.strip() for name in bots.split(",") if name.strip()]
    game = get_game("aztlan")
    seed_value: int | str = seed if seed is not None else random.SystemRandom().randrange(2**32)
    try:
        chosen = dict(option.split("=", 1) for option in options)
    except ValueError:
        raise click.ClickException("options are given as NAME=VALUE") from None
    try:
        seats = game.seating(seed_value, len(names))
        record = {"game": "aztlan", "board": board, "edition": edition, "options": chosen,
                  "seed": seed_value,
                  "players": [{"seat": seat, "name": f"{name} bot"} for seat, name in zip(seats, names)]}
        state = game.new_game(record)
        play_out(state, [make_bot(name, f"{seed_value}:{i}") for i, name in enumerate(names)])
    except (SetupError, ValueError) as error:
        raise click.ClickException(str(error)) from None
    record["orders"] = state.order_log()
    if out_path:
        with open(out_path, "w", encoding="utf-8") as handle:
            json.dump(record, handle, indent=1, ensure_ascii=False)
            handle.write("\n")
    click.echo(json.dumps(_summary(state) | {"record": out_path}, indent=2, ensure_ascii=False))


@main.command("run")
def run_command() -> None:
    """Start the whole service on embedded defaults (SQLite, outbox mail) for development."""
    from pbem.devserver import main as serve

    serve()


@main.command("smtpd")
def smtpd_command() -> None:
    """Run the inbound SMTP gateway (PBEM_SMTPD_HOST / PBEM_SMTPD_PORT, 127.0.0.1:2525)."""
    from pbem.mail.smtpd import main as smtpd

    raise SystemExit(smtpd())


@main.group("db")
def db_group() -> None:
    """Database schema commands."""


@db_group.command("upgrade")
def db_upgrade_command() -> None:
    """Create or migrate the schema of DATABASE_URL (default: a SQLite file under instance/)."""
    from pbem.config import database_url
    from pbem.db import upgrade

    upgrade()
    click.echo(f"schema is up to date: {database_url()}")
