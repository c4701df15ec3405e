"""Bounces: delivery failures reported back per address, and suppressed addresses.

email_addresses: bounce_count (hard bounces since the address last worked), soft_bounce_count,
last_bounce_at, last_bounce_reason, suppressed_at, suppressed_reason (no mail while set);
mail_delivery: bounce (the worst bounce reported for that mail: soft or hard, counted once),
withheld_at (not sent on purpose: the recipient was suppressed).  See docs/email.md, "Bounces".

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-21
"""
from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = '0006'
down_revision = '0005'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('email_addresses', schema=None) as batch_op:
        batch_op.add_column(sa.Column('bounce_count', sa.Integer(), server_default='0', nullable=False))
        batch_op.add_column(sa.Column('soft_bounce_count', sa.Integer(), server_default='0', nullable=False))
        batch_op.add_column(sa.Column('last_bounce_at', sa.DateTime(timezone=True), nullable=True))
        batch_op.add_column(sa.Column('last_bounce_reason', sa.String(length=200), nullable=True))
        batch_op.add_column(sa.Column('suppressed_at', sa.DateTime(timezone=True), nullable=True))
        batch_op.add_column(sa.Column('suppressed_reason', sa.String(length=200), nullable=True))

    with op.batch_alter_table('mail_delivery', schema=None) as batch_op:
        batch_op.add_column(sa.Column('bounce', sa.String(length=4), nullable=True))
        batch_op.add_column(sa.Column('withheld_at', sa.DateTime(timezone=True), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table('mail_delivery', schema=None) as batch_op:
        batch_op.drop_column('withheld_at')
        batch_op.drop_column('bounce')

    with op.batch_alter_table('email_addresses', schema=None) as batch_op:
        batch_op.drop_column('suppressed_reason')
        batch_op.drop_column('suppressed_at')
        batch_op.drop_column('last_bounce_reason')
        batch_op.drop_column('last_bounce_at')
        batch_op.drop_column('soft_bounce_count')
        batch_op.drop_column('bounce_count')
