"""The Celery side of pbem: `celery_app` (the Celery app, built from the Flask app's
configuration) and `tasks` (thin named tasks that call the application layer).

    celery -A worker.celery_app worker      # run tasks
    celery -A worker.celery_app beat        # the 30-second tick

Importing this package starts nothing; `worker.dev` starts a worker beside `make run`.
"""
