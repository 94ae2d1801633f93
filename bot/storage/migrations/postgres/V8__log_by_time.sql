-- The audit logs read newest in time first, then by id (see SQLite's V8).
CREATE INDEX term_audit_log_by_time ON term_audit_log (scope, at, id);
CREATE INDEX audit_log_by_time ON audit_log (scope, at, id);
