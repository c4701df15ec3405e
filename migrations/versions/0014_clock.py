"""Clocks (docs/deadlines.md, "Clocks"): a seat's reserve of time, the decision its clock runs
in, when it acted there, its own deadline and its reminders.  Every column is empty for games
without a clock, so every game of the previous release plays on unchanged.

Revision ID: 0014
Revises: 0013
Create Date: 2026-11-26
"""
from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = '0014'
down_revision = '0013'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('seats', schema=None) as batch_op:
        batch_op.add_column(sa.Column('reserve_seconds', sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column('clock_seq', sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column('clock_acted_at', sa.DateTime(timezone=True), nullable=True))
        batch_op.add_column(sa.Column('deadline_at', sa.DateTime(timezone=True), nullable=True))
        batch_op.add_column(sa.Column('reminded', sa.Integer(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table('seats', schema=None) as batch_op:
        for column in ('reminded', 'deadline_at', 'clock_acted_at', 'clock_seq', 'reserve_seconds'):
            batch_op.drop_column(column)
