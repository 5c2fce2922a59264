-- The office's custody work. The finder of an item handed in at the desk (private: staff
-- only); what became of a found item nobody claimed in time (`disposal_method` one of the
-- five the API names, with a note); and a report its reporter or staff closed ("found it
-- myself"). How long a found item is kept is not stored: it follows from its category and the
-- holding periods configured now, so a change of policy applies to what is on the shelf.
ALTER TABLE items ADD COLUMN finder_name TEXT;
ALTER TABLE items ADD COLUMN finder_contact TEXT;
ALTER TABLE items ADD COLUMN disposed_at BIGINT;
ALTER TABLE items ADD COLUMN disposal_method TEXT
    CHECK (disposal_method IN ('donated', 'auctioned', 'destroyed', 'returned-to-finder', 'transferred'));
ALTER TABLE items ADD COLUMN disposal_note TEXT;
-- (Set together with `disposed_at`, in one statement.)
ALTER TABLE items ADD COLUMN closed_at BIGINT;

-- The found items still in custody, by report time: what the "due" list reads.
CREATE INDEX items_in_custody ON items (created_at)
    WHERE kind = 'found' AND returned_at IS NULL AND disposed_at IS NULL AND closed_at IS NULL;

-- The review-waiting notice: one per administrator per window, its count raised in place.
ALTER TABLE notifications ADD COLUMN count BIGINT NOT NULL DEFAULT 1;
CREATE INDEX notifications_by_type ON notifications (user_id, type, created_at);
