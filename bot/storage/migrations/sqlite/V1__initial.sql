-- Glossary Bot storage, schema version 1.
-- Times are Unix seconds (UTC); `hour` is hours since the epoch. `scope` is the guild id, 0 for DMs.

-- Marks the file as ours, so the bot never migrates some other application's database.
PRAGMA application_id = 1198277236; -- "GlBt"

-- Answered lookups, one row per scope, entry and hour: "this week" and "all time" both sum rows.
CREATE TABLE lookups (
    scope    INTEGER NOT NULL,
    entry_id TEXT    NOT NULL,
    hour     INTEGER NOT NULL,
    count    INTEGER NOT NULL CHECK (count > 0),
    PRIMARY KEY (scope, entry_id, hour)
) WITHOUT ROWID;

CREATE INDEX lookups_by_hour ON lookups (scope, hour);

-- Searches that found nothing, by normalised query: all-time count and first/last seen ...
CREATE TABLE misses (
    scope      INTEGER NOT NULL,
    query      TEXT    NOT NULL CHECK (query <> ''),
    count      INTEGER NOT NULL CHECK (count > 0),
    first_seen INTEGER NOT NULL,
    last_seen  INTEGER NOT NULL,
    PRIMARY KEY (scope, query)
) WITHOUT ROWID;

-- ... and the same counts by hour, so a period shows the misses of that period.
-- Clearing a miss (an alias now answers it) clears its hours with it.
CREATE TABLE miss_hours (
    scope INTEGER NOT NULL,
    query TEXT    NOT NULL,
    hour  INTEGER NOT NULL,
    count INTEGER NOT NULL CHECK (count > 0),
    PRIMARY KEY (scope, query, hour),
    FOREIGN KEY (scope, query) REFERENCES misses (scope, query) ON DELETE CASCADE
) WITHOUT ROWID;

CREATE INDEX miss_hours_by_hour ON miss_hours (scope, hour);

-- Per-server aliases. One key names one entry per server: the primary key settles races.
CREATE TABLE aliases (
    scope    INTEGER NOT NULL,
    key      TEXT    NOT NULL CHECK (key <> ''),
    text     TEXT    NOT NULL,
    entry_id TEXT    NOT NULL CHECK (entry_id <> ''),
    added_by INTEGER NOT NULL,
    added_at INTEGER NOT NULL,
    PRIMARY KEY (scope, key)
) WITHOUT ROWID;

CREATE INDEX aliases_by_entry ON aliases (scope, entry_id);

-- Every moderator or operator change, with what the alias named before and after.
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

CREATE INDEX audit_log_by_scope ON audit_log (scope, id);

-- A record of who changed what is only worth something if it cannot be rewritten quietly.
CREATE TRIGGER audit_log_no_update BEFORE UPDATE ON audit_log
BEGIN
    SELECT RAISE(ABORT, 'the audit log is append-only');
END;

CREATE TRIGGER audit_log_no_delete BEFORE DELETE ON audit_log
BEGIN
    SELECT RAISE(ABORT, 'the audit log is append-only');
END;

-- Small counters readers compare against:
--   flush_seq: the last batch of buffered counts written, so a read adds only newer buffers;
--   alias_version: bumped by any change to aliases (from any process), so caches know to reload.
CREATE TABLE counters (
    name  TEXT PRIMARY KEY,
    value INTEGER NOT NULL
) WITHOUT ROWID;

INSERT INTO counters (name, value) VALUES ('flush_seq', 0), ('alias_version', 0);

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
