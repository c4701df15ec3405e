"""Opponent-move mails: each user's preference and each seat's digest cursor.

users: opponent_moves ("off", "each", "digest"), digest_hour (local), digest_on (the local
day of the last digest); seats: events_reported (how many of the seat's visible events were
mailed).  See docs/email.md, "Opponents' moves".

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-21
"""
from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = '0005'
down_revision = '0004'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('users', schema=None) as batch_op:
        batch_op.add_column(sa.Column('opponent_moves', sa.String(length=8), server_default='digest', nullable=False))
        batch_op.add_column(sa.Column('digest_hour', sa.Integer(), server_default='8', nullable=False))
        batch_op.add_column(sa.Column('digest_on', sa.Date(), nullable=True))

    with op.batch_alter_table('seats', schema=None) as batch_op:
        batch_op.add_column(sa.Column('events_reported', sa.Integer(), server_default='0', nullable=False))


def downgrade() -> None:
    with op.batch_alter_table('seats', schema=None) as batch_op:
        batch_op.drop_column('events_reported')

    with op.batch_alter_table('users', schema=None) as batch_op:
        batch_op.drop_column('digest_on')
        batch_op.drop_column('digest_hour')
        batch_op.drop_column('opponent_moves')
