"""Persistence: SQLAlchemy models, engines and sessions, migrations.

``judge.store.base`` holds the declarative ``Base`` and the engine/session factories,
``judge.store.mail`` the inbox and outbox tables, ``judge.store.games`` the game tables and
``judge.store.migrate`` runs the Alembic migrations.
"""
