"""Outbound delivery gives up visibly: mail_delivery.retry_at (when the next attempt is
due, so the sweep can tell a retry that was lost from one still waiting out its backoff) and
failed_at (set when the last attempt failed: never tried again, shown in the outbox).  See docs/email.md,
"Outbound mail".

Revision ID: 0008
Revises: 0007
Create Date: 2026-11-22
"""
from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = '0008'
down_revision = '0007'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('mail_delivery', schema=None) as batch_op:
        batch_op.add_column(sa.Column('retry_at', sa.DateTime(timezone=True), nullable=True))
        batch_op.add_column(sa.Column('failed_at', sa.DateTime(timezone=True), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table('mail_delivery', schema=None) as batch_op:
        batch_op.drop_column('failed_at')
        batch_op.drop_column('retry_at')
