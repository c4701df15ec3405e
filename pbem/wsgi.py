"""The WSGI entry point for a production server: `gunicorn pbem.wsgi:app`.

Configuration comes from the environment (docs/service.md); run `pbem db upgrade`
(pbem.db.upgrade) before starting new code against an existing database.
"""
from pbem.app import create_app

app = create_app()
