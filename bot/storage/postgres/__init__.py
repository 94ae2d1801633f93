"""The PostgreSQL backend (`backend.PostgresBackend`), chosen by `DATABASE_URL=postgresql://...`."""
