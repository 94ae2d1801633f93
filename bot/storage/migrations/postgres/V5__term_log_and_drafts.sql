-- Suggestion decisions in the term audit log; term forms kept across restarts (see SQLite's V5).
ALTER TABLE term_audit_log DROP CONSTRAINT term_audit_log_action_check;
ALTER TABLE term_audit_log ADD CONSTRAINT term_audit_log_action_check
    CHECK (action IN ('term_add', 'term_edit', 'term_remove', 'term_import',
                      'suggestion_accept', 'suggestion_reject'));
ALTER TABLE term_audit_log ALTER COLUMN term_id DROP NOT NULL;

CREATE TABLE term_drafts (
    nonce    TEXT   PRIMARY KEY,
    scope    BIGINT NOT NULL,
    owner_id BIGINT NOT NULL,
    body     TEXT   NOT NULL,
    saved_at BIGINT NOT NULL
);

CREATE INDEX term_drafts_by_owner ON term_drafts (scope, owner_id, saved_at);
CREATE INDEX term_drafts_by_age ON term_drafts (saved_at);
