"""The application layer: every channel (web, API, and later email and workers) calls these.

Plain functions taking a SQLAlchemy session; no Flask request objects in here.  Each
public function is one unit of work and commits it, so what it returns is durable.
"""
