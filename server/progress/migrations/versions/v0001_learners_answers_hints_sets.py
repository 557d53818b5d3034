"""Learners, answers, hints and sets: the first schema.

Revision ID: 0001
Revises: (none)
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision: str | None = None
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.create_table(
        "learners",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("nickname", sa.String(length=40), nullable=False),
        sa.Column("nickname_key", sa.String(length=40), nullable=False),
        sa.Column("class_code", sa.String(length=40), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_learners")),
        sa.UniqueConstraint("nickname_key", "class_code", name=op.f("uq_learners_nickname_key_class_code")),
    )
    op.create_table(
        "sets",
        sa.Column("id", sa.String(length=16), nullable=False),
        sa.Column("title", sa.String(length=120), nullable=False),
        sa.Column("spec", sa.Text(), nullable=False),
        sa.Column("items", sa.Text(), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_sets")),
    )
    op.create_table(
        "answers",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("uid", sa.String(length=32), nullable=False),
        sa.Column("learner_id", sa.Integer(), nullable=False),
        sa.Column("item_id", sa.String(length=80), nullable=False),
        sa.Column("skill", sa.String(length=80), nullable=False),
        sa.Column("set_id", sa.String(length=16), nullable=True),
        sa.Column("correct", sa.Boolean(), nullable=False),
        sa.Column("credit", sa.Float(), nullable=False),
        sa.Column("hints", sa.Integer(), nullable=False),
        sa.Column("answer", sa.Text(), nullable=False),
        sa.Column("answered_at", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(["learner_id"], ["learners.id"], name=op.f("fk_answers_learner_id_learners"),
                                ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["set_id"], ["sets.id"], name=op.f("fk_answers_set_id_sets")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_answers")),
        sa.UniqueConstraint("uid", name=op.f("uq_answers_uid")),
    )
    op.create_index(op.f("ix_answers_learner_id_answered_at"), "answers", ["learner_id", "answered_at"])
    op.create_index(op.f("ix_answers_set_id"), "answers", ["set_id"])
    op.create_table(
        "hints",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("uid", sa.String(length=32), nullable=False),
        sa.Column("learner_id", sa.Integer(), nullable=False),
        sa.Column("item_id", sa.String(length=80), nullable=False),
        sa.Column("skill", sa.String(length=80), nullable=False),
        sa.Column("set_id", sa.String(length=16), nullable=True),
        sa.Column("rung", sa.Integer(), nullable=False),
        sa.Column("answer_id", sa.Integer(), nullable=True),
        sa.Column("taken_at", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(["answer_id"], ["answers.id"], name=op.f("fk_hints_answer_id_answers"),
                                ondelete="SET NULL"),
        sa.ForeignKeyConstraint(["learner_id"], ["learners.id"], name=op.f("fk_hints_learner_id_learners"),
                                ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["set_id"], ["sets.id"], name=op.f("fk_hints_set_id_sets")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_hints")),
        sa.UniqueConstraint("uid", name=op.f("uq_hints_uid")),
    )
    op.create_index(op.f("ix_hints_learner_id_item_id"), "hints", ["learner_id", "item_id"])


def downgrade() -> None:
    op.drop_table("hints")
    op.drop_table("answers")
    op.drop_table("sets")
    op.drop_table("learners")
