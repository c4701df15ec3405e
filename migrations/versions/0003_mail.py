"""Email gateway: seat reply tokens, inbound mail as received, outbox delivery bookkeeping.

Tables seat_tokens, inbound_mail, mail_delivery (pbem/outbox/models.py, pbem/mail/models.py; docs/email.md).

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-22
"""
from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = '0003'
down_revision = '0002'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('seat_tokens',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('token', sa.String(length=32), nullable=False),
    sa.Column('game_id', sa.Integer(), nullable=False),
    sa.Column('seat', sa.String(length=16), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('revoked_at', sa.DateTime(timezone=True), nullable=True),
    sa.ForeignKeyConstraint(['game_id'], ['games.id'], name=op.f('fk_seat_tokens_game_id_games'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_seat_tokens')),
    sa.UniqueConstraint('token', name=op.f('uq_seat_tokens_token'))
    )
    with op.batch_alter_table('seat_tokens', schema=None) as batch_op:
        batch_op.create_index('ix_seat_tokens_game_seat', ['game_id', 'seat'], unique=False)

    op.create_table('inbound_mail',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('received_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('channel', sa.String(length=8), nullable=False),
    sa.Column('envelope_from', sa.String(length=256), nullable=True),
    sa.Column('envelope_to', sa.String(length=2000), nullable=True),
    sa.Column('raw', sa.LargeBinary(), nullable=False),
    sa.Column('size', sa.Integer(), nullable=False),
    sa.Column('status', sa.String(length=10), nullable=False),
    sa.Column('reason', sa.String(length=200), nullable=True),
    sa.Column('from_address', sa.String(length=254), nullable=True),
    sa.Column('message_id', sa.String(length=255), nullable=True),
    sa.Column('digest', sa.String(length=64), nullable=True),
    sa.Column('dedup_key', sa.String(length=510), nullable=True),
    sa.Column('game_id', sa.Integer(), nullable=True),
    sa.Column('seat', sa.String(length=16), nullable=True),
    sa.Column('user_id', sa.Integer(), nullable=True),
    sa.Column('processed_at', sa.DateTime(timezone=True), nullable=True),
    sa.ForeignKeyConstraint(['game_id'], ['games.id'], name=op.f('fk_inbound_mail_game_id_games'), ondelete='SET NULL'),
    sa.ForeignKeyConstraint(['user_id'], ['users.id'], name=op.f('fk_inbound_mail_user_id_users'), ondelete='SET NULL'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_inbound_mail')),
    sa.UniqueConstraint('dedup_key', name=op.f('uq_inbound_mail_dedup_key'))
    )
    with op.batch_alter_table('inbound_mail', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_inbound_mail_received_at'), ['received_at'], unique=False)
        batch_op.create_index(batch_op.f('ix_inbound_mail_status'), ['status'], unique=False)
        batch_op.create_index('ix_inbound_mail_from_received', ['from_address', 'received_at'], unique=False)
        batch_op.create_index('ix_inbound_mail_digest', ['digest'], unique=False)

    op.create_table('mail_delivery',
    sa.Column('outbox_id', sa.Integer(), nullable=False),
    sa.Column('key', sa.String(length=200), nullable=True),
    sa.Column('reply_to', sa.String(length=254), nullable=True),
    sa.Column('headers', sa.JSON(), nullable=True),
    sa.Column('attempts', sa.Integer(), nullable=False),
    sa.Column('claimed_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('last_error', sa.Text(), nullable=True),
    sa.ForeignKeyConstraint(['outbox_id'], ['outbox.id'], name=op.f('fk_mail_delivery_outbox_id_outbox'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('outbox_id', name=op.f('pk_mail_delivery')),
    sa.UniqueConstraint('key', name=op.f('uq_mail_delivery_key'))
    )


def downgrade() -> None:
    op.drop_table('mail_delivery')
    with op.batch_alter_table('inbound_mail', schema=None) as batch_op:
        batch_op.drop_index('ix_inbound_mail_digest')
        batch_op.drop_index('ix_inbound_mail_from_received')
        batch_op.drop_index(batch_op.f('ix_inbound_mail_status'))
        batch_op.drop_index(batch_op.f('ix_inbound_mail_received_at'))
    op.drop_table('inbound_mail')
    with op.batch_alter_table('seat_tokens', schema=None) as batch_op:
        batch_op.drop_index('ix_seat_tokens_game_seat')
    op.drop_table('seat_tokens')
