-- Each server's own versions, one row per server and kind ('aliases', 'terms'): bumped by any
-- change to that server's aliases or terms (from any process), so a cache reads again only
-- the servers that changed. The counters' alias_version and term_version still move on every
-- change: one small read tells a cache that some server changed. A row is never deleted: a
-- version that started again at 1 could equal one a cache read before.
CREATE TABLE server_versions (
    scope   INTEGER NOT NULL,
    kind    TEXT    NOT NULL CHECK (kind IN ('aliases', 'terms')),
    version INTEGER NOT NULL,
    PRIMARY KEY (scope, kind)
) WITHOUT ROWID;

CREATE TRIGGER aliases_inserted_server AFTER INSERT ON aliases
BEGIN
    INSERT INTO server_versions (scope, kind, version) VALUES (NEW.scope, 'aliases', 1)
        ON CONFLICT (scope, kind) DO UPDATE SET version = version + 1;
END;

CREATE TRIGGER aliases_updated_server AFTER UPDATE ON aliases
BEGIN
    INSERT INTO server_versions (scope, kind, version) VALUES (OLD.scope, 'aliases', 1)
        ON CONFLICT (scope, kind) DO UPDATE SET version = version + 1;
    INSERT INTO server_versions (scope, kind, version) VALUES (NEW.scope, 'aliases', 1)
        ON CONFLICT (scope, kind) DO UPDATE SET version = version + 1;
END;

CREATE TRIGGER aliases_deleted_server AFTER DELETE ON aliases
BEGIN
    INSERT INTO server_versions (scope, kind, version) VALUES (OLD.scope, 'aliases', 1)
        ON CONFLICT (scope, kind) DO UPDATE SET version = version + 1;
END;

CREATE TRIGGER terms_inserted_server AFTER INSERT ON terms
BEGIN
    INSERT INTO server_versions (scope, kind, version) VALUES (NEW.scope, 'terms', 1)
        ON CONFLICT (scope, kind) DO UPDATE SET version = version + 1;
END;

CREATE TRIGGER terms_updated_server AFTER UPDATE ON terms
BEGIN
    INSERT INTO server_versions (scope, kind, version) VALUES (OLD.scope, 'terms', 1)
        ON CONFLICT (scope, kind) DO UPDATE SET version = version + 1;
    INSERT INTO server_versions (scope, kind, version) VALUES (NEW.scope, 'terms', 1)
        ON CONFLICT (scope, kind) DO UPDATE SET version = version + 1;
END;

CREATE TRIGGER terms_deleted_server AFTER DELETE ON terms
BEGIN
    INSERT INTO server_versions (scope, kind, version) VALUES (OLD.scope, 'terms', 1)
        ON CONFLICT (scope, kind) DO UPDATE SET version = version + 1;
END;
