-- Each server's own glossary terms (`/term`), one row per term: `body` is the term as JSON
-- (bot.glossary.server_terms.ServerTerm), checked by the bot before it is written.
CREATE TABLE terms (
    scope      INTEGER NOT NULL,
    id         TEXT    NOT NULL CHECK (id <> ''),
    body       TEXT    NOT NULL,
    updated_by INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    PRIMARY KEY (scope, id)
) WITHOUT ROWID;

-- Every change to a term, with the term as JSON before and after (NULL: none).
CREATE TABLE term_audit_log (
    id       INTEGER PRIMARY KEY,
    at       INTEGER NOT NULL,
    scope    INTEGER NOT NULL,
    actor_id INTEGER NOT NULL,
    action   TEXT    NOT NULL CHECK (action IN ('term_add', 'term_edit', 'term_remove', 'term_import')),
    term_id  TEXT    NOT NULL,
    before   TEXT,
    after    TEXT
);

CREATE INDEX term_audit_log_by_scope ON term_audit_log (scope, id);

CREATE TRIGGER term_audit_log_no_update BEFORE UPDATE ON term_audit_log
BEGIN
    SELECT RAISE(ABORT, 'the audit log is append-only');
END;

CREATE TRIGGER term_audit_log_no_delete BEFORE DELETE ON term_audit_log
BEGIN
    SELECT RAISE(ABORT, 'the audit log is append-only');
END;

-- term_version: bumped by any change to terms (from any process), so caches know to reload.
INSERT INTO counters (name, value) VALUES ('term_version', 0);

CREATE TRIGGER terms_inserted AFTER INSERT ON terms
BEGIN
    UPDATE counters SET value = value + 1 WHERE name = 'term_version';
END;

CREATE TRIGGER terms_updated AFTER UPDATE ON terms
BEGIN
    UPDATE counters SET value = value + 1 WHERE name = 'term_version';
END;

CREATE TRIGGER terms_deleted AFTER DELETE ON terms
BEGIN
    UPDATE counters SET value = value + 1 WHERE name = 'term_version';
END;
