-- A server term's body (JSON, `ServerTerm`) may carry `other_senses` (task senses77): what its
-- name means outside the server's subject, read by search. A bot from before it refuses such a
-- body as unreadable (its model forbids unknown fields: the term would drop out of its server's
-- glossary, and an import of that server would be refused for it); this version makes that bot
-- refuse the whole database as newer instead, at its start, before it reads or writes a term.
-- Nothing to change in the rows: a body without the field reads as a term with no other senses
-- (a statement that changes nothing: the version is this migration's whole work).
SELECT 1;
