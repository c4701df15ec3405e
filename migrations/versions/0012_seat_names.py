"""Game-neutral names: seats.tribe becomes seats.name (the seat's name in the game, drawn when
it starts) and queued_turns.age becomes queued_turns.round, so the schema names no game's
vocabulary.  Values are kept: every game in progress goes on.

Revision ID: 0012
Revises: 0011
Create Date: 2026-11-26
"""
from __future__ import annotations

from alembic import op

revision = '0012'
down_revision = '0011'
branch_labels = None
depends_on = None


def _rename(seat_column: str, to_seat: str, round_column: str, to_round: str) -> None:
    # The unique constraint is named after its column (pbem.extensions.NAMING), so it is
    # dropped and made again under the new name; on SQLite each batch rebuilds the table,
    # copying every row.  Two batches: SQLite's rebuild loses a constraint added in the batch
    # that renames its column.
    with op.batch_alter_table('seats', schema=None) as batch_op:
        batch_op.drop_constraint(op.f(f'uq_seats_game_id_{seat_column}'), type_='unique')
        batch_op.alter_column(seat_column, new_column_name=to_seat)
    with op.batch_alter_table('seats', schema=None) as batch_op:
        batch_op.create_unique_constraint(op.f(f'uq_seats_game_id_{to_seat}'), ['game_id', to_seat])
    with op.batch_alter_table('queued_turns', schema=None) as batch_op:
        batch_op.alter_column(round_column, new_column_name=to_round)


def upgrade() -> None:
    _rename('tribe', 'name', 'age', 'round')


def downgrade() -> None:
    _rename('name', 'tribe', 'round', 'age')
