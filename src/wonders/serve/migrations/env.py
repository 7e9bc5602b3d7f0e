"""Alembic's environment: migrations run on the connection the server hands over."""

from __future__ import annotations

from alembic import context

connection = context.config.attributes.get("connection")
if connection is None:   # only the server runs these: it always passes its connection
    raise RuntimeError("run the migrations through wonders.serve.store.migrate")
context.configure(connection=connection, target_metadata=None)
with context.begin_transaction():
    context.run_migrations()
