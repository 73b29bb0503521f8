"""Persistence: SQLAlchemy models, engines and sessions, migrations.

``judge.store.base`` holds the declarative ``Base`` and the engine/session factories,
``judge.store.mail`` the inbox and outbox tables, ``judge.store.games`` the game tables,
``judge.store.held`` what waits for a later phase (postal press, orders entered in advance),
``judge.store.kept`` what a session keeps in ``session.info`` and when it is forgotten, and
``judge.store.migrate`` runs the Alembic migrations.
"""
