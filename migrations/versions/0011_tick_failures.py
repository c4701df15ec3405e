"""Games the deadline tick keeps failing on (docs/operations.md): tick_failures, one row per
game while ticks fail on it, shown on /healthz and the operators' page.

Revision ID: 0011
Revises: 0010
Create Date: 2026-11-25
"""
from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = '0011'
down_revision = '0010'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        'tick_failures',
        sa.Column('game_id', sa.Integer(), nullable=False),
        sa.Column('first_at', sa.DateTime(timezone=True), nullable=False),
        sa.Column('last_at', sa.DateTime(timezone=True), nullable=False),
        sa.Column('count', sa.Integer(), nullable=False),
        sa.Column('error', sa.String(length=500), nullable=False),
        sa.ForeignKeyConstraint(['game_id'], ['games.id'], name=op.f('fk_tick_failures_game_id_games'),
                                ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('game_id', name=op.f('pk_tick_failures')),
    )


def downgrade() -> None:
    op.drop_table('tick_failures')
