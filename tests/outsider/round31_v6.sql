-- A server's first weeks as release 9762814 (schema V6) stored them: `sqlite3 .dump` of a
-- database its own command line and store wrote (tests/outsider/PLAN.md, round 31 U1); the
-- server's id 987654321012 is replaced by the test's.
PRAGMA foreign_keys=OFF;
BEGIN TRANSACTION;
CREATE TABLE lookups (
    scope    INTEGER NOT NULL,
    entry_id TEXT    NOT NULL,
    hour     INTEGER NOT NULL,
    count    INTEGER NOT NULL CHECK (count > 0),
    PRIMARY KEY (scope, entry_id, hour)
) WITHOUT ROWID;
INSERT INTO lookups VALUES(987654321012,'quuxify',499017,2);
CREATE TABLE misses (
    scope      INTEGER NOT NULL,
    query      TEXT    NOT NULL CHECK (query <> ''),
    count      INTEGER NOT NULL CHECK (count > 0),
    first_seen INTEGER NOT NULL,
    last_seen  INTEGER NOT NULL,
    PRIMARY KEY (scope, query)
) WITHOUT ROWID;
INSERT INTO misses VALUES(987654321012,'blorpt',1,1796462932,1796462932);
CREATE TABLE miss_hours (
    scope INTEGER NOT NULL,
    query TEXT    NOT NULL,
    hour  INTEGER NOT NULL,
    count INTEGER NOT NULL CHECK (count > 0),
    PRIMARY KEY (scope, query, hour),
    FOREIGN KEY (scope, query) REFERENCES misses (scope, query) ON DELETE CASCADE
) WITHOUT ROWID;
INSERT INTO miss_hours VALUES(987654321012,'blorpt',499017,1);
CREATE TABLE aliases (
    scope    INTEGER NOT NULL,
    key      TEXT    NOT NULL CHECK (key <> ''),
    text     TEXT    NOT NULL,
    entry_id TEXT    NOT NULL CHECK (entry_id <> ''),
    added_by INTEGER NOT NULL,
    added_at INTEGER NOT NULL,
    PRIMARY KEY (scope, key)
) WITHOUT ROWID;
INSERT INTO aliases VALUES(987654321012,'quuxalias','quuxalias','quuxify',0,1796462932);
INSERT INTO aliases VALUES(987654321012,'ragalias','ragalias','rag',0,1796462932);
CREATE TABLE audit_log (
    id        INTEGER PRIMARY KEY,
    at        INTEGER NOT NULL,
    scope     INTEGER NOT NULL,
    actor_id  INTEGER NOT NULL,
    action    TEXT    NOT NULL CHECK (action IN ('alias_add', 'alias_remove', 'alias_import')),
    alias_key TEXT    NOT NULL,
    before    TEXT,
    after     TEXT
);
INSERT INTO audit_log VALUES(1,1796462932,987654321012,0,'alias_import','zorbalias',NULL,'zorblax');
INSERT INTO audit_log VALUES(2,1796462932,987654321012,0,'alias_import','quuxalias',NULL,'quuxify');
INSERT INTO audit_log VALUES(3,1796462932,987654321012,0,'alias_import','ragalias',NULL,'rag');
INSERT INTO audit_log VALUES(4,1796462932,987654321012,0,'alias_remove','zorbalias','zorblax',NULL);
CREATE TABLE counters (
    name  TEXT PRIMARY KEY,
    value INTEGER NOT NULL
) WITHOUT ROWID;
INSERT INTO counters VALUES('alias_version',4);
INSERT INTO counters VALUES('flush_seq',0);
INSERT INTO counters VALUES('term_version',3);
CREATE TABLE flush_marks (
    writer TEXT    PRIMARY KEY,
    seq    INTEGER NOT NULL,
    at     INTEGER NOT NULL
) WITHOUT ROWID;
CREATE TABLE terms (
    scope      INTEGER NOT NULL,
    id         TEXT    NOT NULL CHECK (id <> ''),
    body       TEXT    NOT NULL,
    updated_by INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    PRIMARY KEY (scope, id)
) WITHOUT ROWID;
INSERT INTO terms VALUES(987654321012,'quuxify','{"id":"quuxify","title":"Quuxify","definition":"To make quux.","category":"Fundamentals","acronym":null,"aliases":[],"summary":null,"boundary":null,"importance":null,"plain":null,"keywords":[],"related":[],"reference":null}',0,1796462931);
CREATE TABLE suggestions (
    id         INTEGER PRIMARY KEY,
    scope      INTEGER NOT NULL,
    user_id    INTEGER NOT NULL,
    title      TEXT    NOT NULL,
    definition TEXT    NOT NULL,
    status     TEXT    NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'accepted', 'rejected')),
    created_at INTEGER NOT NULL,
    decided_by INTEGER,
    decided_at INTEGER
);
INSERT INTO suggestions VALUES(1,987654321012,7001,'Snarfle','What snarfle is.','open',1796462932,NULL,NULL);
CREATE TABLE term_drafts (
    nonce    TEXT    PRIMARY KEY,
    scope    INTEGER NOT NULL,
    owner_id INTEGER NOT NULL,
    body     TEXT    NOT NULL,
    saved_at INTEGER NOT NULL
) WITHOUT ROWID;
INSERT INTO term_drafts VALUES('nonce48',987654321012,8001,'{"title": "Draft"}',1796462932);
CREATE TABLE IF NOT EXISTS "term_audit_log" (
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
INSERT INTO term_audit_log VALUES(1,1796462931,987654321012,0,'term_import','zorblax',NULL,'{"id":"zorblax","title":"Zorblax","definition":"A thing that zorbs.","category":"Fundamentals","acronym":null,"aliases":[],"summary":null,"boundary":null,"importance":null,"plain":null,"keywords":[],"related":[],"reference":null}');
INSERT INTO term_audit_log VALUES(2,1796462931,987654321012,0,'term_import','quuxify',NULL,'{"id":"quuxify","title":"Quuxify","definition":"To make quux.","category":"Fundamentals","acronym":null,"aliases":[],"summary":null,"boundary":null,"importance":null,"plain":null,"keywords":[],"related":[],"reference":null}');
INSERT INTO term_audit_log VALUES(3,1796462932,987654321012,0,'term_import','zorblax','{"id":"zorblax","title":"Zorblax","definition":"A thing that zorbs.","category":"Fundamentals","acronym":null,"aliases":[],"summary":null,"boundary":null,"importance":null,"plain":null,"keywords":[],"related":[],"reference":null}',NULL);
CREATE INDEX lookups_by_hour ON lookups (scope, hour);
CREATE INDEX miss_hours_by_hour ON miss_hours (scope, hour);
CREATE INDEX aliases_by_entry ON aliases (scope, entry_id);
CREATE INDEX audit_log_by_scope ON audit_log (scope, id);
CREATE TRIGGER audit_log_no_update BEFORE UPDATE ON audit_log
BEGIN
    SELECT RAISE(ABORT, 'the audit log is append-only');
END;
CREATE TRIGGER audit_log_no_delete BEFORE DELETE ON audit_log
BEGIN
    SELECT RAISE(ABORT, 'the audit log is append-only');
END;
CREATE TRIGGER aliases_inserted AFTER INSERT ON aliases
BEGIN
    UPDATE counters SET value = value + 1 WHERE name = 'alias_version';
END;
CREATE TRIGGER aliases_updated AFTER UPDATE ON aliases
BEGIN
    UPDATE counters SET value = value + 1 WHERE name = 'alias_version';
END;
CREATE TRIGGER aliases_deleted AFTER DELETE ON aliases
BEGIN
    UPDATE counters SET value = value + 1 WHERE name = 'alias_version';
END;
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
CREATE INDEX suggestions_by_scope ON suggestions (scope, status, id);
CREATE INDEX suggestions_by_user ON suggestions (scope, user_id, created_at);
CREATE INDEX term_drafts_by_owner ON term_drafts (scope, owner_id, saved_at);
CREATE INDEX term_drafts_by_age ON term_drafts (saved_at);
CREATE INDEX term_audit_log_by_scope ON term_audit_log (scope, id);
CREATE TRIGGER term_audit_log_no_update BEFORE UPDATE ON term_audit_log
BEGIN
    SELECT RAISE(ABORT, 'the audit log is append-only');
END;
CREATE TRIGGER term_audit_log_no_delete BEFORE DELETE ON term_audit_log
BEGIN
    SELECT RAISE(ABORT, 'the audit log is append-only');
END;
COMMIT;
PRAGMA user_version = 6;
PRAGMA application_id = 1198277236;
