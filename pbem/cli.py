"""The `pbem` command: replay game records, play bot games, and run the service."""
from __future__ import annotations

import json
import random
import sys
from typing import Any

import click

from engine import default_game, get_game
from engine.core import Game, SetupError, State, play_out
from engine.records import ReplayError, replay
from pbem.text import option_value


@click.group()
def main() -> None:
    """pbem: play-by-email board games."""


def _summary(state: State) -> dict[str, Any]:
    """Each scored round's scoring per seat (under the game's name for its rounds, pluralised),
    and the final result once the game is over."""
    game = get_game(state.game)
    # A game need not score every round: each scoring belongs to its scored milestone's round.
    scored = [milestone.round for milestone in state.milestones() if milestone.scored]
    out: dict[str, Any] = {
        "game": state.game,
        "complete": state.is_over(),
        f"{game.round_name}s": [{game.round_name: number, "scores": scores}
                                for number, scores in zip(scored, state.scores_by_round())],
    }
    if state.is_over():
        result = state.result()
        out.update({"final_scores": dict(result.scores), result.breakdown_key: result.breakdown,
                    "ranking": list(result.ranking), "winner": result.winner, "tiebreak": result.tie_break})
        if result.shared:
            out["places"] = dict(result.places)
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
    """Replay a game record of any registered game and print its results as JSON
    (docs/records.md).

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


DEFAULT_BOTS = ("heuristic", "random", "random")


def _option(game: Game, text: str) -> tuple[str, Any]:
    """NAME=VALUE as the game's option takes it: a number where it takes numbers."""
    if "=" not in text:
        raise click.ClickException("options are given as NAME=VALUE")
    name, value = text.split("=", 1)
    known = {option.name: option for option in game.options}
    # An unknown name goes as given: the game's own check says what it allows.
    return name, option_value(known[name], value) if name in known else value


@main.command("play")
@click.option("--game", "game_name", default=lambda: default_game().name, show_default="the default game",
              help="A registered game; the default game is PBEM_DEFAULT_GAME's, else pbem's first "
                   "(engine.default_game).")
@click.option("--bots", default=None,
              help="One bot per player, comma-separated, among the game's bot kinds "
                   "(default: heuristic,random,random; random for each seat of the smallest "
                   "game where the game has no heuristic bot).")
@click.option("--seed", default=None, help="Seed of the game (default: random).")
@click.option("--board", default=None, help="A packaged board name, for games with a choice of boards.")
@click.option("--edition", default=None, help="A packaged edition name, for games with a choice of editions.")
@click.option("--option", "options", multiple=True, metavar="NAME=VALUE",
              help="A rule option of the game (docs/rules.md), e.g. final_tiebreak=top. Repeatable.")
@click.option("--out", "out_path", default=None, help="Write the game record here.")
def play_command(game_name: str | None, bots: str | None, seed: str | None, board: str | None,
                 edition: str | None, options: tuple[str, ...], out_path: str | None) -> None:
    """Play a whole game between bots and write its record."""
    try:
        game = get_game(game_name)
    except SetupError as error:
        raise click.ClickException(str(error)) from None
    if bots is None:
        names = list(DEFAULT_BOTS) if set(DEFAULT_BOTS) <= set(game.bots) else ["random"] * game.min_players
    else:
        names = [name.strip() for name in bots.split(",") if name.strip()]
    seed_value: int | str = seed if seed is not None else random.SystemRandom().randrange(2**32)
    chosen = dict(_option(game, option) for option in options)
    try:
        seats = game.seating(seed_value, len(names))
        record: dict[str, Any] = {"game": game.name}
        record.update({key: value for key, value in (("board", board), ("edition", edition)) if value})
        record.update(options=chosen, seed=seed_value,
                      players=[{"seat": seat, "name": f"{name} bot"} for seat, name in zip(seats, names)])
        state = game.new_game(record)
        play_out(state, [game.make_bot(name, f"{seed_value}:{i}") for i, name in enumerate(names)])
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
    import logging
    import os

    from pbem.app import create_app
    from pbem.mail.smtpd import serve

    logging.basicConfig(level=os.environ.get("PBEM_LOG_LEVEL", "INFO"),
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    raise SystemExit(serve(create_app({"RATELIMIT_ENABLED": False})))


@main.command("imap-poll")
def imap_poll_command() -> None:
    """Poll the IMAP mailbox (PBEM_IMAP_*) once and process what came in, e.g. from cron."""
    from pbem.app import create_app
    from pbem.mail.imap import run

    raise SystemExit(run(create_app({"RATELIMIT_ENABLED": False})))


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


@main.group("league")
def league_group() -> None:
    """Leagues (docs/leagues.md)."""


@league_group.command("simulate")
@click.option("--game", "game_name", required=True, help="A registered game.")
@click.option("--players", type=click.IntRange(2, 1000), default=32, show_default=True)
@click.option("--rounds", "rounds_count", type=click.IntRange(1, 50), default=3, show_default=True)
@click.option("--seed", default="1", show_default=True, help="Seeds the seating and every game.")
@click.option("--table-size", type=int, default=None, help="Seats per table (default: 4, or the game's most).")
@click.option("--scoring", default="rank", show_default=True, help="rank, share or squares.")
@click.option("--database", default=None,
              help="A database URL (default: a new SQLite file in a temporary folder, removed afterwards).")
@click.option("--timeout", type=float, default=3600.0, show_default=True, help="Seconds to wait for the league.")
def league_simulate_command(game_name: str, players: int, rounds_count: int, seed: str, table_size: int | None,
                            scoring: str, database: str | None, timeout: float) -> None:
    """Play a whole league with a bot in every seat, through the same services and workers
    as a real one, on `make run`'s embedded defaults (SQLite, the file transport, a worker
    with beat beside this process), and print the final standings as JSON."""
    import os
    import signal
    import tempfile
    import time

    from pbem.app import create_app
    from pbem.db import upgrade
    from pbem.extensions import db
    from pbem.leagues import simulate
    from pbem.services.errors import ServiceError
    from worker.dev import start_worker, stop_worker

    try:
        get_game(game_name)
    except SetupError as error:
        raise click.ClickException(str(error)) from None
    with tempfile.TemporaryDirectory(prefix="pbem-league-") as folder:
        url = database or f"sqlite:///{folder}/league.sqlite3"
        settings = {"DATABASE_URL": url, "PBEM_ENV": "development", "PBEM_ADVANCE": "queue",
                    "PBEM_QUEUE_DIR": os.path.join(folder, "celery"), "PBEM_REPORT_MAIL": "off"}
        env = {key: value for key, value in os.environ.items() if key != "REDIS_URL"} | settings
        os.environ.pop("REDIS_URL", None)
        upgrade(url)
        app = create_app({**settings, "REDIS_URL": None, "RATELIMIT_ENABLED": False})
        log = open(os.path.join(folder, "worker.log"), "wb")
        signal.signal(signal.SIGTERM, _stop_on_term)  # so the worker is stopped too
        worker = start_worker(env, stdout=log.fileno())
        try:
            with app.app_context():
                session = db.session()
                try:
                    league_id = simulate.set_up(session, game_name, players, rounds_count, seed,
                                                table_size=table_size, scoring=scoring)
                except ServiceError as error:
                    raise click.ClickException(error.message) from None
                end = time.monotonic() + timeout
                seen = -1
                while True:
                    status, done = simulate.progress(session, league_id)
                    if done != seen:
                        click.echo(f"rounds finished: {done} of {rounds_count}", err=True)
                        seen = done
                    if status == "finished":
                        break
                    if worker.poll() is not None or time.monotonic() > end:
                        log.flush()
                        tail = open(os.path.join(folder, "worker.log"), errors="replace").read()[-2000:]
                        raise click.ClickException(f"the league did not finish ({done} of {rounds_count} rounds); "
                                                   f"the worker's log ends:\n{tail}")
                    time.sleep(0.5)
                click.echo(json.dumps(simulate.report(session, league_id), indent=2, ensure_ascii=False))
        finally:
            stop_worker(worker)
            log.close()
            with app.app_context():
                db.engine.dispose()


def _stop_on_term(signum: int, frame: Any) -> None:
    raise SystemExit(128 + signum)
