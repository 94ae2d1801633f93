-- Moderators' decisions on suggestions join the term audit log (who accepted or rejected which
-- suggestion, when: `before` is the suggestion as JSON, `term_id` the term it became, NULL for a
-- rejection). SQLite cannot widen a CHECK in place: the log is copied into a new table.
CREATE TABLE term_audit_log_v5 (
    id       INTEGER PRIMARY KEY,
    at       INTEGER NOT NULL,
    scope    INTEGER NOT NULL,
    actor_id INTEGER NOT NULL,
    action   TEXT    NOT NULL CHECK (action IN ('term_add', 'term_edit', 'term_remove',
                                                'term_import', 'suggestion_accept',
                                                'suggestion_reject')),
    term_id  TEXT,
    before   TEXT,
    after    TEXT
);

INSERT INTO term_audit_log_v5 (id, at, scope, actor_id, action, term_id, before, after)
    SELECT id, at, scope, actor_id, action, term_id, before, after FROM term_audit_log;

-- DROP TABLE fires no DELETE trigger, so the append-only guard lets it go.
DROP TABLE term_audit_log;

ALTER TABLE term_audit_log_v5 RENAME TO term_audit_log;

CREATE INDEX term_audit_log_by_scope ON term_audit_log (scope, id);

CREATE TRIGGER term_audit_log_no_update BEFORE UPDATE ON term_audit_log
BEGIN
    SELECT RAISE(ABORT, 'the audit log is append-only');
END;

CREATE TRIGGER term_audit_log_no_delete BEFORE DELETE ON term_audit_log
BEGIN
    SELECT RAISE(ABORT, 'the audit log is append-only');
END;

-- The term forms (`/term add|edit`, accepting a suggestion) a moderator has open: what each was
-- opened with (the command's options, the term edited and its revision, the suggestion), as
-- JSON, so a submit after a restart still carries them. Short-lived: pruned as new ones open.
CREATE TABLE term_drafts (
    nonce    TEXT    PRIMARY KEY,
    scope    INTEGER NOT NULL,
    owner_id INTEGER NOT NULL,
    body     TEXT    NOT NULL,
    saved_at INTEGER NOT NULL
) WITHOUT ROWID;

CREATE INDEX term_drafts_by_owner ON term_drafts (scope, owner_id, saved_at);
CREATE INDEX term_drafts_by_age ON term_drafts (saved_at);
