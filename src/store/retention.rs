//! Retention: personal details removed once the service no longer needs them. A set number
//! of days after an item leaves custody (returned, disposed of or closed), its finder's name
//! and contact and its verification details go, and so do its claims' descriptions, postal
//! addresses and conversations; the custody record (the claims, who collected the item, on
//! which ID, when; a posting's carrier and tracking) stays. Chat and thread messages go at an
//! age of their own. Every node may run it: each step removes what is due and nothing else.

use super::{Store, StoreError, items::NEXT_VERSION, statement::Tx, with_pool};

/// The items that left custody before `$1`.
macro_rules! left_custody_before {
    () => {
        "SELECT id FROM items WHERE COALESCE(returned_at, disposed_at, closed_at) < $1"
    };
}

/// Those of them that still hold their finder's or verification details.
macro_rules! with_details_left_custody_before {
    () => {
        concat!(
            "id IN (",
            left_custody_before!(),
            ") AND (finder_name IS NOT NULL OR finder_contact IS NOT NULL OR verification IS NOT NULL)"
        )
    };
}

const ITEM_DETAILS_DUE: &str = concat!("SELECT count(*) FROM items WHERE ", with_details_left_custody_before!());
const FORGET_ITEM_DETAILS: &str = concat!(
    "UPDATE items SET finder_name = NULL, finder_contact = NULL, verification = NULL, version = $2 WHERE ",
    with_details_left_custody_before!()
);
const FORGET_CLAIM_DETAILS: &str = concat!(
    // An address emptied, not removed: the posting's record (fee, carrier, tracking) stays.
    "UPDATE claims SET message = '', post_address = CASE WHEN post_address IS NULL THEN NULL ELSE '' END \
     WHERE (message <> '' OR post_address <> '') AND item_id IN (",
    left_custody_before!(),
    ")"
);
const FORGET_CONVERSATIONS: &str = concat!(
    "DELETE FROM claim_messages WHERE claim_id IN (SELECT id FROM claims WHERE item_id IN (",
    left_custody_before!(),
    "))"
);
const FORGET_MESSAGES: &str = "DELETE FROM messages WHERE created_at < $1";

/// What one run removed.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Forgotten {
    /// Items whose finder and verification details went.
    pub items: u64,
    /// Claims whose description and postal address went.
    pub claims: u64,
    /// Messages of claims' conversations.
    pub claim_messages: u64,
    /// Chat and thread messages.
    pub messages: u64,
}

impl Store {
    /// Removes the details of the items that left custody before `left_before`, and the
    /// messages written before `written_before` (epoch ms; `None`: keep them).
    pub async fn forget_retained(
        &self,
        left_before: Option<i64>,
        written_before: Option<i64>,
    ) -> Result<Forgotten, StoreError> {
        with_pool!(self, write, |pool| {
            let mut forgotten = Forgotten::default();
            if let Some(before) = left_before {
                let (due,): (i64,) = pool.row(ITEM_DETAILS_DUE, &[before.into()]).await?;
                // What staff see of the items changes: a new version, but only then.
                if due > 0 {
                    let (version,): (i64,) = pool.row(NEXT_VERSION, &[]).await?;
                    forgotten.items = pool.run(FORGET_ITEM_DETAILS, &[before.into(), version.into()]).await?;
                }
                forgotten.claims = pool.run(FORGET_CLAIM_DETAILS, &[before.into()]).await?;
                forgotten.claim_messages = pool.run(FORGET_CONVERSATIONS, &[before.into()]).await?;
            }
            if let Some(before) = written_before {
                forgotten.messages = pool.run(FORGET_MESSAGES, &[before.into()]).await?;
            }
            Ok(forgotten)
        })
    }
}
