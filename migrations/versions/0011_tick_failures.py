"""Games the deadline tick keeps failing on (docs/operations.md): tick_failures, one row per
game while ticks fail on it, shown on /healthz and the operators' page; and how the last
tick ended (tick_state.finished_at, tick_state.error), so a tick that breaks off shows too.

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
    with op.batch_alter_table('tick_state', schema=None) as batch_op:
        batch_op.add_column(sa.Column('finished_at', sa.DateTime(timezone=True), nullable=True))
        batch_op.add_column(sa.Column('error', sa.String(length=500), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table('tick_state', schema=None) as batch_op:
        batch_op.drop_column('error')
        batch_op.drop_column('finished_at')
    op.drop_table('tick_failures')
