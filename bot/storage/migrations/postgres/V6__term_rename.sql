-- A server term renamed by the bot when the glossary gives its id to an entry (see SQLite's V6).
ALTER TABLE term_audit_log DROP CONSTRAINT term_audit_log_action_check;
ALTER TABLE term_audit_log ADD CONSTRAINT term_audit_log_action_check
    CHECK (action IN ('term_add', 'term_edit', 'term_remove', 'term_import', 'term_rename',
                      'suggestion_accept', 'suggestion_reject'));
