-- Each server's own versions, one row per server and kind ('aliases', 'terms'): bumped by any
-- change to that server's aliases or terms (from any process), so a cache reads again only
-- the servers that changed. The counters' alias_version and term_version still move on every
-- change: one small read tells a cache that some server changed. A row is never deleted: a
-- version that started again at 1 could equal one a cache read before.
-- A dump from before this migration restored with `pg_restore --clean` over a database that
-- had it drops and makes again only what the dump holds: this table and its function stay
-- behind, with versions of a database no longer there, and the restored schema says 8. They
-- are made anew (a cache of them is a running bot's, and no bot runs on a restore).
DROP TABLE IF EXISTS server_versions;
DROP FUNCTION IF EXISTS bump_server_versions();

CREATE TABLE server_versions (
    scope   BIGINT NOT NULL,
    kind    TEXT   NOT NULL CHECK (kind IN ('aliases', 'terms')),
    version BIGINT NOT NULL,
    PRIMARY KEY (scope, kind)
);

-- Once per statement, after `aliases_changed` / `terms_changed` (triggers fire in name order):
-- a writer holds the kind's counter row before any server's row, as every other writer of
-- that kind does, so two writers never wait for each other's rows in turn (a deadlock).
-- Each server once per statement, in order (an import of 2,000 terms bumps its row once).
CREATE FUNCTION bump_server_versions() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        INSERT INTO server_versions AS v (scope, kind, version)
            SELECT DISTINCT scope, TG_ARGV[0], 1 FROM new_rows ORDER BY scope
            ON CONFLICT (scope, kind) DO UPDATE SET version = v.version + 1;
    ELSIF TG_OP = 'DELETE' THEN
        INSERT INTO server_versions AS v (scope, kind, version)
            SELECT DISTINCT scope, TG_ARGV[0], 1 FROM old_rows ORDER BY scope
            ON CONFLICT (scope, kind) DO UPDATE SET version = v.version + 1;
    ELSE
        INSERT INTO server_versions AS v (scope, kind, version)
            SELECT scope, TG_ARGV[0], 1
            FROM (SELECT scope FROM old_rows UNION SELECT scope FROM new_rows) AS changed
            ORDER BY scope
            ON CONFLICT (scope, kind) DO UPDATE SET version = v.version + 1;
    END IF;
    RETURN NULL;
END;
$$;

CREATE TRIGGER aliases_changed_servers_inserted AFTER INSERT ON aliases
    REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION bump_server_versions('aliases');
CREATE TRIGGER aliases_changed_servers_updated AFTER UPDATE ON aliases
    REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION bump_server_versions('aliases');
CREATE TRIGGER aliases_changed_servers_deleted AFTER DELETE ON aliases
    REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION bump_server_versions('aliases');

CREATE TRIGGER terms_changed_servers_inserted AFTER INSERT ON terms
    REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION bump_server_versions('terms');
CREATE TRIGGER terms_changed_servers_updated AFTER UPDATE ON terms
    REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION bump_server_versions('terms');
CREATE TRIGGER terms_changed_servers_deleted AFTER DELETE ON terms
    REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION bump_server_versions('terms');
