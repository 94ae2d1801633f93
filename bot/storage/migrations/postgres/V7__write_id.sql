-- The rows one write logs share its `write_id` (see SQLite's V7).
ALTER TABLE audit_log ADD COLUMN write_id TEXT;
ALTER TABLE term_audit_log ADD COLUMN write_id TEXT;
