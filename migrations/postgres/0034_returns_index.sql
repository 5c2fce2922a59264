-- The statistics' returns (how long a returned item took) read from the returned items alone,
-- as on SQLite; only an item's return writes to it.
CREATE INDEX items_returned ON items (created_at, kind, returned_at, site_id) WHERE returned_at IS NOT NULL;
