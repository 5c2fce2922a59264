-- From claim to hands: an accepted claim waits for its claimant at the desk; the handover
-- (who collected, which ID was checked, by whom, when), the post (the address, the fee and its
-- payment, the carrier and tracking number) or a cancellation with its reason ends it.
ALTER TABLE claims DROP CONSTRAINT claims_status_check;
ALTER TABLE claims ADD CONSTRAINT claims_status_check
    CHECK (status IN ('open', 'accepted', 'rejected', 'withdrawn', 'collected', 'posted', 'cancelled'));
ALTER TABLE claims ADD COLUMN settled_at BIGINT;
ALTER TABLE claims ADD COLUMN settled_by TEXT;
ALTER TABLE claims ADD COLUMN collected_by TEXT;
ALTER TABLE claims ADD COLUMN id_checked TEXT;
ALTER TABLE claims ADD COLUMN cancel_reason TEXT;
ALTER TABLE claims ADD COLUMN post_address TEXT;
ALTER TABLE claims ADD COLUMN post_requested_at BIGINT;
ALTER TABLE claims ADD COLUMN post_fee TEXT;
ALTER TABLE claims ADD COLUMN post_fee_at BIGINT;
ALTER TABLE claims ADD COLUMN post_paid TEXT;
ALTER TABLE claims ADD COLUMN post_paid_at BIGINT;
ALTER TABLE claims ADD COLUMN post_paid_by TEXT;
ALTER TABLE claims ADD COLUMN post_carrier TEXT;
ALTER TABLE claims ADD COLUMN post_tracking TEXT;
-- What the previous release accepted was handed over at once.
UPDATE claims SET status = 'collected', settled_at = decided_at, settled_by = decided_by
WHERE status = 'accepted';
-- One claim at a time waits for pickup of an item.
CREATE UNIQUE INDEX claims_accepted_once ON claims (item_id) WHERE status = 'accepted';
