"""Leagues (docs/leagues.md): leagues, their organisers, members, rounds, the tables (games)
of each round with who sat where, and the organisers' corrections and annulments of results;
and games.rated, whether a game counts for ratings (every game of the previous release is
casual).

Revision ID: 0015
Revises: 0014
Create Date: 2026-11-27
"""
from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = '0015'
down_revision = '0014'
branch_labels = None
depends_on = None


def _when(name: str, nullable: bool = True) -> sa.Column:
    return sa.Column(name, sa.DateTime(timezone=True), nullable=nullable)


def _user(name: str, table: str, nullable: bool = True, ondelete: str = 'SET NULL') -> tuple[sa.Column, sa.ForeignKeyConstraint]:
    return (sa.Column(name, sa.Integer(), nullable=nullable),
            sa.ForeignKeyConstraint([name], ['users.id'], name=op.f(f'fk_{table}_{name}_users'), ondelete=ondelete))


def upgrade() -> None:
    with op.batch_alter_table('games', schema=None) as batch_op:
        batch_op.add_column(sa.Column('rated', sa.Boolean(), server_default=sa.false(), nullable=False))

    op.create_table(
        'leagues',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('name', sa.String(length=100), nullable=False),
        sa.Column('kind', sa.String(length=20), nullable=False),
        sa.Column('setup', sa.JSON(), nullable=False),
        sa.Column('options', sa.JSON(), nullable=False),
        sa.Column('deadline_policy', sa.JSON(), nullable=False),
        sa.Column('scoring', sa.String(length=10), nullable=False),
        sa.Column('table_size', sa.Integer(), nullable=False),
        sa.Column('rated', sa.Boolean(), nullable=False),
        sa.Column('cap', sa.Integer(), nullable=True),
        _when('registration_closes_at'),
        sa.Column('withdrawal', sa.String(length=10), nullable=False),
        sa.Column('rounds', sa.Integer(), nullable=False),
        sa.Column('round_days', sa.Integer(), nullable=False),
        sa.Column('season', sa.Integer(), nullable=False),
        sa.Column('status', sa.String(length=10), nullable=False),
        sa.Column('seed', sa.String(length=64), nullable=False),
        *_user('created_by', 'leagues'),
        _when('created_at', nullable=False),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_leagues')),
    )
    op.create_index(op.f('ix_leagues_status'), 'leagues', ['status'])
    op.create_table(
        'league_organisers',
        sa.Column('league_id', sa.Integer(), nullable=False),
        *_user('user_id', 'league_organisers', nullable=False, ondelete='CASCADE'),
        sa.ForeignKeyConstraint(['league_id'], ['leagues.id'], name=op.f('fk_league_organisers_league_id_leagues'),
                                ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('league_id', 'user_id', name=op.f('pk_league_organisers')),
    )
    op.create_table(
        'league_members',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('league_id', sa.Integer(), nullable=False),
        *_user('user_id', 'league_members', nullable=False, ondelete='CASCADE'),
        sa.Column('status', sa.String(length=10), nullable=False),
        sa.Column('replaced_by_id', sa.Integer(), nullable=True),
        sa.Column('bot', sa.String(length=20), nullable=True),
        _when('joined_at', nullable=False),
        _when('left_at'),
        sa.ForeignKeyConstraint(['league_id'], ['leagues.id'], name=op.f('fk_league_members_league_id_leagues'),
                                ondelete='CASCADE'),
        sa.ForeignKeyConstraint(['replaced_by_id'], ['league_members.id'],
                                name=op.f('fk_league_members_replaced_by_id_league_members'), ondelete='SET NULL'),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_league_members')),
        sa.UniqueConstraint('league_id', 'user_id', name=op.f('uq_league_members_league_id_user_id')),
    )
    op.create_index(op.f('ix_league_members_league_id'), 'league_members', ['league_id'])
    op.create_table(
        'league_rounds',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('league_id', sa.Integer(), nullable=False),
        sa.Column('season', sa.Integer(), nullable=False),
        sa.Column('number', sa.Integer(), nullable=False),
        sa.Column('state', sa.String(length=10), nullable=False),
        sa.Column('pairings', sa.JSON(), nullable=True),
        *_user('overridden_by', 'league_rounds'),
        _when('started_at'),
        _when('ends_by'),
        _when('finished_at'),
        sa.ForeignKeyConstraint(['league_id'], ['leagues.id'], name=op.f('fk_league_rounds_league_id_leagues'),
                                ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_league_rounds')),
        sa.UniqueConstraint('league_id', 'season', 'number', name=op.f('uq_league_rounds_league_id_season_number')),
    )
    op.create_index(op.f('ix_league_rounds_state'), 'league_rounds', ['state'])
    op.create_index(op.f('ix_league_rounds_ends_by'), 'league_rounds', ['ends_by'])
    op.create_table(
        'league_tables',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('round_id', sa.Integer(), nullable=False),
        sa.Column('number', sa.Integer(), nullable=False),
        sa.Column('game_id', sa.Integer(), nullable=False),
        sa.Column('seats', sa.JSON(), nullable=False),
        sa.Column('forfeits', sa.JSON(), nullable=True),
        _when('forced_at'),
        sa.ForeignKeyConstraint(['round_id'], ['league_rounds.id'], name=op.f('fk_league_tables_round_id_league_rounds'),
                                ondelete='CASCADE'),
        sa.ForeignKeyConstraint(['game_id'], ['games.id'], name=op.f('fk_league_tables_game_id_games'),
                                ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_league_tables')),
        sa.UniqueConstraint('game_id', name=op.f('uq_league_tables_game_id')),
        sa.UniqueConstraint('round_id', 'number', name=op.f('uq_league_tables_round_id_number')),
    )
    op.create_index(op.f('ix_league_tables_round_id'), 'league_tables', ['round_id'])
    op.create_table(
        'league_corrections',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('table_id', sa.Integer(), nullable=False),
        sa.Column('action', sa.String(length=10), nullable=False),
        sa.Column('places', sa.JSON(), nullable=True),
        sa.Column('reason', sa.String(length=500), nullable=False),
        *_user('by', 'league_corrections'),
        _when('at', nullable=False),
        sa.ForeignKeyConstraint(['table_id'], ['league_tables.id'],
                                name=op.f('fk_league_corrections_table_id_league_tables'), ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_league_corrections')),
    )
    op.create_index('ix_league_corrections_table_id', 'league_corrections', ['table_id'])


def downgrade() -> None:
    for table in ('league_corrections', 'league_tables', 'league_rounds', 'league_members', 'league_organisers',
                  'leagues'):
        op.drop_table(table)
    with op.batch_alter_table('games', schema=None) as batch_op:
        batch_op.drop_column('rated')
