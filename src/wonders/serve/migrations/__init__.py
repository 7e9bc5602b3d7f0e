"""The database's Alembic migrations, run by :func:`wonders.serve.store.migrate` at start-up."""
