"""Game-neutral names, continued: report_jobs.age becomes report_jobs.round (the round of
the game whose report or notice a job is), so no table names a game's vocabulary.  Values
are kept: reports owed before the upgrade are mailed after it.

Revision ID: 0013
Revises: 0012
Create Date: 2026-11-25
"""
from __future__ import annotations

from alembic import op

revision = '0013'
down_revision = '0012'
branch_labels = None
depends_on = None


def _rename(column: str, to: str) -> None:
    # The unique constraint is named after its columns (pbem.extensions.NAMING): dropped and
    # made again under the new name, in a second batch (SQLite's rebuild loses a constraint
    # added in the batch that renames its column; see 0012).
    with op.batch_alter_table('report_jobs', schema=None) as batch_op:
        batch_op.drop_constraint(op.f(f'uq_report_jobs_game_id_kind_{column}_phase'), type_='unique')
        batch_op.alter_column(column, new_column_name=to)
    with op.batch_alter_table('report_jobs', schema=None) as batch_op:
        batch_op.create_unique_constraint(op.f(f'uq_report_jobs_game_id_kind_{to}_phase'),
                                          ['game_id', 'kind', to, 'phase'])


def upgrade() -> None:
    _rename('age', 'round')


def downgrade() -> None:
    _rename('round', 'age')
