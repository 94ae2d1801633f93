-- Whether a term id was ever a server's (`ever_a_term`: a button to a card gone from the
-- glossary) is one look-up in an index by server and term id, not a scan of the server's whole
-- log (133 ms for an id it lacks at 300,000 rows, tidy76). The index holds both columns the
-- query reads: the table's rows, texts and all, are not read.
CREATE INDEX term_audit_log_by_term ON term_audit_log (scope, term_id);
