-- Which of its batches each writing process has committed. A process counts its own buffered
-- counts on top of the stored ones only when they are newer than its mark, so several
-- processes on one database (a bot and the command line; several bots) never count a batch
-- twice or miss one. Rows of processes gone for a week are removed by the next one to close.
CREATE TABLE flush_marks (
    writer TEXT    PRIMARY KEY,
    seq    INTEGER NOT NULL,
    at     INTEGER NOT NULL
) WITHOUT ROWID;
