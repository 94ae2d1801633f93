"""The SQLite backend (`backend.SqliteBackend`): the database is one file at `DATABASE_PATH`,
the default."""
