"""Schema management: bring a database to the newest migration (`pbem db upgrade`)."""
from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config

from pbem.config import database_url

MIGRATIONS = Path(__file__).resolve().parent.parent / "migrations"


def alembic_config(url: str | None = None) -> Config:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    # '%' is Alembic's interpolation character; URLs may hold percent-escapes.
    config.set_main_option("sqlalchemy.url", database_url(url).replace("%", "%%"))
    return config


def upgrade(url: str | None = None, revision: str = "head") -> None:
    """Create or upgrade the schema of the database at `url` (default: DATABASE_URL)."""
    url = database_url(url)
    if url.startswith("sqlite:///"):
        path = url[len("sqlite:///"):]
        if path and path != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
    command.upgrade(alembic_config(url), revision)
