//! Erasing an account: the person goes, what the office must keep stays, anonymised. Their
//! reports, claims (with the handover or post that ended them), claim conversations, chat and
//! thread messages, "Not mine" answers and the changes they made as staff move to a new
//! account, `erased-` and ten letters, with no name, address or password, disabled, and
//! marked with when it happened. The old account goes with its sessions (ended on every
//! node), notices, emails waiting, tokens and desks; its id is retired, never to be taken
//! again. Open claims are withdrawn, claims waiting for pickup cancelled, and open lost
//! reports closed: nobody is left to give them to.

use super::{
    AccountChange, Store, StoreError,
    items::{NEXT_VERSION, open_item},
    statement::Tx,
    users::{RETIRE_ID, end_sessions_of, insert_drawn, is_last_admin},
    with_pool,
};

/// The name the anonymous account, and the messages it now holds, carry.
const ERASED_NAME: &str = "Deleted account";

/// Why the claims that waited for their claimant were cancelled.
const CANCELLED: &str = "The claimant deleted their account";

const STORED_ID: &str = "SELECT id FROM users WHERE lower(id) = lower($1) ORDER BY id = $1 DESC LIMIT 1";
const MARK_ERASED: &str = "UPDATE users SET disabled = TRUE, erased_at = $2 WHERE id = $1";

const WITHDRAW_OPEN_CLAIMS: &str =
    "UPDATE claims SET status = 'withdrawn', decided_at = $2, decided_by = $3 WHERE claimant = $1 AND status = 'open'";
const CANCEL_PICKUPS: &str = "UPDATE claims SET status = 'cancelled', settled_at = $2, settled_by = $3, cancel_reason = $4 \
     WHERE claimant = $1 AND status = 'accepted'";
const MOVE_MESSAGES: &str = "UPDATE messages SET user_id = $2, nick = $3 WHERE user_id = $1";
/// Reports filed under the id in any spelling that is no other account's (an import's).
const MOVE_REPORTS: &str = "UPDATE items SET created_by = $2, version = $3 WHERE created_by = $1 \
     OR (lower(created_by) = lower($1) AND NOT EXISTS (SELECT 1 FROM users WHERE users.id = items.created_by))";
const CLOSE_LOST_REPORTS: &str = concat!(
    "UPDATE items SET closed_at = $2 WHERE created_by = $1 AND kind = 'lost' AND ",
    open_item!()
);

/// What else moves from the erased account (`$1`) to the anonymous one (`$2`).
const MOVES: [&str; 7] = [
    "UPDATE claims SET claimant = $2 WHERE claimant = $1",
    "UPDATE claims SET decided_by = $2 WHERE decided_by = $1",
    "UPDATE claims SET settled_by = $2 WHERE settled_by = $1",
    "UPDATE claims SET post_paid_by = $2 WHERE post_paid_by = $1",
    "UPDATE claim_messages SET author = $2 WHERE author = $1",
    "UPDATE match_answers SET user_id = $2 WHERE user_id = $1",
    "UPDATE item_changes SET changed_by = $2 WHERE changed_by = $1",
];

impl Store {
    /// Erases account `id` (any case) at `now`; the anonymous account that keeps what stays.
    pub async fn erase_account(&self, id: &str, now: i64) -> Result<AccountChange<String>, StoreError> {
        with_pool!(self, write, |pool| {
            if is_last_admin(pool, id).await? {
                return Ok(AccountChange::LastAdmin);
            }
            let Some((stored,)) = pool.rows::<(String,)>(STORED_ID, &[id.into()]).await?.pop() else {
                return Ok(AccountChange::NotFound);
            };
            let anonymous = insert_drawn(pool, "erased", ERASED_NAME, None, now).await?;
            pool.run(MARK_ERASED, &[anonymous.as_str().into(), now.into()]).await?;
            end_sessions_of(pool, &stored, now).await?;
            let (old, new) = (stored.as_str(), anonymous.as_str());
            pool.run(WITHDRAW_OPEN_CLAIMS, &[old.into(), now.into(), new.into()])
                .await?;
            pool.run(CANCEL_PICKUPS, &[old.into(), now.into(), new.into(), CANCELLED.into()])
                .await?;
            pool.run(MOVE_MESSAGES, &[old.into(), new.into(), ERASED_NAME.into()])
                .await?;
            let (version,): (i64,) = pool.row(NEXT_VERSION, &[]).await?;
            pool.run(MOVE_REPORTS, &[old.into(), new.into(), version.into()])
                .await?;
            pool.run(CLOSE_LOST_REPORTS, &[new.into(), now.into()]).await?;
            for statement in MOVES {
                pool.run(statement, &[old.into(), new.into()]).await?;
            }
            pool.run("DELETE FROM users WHERE id = $1", &[old.into()]).await?;
            pool.run(RETIRE_ID, &[stored.as_str().into(), now.into()]).await?;
            Ok(AccountChange::Done(anonymous))
        })
    }
}
