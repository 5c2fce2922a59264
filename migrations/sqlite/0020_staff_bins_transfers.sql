-- Staff work at sites: an account that is not an administrator and works at one or more
-- sites is staff there, and acts on those sites' items only.
CREATE TABLE site_staff (
    user_id TEXT    NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    site_id INTEGER NOT NULL REFERENCES sites (id) ON DELETE CASCADE,
    PRIMARY KEY (user_id, site_id)
);
CREATE INDEX site_staff_by_site ON site_staff (site_id, user_id);

-- Where a site keeps what it holds: a code on the shelf ("A-3-2") and a name people read.
-- An item in a bin has the bin's name as its storage place.
CREATE TABLE bins (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    site_id    INTEGER NOT NULL REFERENCES sites (id),
    code       TEXT NOT NULL,
    name       TEXT NOT NULL,
    created_at INTEGER NOT NULL
);
CREATE UNIQUE INDEX bins_by_code ON bins (site_id, lower(code));
ALTER TABLE items ADD COLUMN bin_id INTEGER REFERENCES bins (id);
CREATE INDEX items_by_bin ON items (bin_id) WHERE bin_id IS NOT NULL;

-- An item on its way to another site: it stays its sender's until that site receives it.
ALTER TABLE items ADD COLUMN transit_to INTEGER REFERENCES sites (id);
CREATE INDEX items_in_transit ON items (transit_to) WHERE transit_to IS NOT NULL;

-- How long a site keeps found items, in days, when it differs from the service's period
-- (LOSTFOUND_HOLD_DAYS); a category with a period of its own keeps it.
ALTER TABLE sites ADD COLUMN hold_days INTEGER;
