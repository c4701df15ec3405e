"""Press (docs/service.md, "Press"): messages between the seats of a game, to the whole table
or privately to one seat; who muted whom; reports for the site operators; the reply tokens
of press mails; the game's press rule and the host's switch; and each person's `notify_press`.

Games of the previous release get the rule "public": they were created when the service had
no press, so nobody agreed to private deals at their table, while talk the whole table reads
(and the host can switch off) changes nothing anyone could not see.  New games default to
"all", chosen at creation.

Revision ID: 0016
Revises: 0014
Create Date: 2026-11-28
"""
from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = '0016'
down_revision = '0014'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('games', schema=None) as batch_op:
        batch_op.add_column(sa.Column('press_rule', sa.String(length=8), nullable=False, server_default='public'))
        batch_op.add_column(sa.Column('press_off', sa.Boolean(), nullable=False, server_default=sa.false()))
    with op.batch_alter_table('games', schema=None) as batch_op:  # existing rows have theirs: new ones "all"
        batch_op.alter_column('press_rule', server_default='all')
    with op.batch_alter_table('users', schema=None) as batch_op:
        batch_op.add_column(sa.Column('notify_press', sa.Boolean(), nullable=False, server_default=sa.true()))

    op.create_table(
        'press_messages',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('game_id', sa.Integer(), nullable=False),
        sa.Column('seat', sa.String(length=16), nullable=False),
        sa.Column('user_id', sa.Integer(), nullable=True),
        sa.Column('to_seat', sa.String(length=16), nullable=True),
        sa.Column('text', sa.Text(), nullable=False),
        sa.Column('channel', sa.String(length=10), nullable=False),
        sa.Column('round', sa.Integer(), nullable=True),
        sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
        sa.Column('hidden_at', sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(['game_id'], ['games.id'], name=op.f('fk_press_messages_game_id_games'),
                                ondelete='CASCADE'),
        sa.ForeignKeyConstraint(['user_id'], ['users.id'], name=op.f('fk_press_messages_user_id_users'),
                                ondelete='SET NULL'),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_press_messages')))
    op.create_index('ix_press_messages_game_seat_created', 'press_messages', ['game_id', 'seat', 'created_at'])

    op.create_table(
        'press_mutes',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('game_id', sa.Integer(), nullable=False),
        sa.Column('user_id', sa.Integer(), nullable=False),
        sa.Column('seat', sa.String(length=16), nullable=False),
        sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(['game_id'], ['games.id'], name=op.f('fk_press_mutes_game_id_games'),
                                ondelete='CASCADE'),
        sa.ForeignKeyConstraint(['user_id'], ['users.id'], name=op.f('fk_press_mutes_user_id_users'),
                                ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_press_mutes')),
        sa.UniqueConstraint('game_id', 'user_id', 'seat', name=op.f('uq_press_mutes_game_id_user_id_seat')))

    op.create_table(
        'press_reports',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('message_id', sa.Integer(), nullable=False),
        sa.Column('user_id', sa.Integer(), nullable=True),
        sa.Column('reason', sa.String(length=200), nullable=False),
        sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
        sa.Column('resolved_at', sa.DateTime(timezone=True), nullable=True),
        sa.Column('resolution', sa.String(length=200), nullable=True),
        sa.ForeignKeyConstraint(['message_id'], ['press_messages.id'],
                                name=op.f('fk_press_reports_message_id_press_messages'), ondelete='CASCADE'),
        sa.ForeignKeyConstraint(['user_id'], ['users.id'], name=op.f('fk_press_reports_user_id_users'),
                                ondelete='SET NULL'),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_press_reports')),
        sa.UniqueConstraint('message_id', 'user_id', name=op.f('uq_press_reports_message_id_user_id')))
    op.create_index(op.f('ix_press_reports_resolved_at'), 'press_reports', ['resolved_at'])

    op.create_table(
        'press_tokens',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('token', sa.String(length=32), nullable=False),
        sa.Column('game_id', sa.Integer(), nullable=False),
        sa.Column('seat', sa.String(length=16), nullable=False),
        sa.Column('audience', sa.String(length=16), nullable=True),
        sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
        sa.Column('revoked_at', sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(['game_id'], ['games.id'], name=op.f('fk_press_tokens_game_id_games'),
                                ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_press_tokens')),
        sa.UniqueConstraint('token', name=op.f('uq_press_tokens_token')))
    op.create_index('ix_press_tokens_game_seat', 'press_tokens', ['game_id', 'seat'])


def downgrade() -> None:
    op.drop_table('press_tokens')
    op.drop_table('press_reports')
    op.drop_table('press_mutes')
    op.drop_table('press_messages')
    with op.batch_alter_table('users', schema=None) as batch_op:
        batch_op.drop_column('notify_press')
    with op.batch_alter_table('games', schema=None) as batch_op:
        batch_op.drop_column('press_off')
        batch_op.drop_column('press_rule')
