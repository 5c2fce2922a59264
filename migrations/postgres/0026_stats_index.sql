-- The statistics' grouping columns and expressions, in their order, then what the window
-- filters on, as on SQLite (where the statistics name the index): the planner may read the
-- counts from it instead of the table.
CREATE INDEX items_stats ON items (
    kind, status, cat_key, ((created_at + 259200000) / 604800000),
    (CASE WHEN disposed_at IS NOT NULL THEN disposal_method END), (closed_at IS NOT NULL),
    created_at, site_id
);
