"""One word per concept: report_jobs.age becomes report_jobs.round (the round of the game a
job reports on), so no table names a game's words; and "kind" no longer names four things:
game_events.kind becomes game_events.type (what happened, as events in views say it),
outbox.kind and report_jobs.kind become topic (what a mail is about; a report job's topic is
that of the mails it sends).  "kind" is left to a game's kind (games.kind) and a decision's.
Values are kept: reports owed before the upgrade are mailed after it.

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

def _move(job_topic: tuple[str, str], job_round: tuple[str, str], mail_topic: tuple[str, str],
          event_type: tuple[str, str]) -> None:
    """Rename the columns, each given as (from, to).  Constraints and indexes named after a
    column (pbem.extensions.NAMING) are dropped and made again under the new name, in a
    second batch: SQLite's rebuild loses a constraint added in the batch that renames its
    column (see 0012)."""
    (topic, to_topic), (round_, to_round) = job_topic, job_round
    with op.batch_alter_table('report_jobs', schema=None) as batch_op:
        batch_op.drop_constraint(op.f(f'uq_report_jobs_game_id_{topic}_{round_}_phase'), type_='unique')
        batch_op.alter_column(round_, new_column_name=to_round)
        batch_op.alter_column(topic, new_column_name=to_topic)
    with op.batch_alter_table('report_jobs', schema=None) as batch_op:
        batch_op.create_unique_constraint(op.f(f'uq_report_jobs_game_id_{to_topic}_{to_round}_phase'),
                                          ['game_id', to_topic, to_round, 'phase'])
    with op.batch_alter_table('outbox', schema=None) as batch_op:
        batch_op.alter_column(mail_topic[0], new_column_name=mail_topic[1])
    (type_, to_type) = event_type
    with op.batch_alter_table('game_events', schema=None) as batch_op:
        batch_op.drop_index(f'ix_game_events_game_{type_}')
        batch_op.alter_column(type_, new_column_name=to_type)
    with op.batch_alter_table('game_events', schema=None) as batch_op:
        batch_op.create_index(f'ix_game_events_game_{to_type}', ['game_id', to_type], unique=False)


def upgrade() -> None:
    _move(('kind', 'topic'), ('age', 'round'), ('kind', 'topic'), ('kind', 'type'))


def downgrade() -> None:
    _move(('topic', 'kind'), ('round', 'age'), ('topic', 'kind'), ('type', 'kind'))
