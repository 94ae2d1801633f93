-- The rows one write logs share its `write_id`: a term's removal and the aliases it took with
-- it, so `/alias remove` tells an alias removed with its term from one removed alone in the
-- same second by the same moderator (ids would not do: `migrate-db` gives log rows new ids).
-- NULL in rows written before this version, and in rows no read links.
ALTER TABLE audit_log ADD COLUMN write_id TEXT;

ALTER TABLE term_audit_log ADD COLUMN write_id TEXT;
