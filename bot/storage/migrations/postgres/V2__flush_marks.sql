-- Which of its batches each writing process has committed (see SQLite's V2).
CREATE TABLE flush_marks (
    writer TEXT   PRIMARY KEY,
    seq    BIGINT NOT NULL,
    at     BIGINT NOT NULL
);
