-- Runs of `lostfound items import`, one per file, known by a SHA-256 of its lines: each batch
-- of items commits with the last line it holds, so a run that was stopped (kill -9, a lost
-- connection) is resumed after that line, and a file imported whole is not imported again.
CREATE TABLE item_imports (
    file_sha256 TEXT PRIMARY KEY,
    -- The last line whose item is committed; 0 before the first batch.
    lines_done  BIGINT NOT NULL DEFAULT 0,
    items_done  BIGINT NOT NULL DEFAULT 0,
    started_at  BIGINT NOT NULL,
    finished_at BIGINT
);
