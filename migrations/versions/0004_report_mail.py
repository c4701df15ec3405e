"""Turn reports by mail: rich outbox content (HTML, inline images, attachments) and report jobs.

mail_delivery.html (the HTML alternative), outbox_parts (inline pictures and attachments),
report_jobs (reports and notices owed at one moment of a game; docs/reports.md).

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-21
"""
from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = '0004'
down_revision = '0003'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('mail_delivery', schema=None) as batch_op:
        batch_op.add_column(sa.Column('html', sa.Text(), nullable=True))

    op.create_table('outbox_parts',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('outbox_id', sa.Integer(), nullable=False),
    sa.Column('position', sa.Integer(), nullable=False),
    sa.Column('filename', sa.String(length=120), nullable=False),
    sa.Column('content_type', sa.String(length=100), nullable=False),
    sa.Column('content_id', sa.String(length=120), nullable=True),
    sa.Column('data', sa.LargeBinary(), nullable=False),
    sa.ForeignKeyConstraint(['outbox_id'], ['outbox.id'], name=op.f('fk_outbox_parts_outbox_id_outbox'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_outbox_parts'))
    )
    with op.batch_alter_table('outbox_parts', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_outbox_parts_outbox_id'), ['outbox_id'], unique=False)

    op.create_table('report_jobs',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('game_id', sa.Integer(), nullable=False),
    sa.Column('kind', sa.String(length=8), nullable=False),
    sa.Column('age', sa.Integer(), nullable=False),
    sa.Column('phase', sa.String(length=20), nullable=False),
    sa.Column('seq', sa.Integer(), nullable=False),
    sa.Column('turn_seats', sa.JSON(), nullable=True),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('tried_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('attempts', sa.Integer(), nullable=False),
    sa.Column('done_at', sa.DateTime(timezone=True), nullable=True),
    sa.ForeignKeyConstraint(['game_id'], ['games.id'], name=op.f('fk_report_jobs_game_id_games'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_report_jobs')),
    sa.UniqueConstraint('game_id', 'kind', 'age', 'phase', name=op.f('uq_report_jobs_game_id_kind_age_phase'))
    )
    with op.batch_alter_table('report_jobs', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_report_jobs_game_id'), ['game_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_report_jobs_done_at'), ['done_at'], unique=False)


def downgrade() -> None:
    with op.batch_alter_table('report_jobs', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_report_jobs_done_at'))
        batch_op.drop_index(batch_op.f('ix_report_jobs_game_id'))
    op.drop_table('report_jobs')
    with op.batch_alter_table('outbox_parts', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_outbox_parts_outbox_id'))
    op.drop_table('outbox_parts')
    with op.batch_alter_table('mail_delivery', schema=None) as batch_op:
        batch_op.drop_column('html')
