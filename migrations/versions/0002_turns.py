"""Asynchronous turns: deadlines, missed turns, vacations, queued turns, the tick's state.

games: the current decision's deadline and its parts (when it began, extensions, delays,
reminders) and pauses; seats: missed deadlines, replacement offers, stand-in bots, the
queue hold; order_log.by (who decided); new tables game_events, queued_turns, vacations,
tick_state.  See docs/deadlines.md.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-21
"""
from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = '0002'
down_revision = '0001'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('tick_state',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('last_tick_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('last_outage_at', sa.DateTime(timezone=True), nullable=True),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_tick_state'))
    )
    op.create_table('vacations',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('user_id', sa.Integer(), nullable=False),
    sa.Column('starts_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('ends_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['user_id'], ['users.id'], name=op.f('fk_vacations_user_id_users'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_vacations'))
    )
    with op.batch_alter_table('vacations', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_vacations_ends_at'), ['ends_at'], unique=False)
        batch_op.create_index(batch_op.f('ix_vacations_user_id'), ['user_id'], unique=False)

    op.create_table('game_events',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('game_id', sa.Integer(), nullable=False),
    sa.Column('at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('kind', sa.String(length=20), nullable=False),
    sa.Column('seat', sa.String(length=16), nullable=True),
    sa.Column('user_id', sa.Integer(), nullable=True),
    sa.Column('decision_seq', sa.Integer(), nullable=True),
    sa.Column('hours', sa.Integer(), nullable=True),
    sa.Column('text', sa.String(length=500), nullable=False),
    sa.ForeignKeyConstraint(['game_id'], ['games.id'], name=op.f('fk_game_events_game_id_games'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['user_id'], ['users.id'], name=op.f('fk_game_events_user_id_users'), ondelete='SET NULL'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_game_events'))
    )
    with op.batch_alter_table('game_events', schema=None) as batch_op:
        batch_op.create_index('ix_game_events_game_kind', ['game_id', 'kind'], unique=False)

    op.create_table('queued_turns',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('game_id', sa.Integer(), nullable=False),
    sa.Column('seat', sa.String(length=16), nullable=False),
    sa.Column('age', sa.Integer(), nullable=False),
    sa.Column('text', sa.String(length=500), nullable=False),
    sa.Column('channel', sa.String(length=10), nullable=False),
    sa.Column('user_id', sa.Integer(), nullable=True),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['game_id'], ['games.id'], name=op.f('fk_queued_turns_game_id_games'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['user_id'], ['users.id'], name=op.f('fk_queued_turns_user_id_users'), ondelete='SET NULL'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_queued_turns'))
    )
    with op.batch_alter_table('queued_turns', schema=None) as batch_op:
        batch_op.create_index('ix_queued_turns_game_seat', ['game_id', 'seat'], unique=False)

    with op.batch_alter_table('games', schema=None) as batch_op:
        batch_op.add_column(sa.Column('deadline_at', sa.DateTime(timezone=True), nullable=True))
        batch_op.add_column(sa.Column('decision_seq', sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column('decision_at', sa.DateTime(timezone=True), nullable=True))
        batch_op.add_column(sa.Column('extended_hours', sa.Integer(), server_default='0', nullable=False))
        batch_op.add_column(sa.Column('deadline_delay', sa.Integer(), server_default='0', nullable=False))
        batch_op.add_column(sa.Column('reminded', sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column('paused_at', sa.DateTime(timezone=True), nullable=True))
        batch_op.add_column(sa.Column('paused_by', sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column('paused_seconds', sa.Integer(), server_default='0', nullable=False))
        batch_op.create_index(batch_op.f('ix_games_deadline_at'), ['deadline_at'], unique=False)
        batch_op.create_foreign_key(batch_op.f('fk_games_paused_by_users'), 'users', ['paused_by'], ['id'], ondelete='SET NULL')

    with op.batch_alter_table('order_log', schema=None) as batch_op:
        batch_op.add_column(sa.Column('by', sa.String(length=10), server_default='player', nullable=False))

    with op.batch_alter_table('seats', schema=None) as batch_op:
        batch_op.add_column(sa.Column('missed_in_row', sa.Integer(), server_default='0', nullable=False))
        batch_op.add_column(sa.Column('missed_total', sa.Integer(), server_default='0', nullable=False))
        batch_op.add_column(sa.Column('replacement_offered_at', sa.DateTime(timezone=True), nullable=True))
        batch_op.add_column(sa.Column('stand_in', sa.String(length=20), nullable=True))
        batch_op.add_column(sa.Column('stand_in_reason', sa.String(length=12), nullable=True))
        batch_op.add_column(sa.Column('queue_held_seq', sa.Integer(), nullable=True))



def downgrade() -> None:
    with op.batch_alter_table('seats', schema=None) as batch_op:
        batch_op.drop_column('queue_held_seq')
        batch_op.drop_column('stand_in_reason')
        batch_op.drop_column('stand_in')
        batch_op.drop_column('replacement_offered_at')
        batch_op.drop_column('missed_total')
        batch_op.drop_column('missed_in_row')

    with op.batch_alter_table('order_log', schema=None) as batch_op:
        batch_op.drop_column('by')

    with op.batch_alter_table('games', schema=None) as batch_op:
        batch_op.drop_constraint(batch_op.f('fk_games_paused_by_users'), type_='foreignkey')
        batch_op.drop_index(batch_op.f('ix_games_deadline_at'))
        batch_op.drop_column('paused_seconds')
        batch_op.drop_column('paused_by')
        batch_op.drop_column('paused_at')
        batch_op.drop_column('reminded')
        batch_op.drop_column('deadline_delay')
        batch_op.drop_column('extended_hours')
        batch_op.drop_column('decision_at')
        batch_op.drop_column('decision_seq')
        batch_op.drop_column('deadline_at')

    with op.batch_alter_table('queued_turns', schema=None) as batch_op:
        batch_op.drop_index('ix_queued_turns_game_seat')

    op.drop_table('queued_turns')
    with op.batch_alter_table('game_events', schema=None) as batch_op:
        batch_op.drop_index('ix_game_events_game_kind')

    op.drop_table('game_events')
    with op.batch_alter_table('vacations', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_vacations_user_id'))
        batch_op.drop_index(batch_op.f('ix_vacations_ends_at'))

    op.drop_table('vacations')
    op.drop_table('tick_state')
