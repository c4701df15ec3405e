"""Indexes for the deadline tick's queries (docs/deadlines.md, "At scale"): paused games,
running games without a schedule, vacation stand-ins, seats' own deadlines under a clock, and
the time zones of the people who read a daily digest.  Indexes only: no row changes.

Revision ID: 0017
Revises: 0016
Create Date: 2026-12-02
"""
from __future__ import annotations

from alembic import op

revision = '0017'
down_revision = '0016'
branch_labels = None
depends_on = None

INDEXES = (
    ('ix_games_paused_at', 'games', ['paused_at']),
    ('ix_games_status_decision_seq', 'games', ['status', 'decision_seq']),
    ('ix_seats_stand_in_reason', 'seats', ['stand_in_reason']),
    ('ix_seats_deadline_at', 'seats', ['deadline_at']),
    ('ix_users_opponent_moves_time_zone', 'users', ['opponent_moves', 'time_zone']),
)


def upgrade() -> None:
    for name, table, columns in INDEXES:
        op.create_index(name, table, columns)


def downgrade() -> None:
    for name, table, _ in reversed(INDEXES):
        op.drop_index(name, table_name=table)
