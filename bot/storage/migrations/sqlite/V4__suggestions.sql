-- Members' suggestions of missing terms (`/suggest`, the "Suggest it" button), queued per server
-- until a moderator accepts (it becomes a term) or rejects them.
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

CREATE INDEX suggestions_by_scope ON suggestions (scope, status, id);
CREATE INDEX suggestions_by_user ON suggestions (scope, user_id, created_at);
