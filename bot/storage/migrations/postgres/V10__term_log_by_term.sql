-- Whether a term id was ever a server's is one look-up by server and term id (see SQLite's V10).
CREATE INDEX term_audit_log_by_term ON term_audit_log (scope, term_id);
