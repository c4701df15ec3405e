"""Inbound mail acts once and in order (docs/email.md, "Running the gateway"):
inbound_mail.token (the seat token the mail is addressed to, recorded on arrival, so a later
mail of a seat waits for an earlier one still unprocessed) and inbound_mail.done (the answers of
the mail's steps that change something, each committed with its step, so processing the mail
again never carries out its orders, queued turns, cancellations, vacations or resignation twice).

Revision ID: 0009
Revises: 0008
Create Date: 2026-11-22
"""
from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = '0009'
down_revision = '0008'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('inbound_mail', schema=None) as batch_op:
        batch_op.add_column(sa.Column('token', sa.String(length=32), nullable=True))
        batch_op.add_column(sa.Column('done', sa.JSON(), nullable=True))
        batch_op.create_index('ix_inbound_mail_token', ['token', 'id'], unique=False)


def downgrade() -> None:
    with op.batch_alter_table('inbound_mail', schema=None) as batch_op:
        batch_op.drop_index('ix_inbound_mail_token')
        batch_op.drop_column('done')
        batch_op.drop_column('token')
