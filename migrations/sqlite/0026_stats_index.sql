-- The statistics in one pass over an index instead of the table: every column and
-- expression their count groups by, in its order, then what the window filters on
-- (store/stats.rs names it, as SQLite's planner would take the index on created_at for
-- the window and sort every row it reads). 0.5 s at 100,000 items before, 0.1 s after.
CREATE INDEX items_stats ON items (
    kind, status, cat_key, ((created_at + 259200000) / 604800000),
    (CASE WHEN disposed_at IS NOT NULL THEN disposal_method END), (closed_at IS NOT NULL),
    created_at, site_id
);
