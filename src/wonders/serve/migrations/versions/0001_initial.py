"""The first schema: accounts and sessions, tables, seats, moves, ratings.

Revision ID: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create every table of the first schema."""
    op.create_table(
        "accounts",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("name", sa.String(32), nullable=False, unique=True),
        sa.Column("name_key", sa.String(32), nullable=False, unique=True),
        sa.Column("password_hash", sa.String(256), nullable=False),
        sa.Column("created", sa.Float, nullable=False))
    op.create_table(
        "sessions",
        sa.Column("id", sa.String(64), primary_key=True),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), nullable=False),
        sa.Column("created", sa.Float, nullable=False))
    op.create_table(
        "settings",
        sa.Column("key", sa.String(64), primary_key=True),
        sa.Column("value", sa.Text, nullable=False))
    op.create_table(
        "tables",
        sa.Column("id", sa.String(64), primary_key=True),
        sa.Column("game", sa.String(512), nullable=False),
        sa.Column("spec", sa.Text, nullable=False),
        sa.Column("players", sa.Integer, nullable=False),
        sa.Column("seed", sa.BigInteger, nullable=False),
        sa.Column("sides", sa.String(32)),
        sa.Column("hints", sa.Boolean, nullable=False),
        sa.Column("mode", sa.String(16), nullable=False),
        sa.Column("speed", sa.String(16), nullable=False),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("over", sa.Boolean, nullable=False),
        sa.Column("decision", sa.Integer, nullable=False),
        sa.Column("state", sa.Text, nullable=False))
    op.create_index("tables_over", "tables", ["over"])
    op.create_table(
        "seats",
        sa.Column("table_id", sa.String(64), sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("kind", sa.String(256), nullable=False),
        sa.Column("token", sa.String(64)),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id")))
    op.create_index("seats_account", "seats", ["account_id"])
    op.create_table(
        "moves",
        sa.Column("table_id", sa.String(64), sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("number", sa.Integer, primary_key=True),
        sa.Column("record", sa.Text, nullable=False))
    op.create_table(
        "ratings",
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), primary_key=True),
        sa.Column("game", sa.String(512), primary_key=True),
        sa.Column("rating", sa.Float, nullable=False),
        sa.Column("games", sa.Integer, nullable=False))
    op.create_table(
        "rating_changes",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), nullable=False),
        sa.Column("game", sa.String(512), nullable=False),
        sa.Column("table_id", sa.String(64), sa.ForeignKey("tables.id"), nullable=False),
        sa.Column("before", sa.Float, nullable=False),
        sa.Column("after", sa.Float, nullable=False),
        sa.Column("rank", sa.Integer, nullable=False),
        sa.Column("at", sa.Float, nullable=False))
    op.create_index("changes_account", "rating_changes", ["account_id", "game"])


def downgrade() -> None:
    """Drop them all."""
    for name in ("rating_changes", "ratings", "moves", "seats", "tables", "settings",
                 "sessions", "accounts"):
        op.drop_table(name)
