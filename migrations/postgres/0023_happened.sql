-- When a thing was lost or found, as its reporter knows it: a moment, or a window of at most
-- 31 days (epoch milliseconds). Matching measures closeness in time by it.
ALTER TABLE items ADD COLUMN happened_from BIGINT;
ALTER TABLE items ADD COLUMN happened_until BIGINT;
