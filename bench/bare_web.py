"""The production WSGI app with the bare order endpoint (bench/bare.py), for gunicorn in
bench/worker.py: `gunicorn bench.bare_web:app`.  Same configuration, same server set-up."""
from bench.bare import with_bare_routes
from pbem.wsgi import app as production_app

app = with_bare_routes(production_app, queued=True)
