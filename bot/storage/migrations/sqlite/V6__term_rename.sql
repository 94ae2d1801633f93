-- A server term renamed by the bot when the glossary gives its id to an entry of another
-- concept (`term_rename`: `before` the term under its old id, `after` under its new one).
-- SQLite cannot widen a CHECK in place: the log is copied into a new table, as in V5.
CREATE TABLE term_audit_log_v6 (
    id       INTEGER PRIMARY KEY,
    at       INTEGER NOT NULL,
    scope    INTEGER NOT NULL,
    actor_id INTEGER NOT NULL,
    action   TEXT    NOT NULL CHECK (action IN ('term_add', 'term_edit', 'term_remove',
                                                'term_import', 'term_rename',
                                                'suggestion_accept', 'suggestion_reject')),
    term_id  TEXT,
    before   TEXT,
    after    TEXT
);

INSERT INTO term_audit_log_v6 (id, at, scope, actor_id, action, term_id, before, after)
    SELECT id, at, scope, actor_id, action, term_id, before, after FROM term_audit_log;

-- DROP TABLE fires no DELETE trigger, so the append-only guard lets it go.
DROP TABLE term_audit_log;

ALTER TABLE term_audit_log_v6 RENAME TO term_audit_log;

CREATE INDEX term_audit_log_by_scope ON term_audit_log (scope, id);

CREATE TRIGGER term_audit_log_no_update BEFORE UPDATE ON term_audit_log
BEGIN
    SELECT RAISE(ABORT, 'the audit log is append-only');
END;

CREATE TRIGGER term_audit_log_no_delete BEFORE DELETE ON term_audit_log
BEGIN
    SELECT RAISE(ABORT, 'the audit log is append-only');
END;
