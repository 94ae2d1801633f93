-- The audit logs read newest in time first, then by id (a log merged by `migrate-db --force`
-- holds another database's older rows after this one's): an index in that order gives a page
-- without sorting the server's whole log, each entry's texts and all.
CREATE INDEX term_audit_log_by_time ON term_audit_log (scope, at, id);

CREATE INDEX audit_log_by_time ON audit_log (scope, at, id);
