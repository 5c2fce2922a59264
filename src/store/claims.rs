//! Claims on found items, and the handover that accepting one records.

use super::{
    Store, StoreError,
    items::{NEXT_VERSION, open_item, record_change},
    notifications::{NotificationRow, committed},
    statement::Tx,
    with_pool,
};
use crate::domain::{Claim, ClaimId, ClaimRefusal, ClaimStatus, Committed, ItemChange, ItemId, Notice};

macro_rules! claim_columns {
    () => {
        "id, item_id, claimant, message, status, created_at, decided_at, decided_by"
    };
}
/// The item's reporter, title and whether it can be claimed (an approved found item still in
/// custody), read with its row locked (an update that changes nothing): on PostgreSQL a
/// handover under way finishes first, and one that starts later sees this claim and rejects
/// it with the others.
const CLAIMABLE: &str = concat!(
    "UPDATE items SET status = status WHERE id = $1 \
     RETURNING created_by, title, kind = 'found' AND status = 'approved' AND ",
    open_item!()
);
/// Locks the item of claim `$1` first, as every change of an item does (then the list
/// version): a disposal or a closing at the same time waits instead of deadlocking.
const LOCK_CLAIMED_ITEM: &str =
    "UPDATE items SET status = status WHERE id = (SELECT item_id FROM claims WHERE id = $1)";
const TITLE_AND_PLACE: &str = "SELECT title, storage_place FROM items WHERE id = $1";
const HAS_OPEN: &str = "SELECT COUNT(*) FROM claims WHERE item_id = $1 AND claimant = $2 AND status = 'open'";
const INSERT_CLAIM: &str = concat!(
    "INSERT INTO claims (item_id, claimant, message, status, created_at) \
     VALUES ($1, $2, $3, 'open', $4) RETURNING ",
    claim_columns!()
);
const DECIDE: &str = concat!(
    "UPDATE claims SET status = $2, decided_at = $3, decided_by = $4 \
     WHERE id = $1 AND status = 'open' RETURNING ",
    claim_columns!()
);
const WITHDRAW: &str = concat!(
    "UPDATE claims SET status = 'withdrawn', decided_at = $2, decided_by = $3 \
     WHERE id = $1 AND claimant = $3 AND status = 'open' RETURNING ",
    claim_columns!()
);
/// Each condition holds, or is switched off by its NULL parameter.
const LIST_CLAIMS: &str = concat!(
    "SELECT ",
    claim_columns!(),
    " FROM claims WHERE ($1 IS NULL OR item_id = $1) AND ($2 IS NULL OR claimant = $2) \
     AND ($3 IS NULL OR status = $3) \
     AND ($5 IS NULL OR item_id IN (SELECT id FROM items WHERE site_id = $5)) ORDER BY id DESC LIMIT $4"
);
/// Rejects the open claims on item `$1` but claim `$2` (0: all of them).
const REJECT_OTHERS: &str = "UPDATE claims SET status = 'rejected', decided_at = $3, decided_by = $4 \
     WHERE item_id = $1 AND id <> $2 AND status = 'open' RETURNING claimant";
const CLAIMANT: &str = "SELECT claimant FROM claims WHERE id = $1";
const CLAIMED_ITEM: &str = "SELECT item_id FROM claims WHERE id = $1";
/// Returns the item of open claim `$1`, unless it left custody already; its id.
const HAND_OVER: &str = concat!(
    "UPDATE items SET returned_at = $2, version = $3 \
     WHERE id = (SELECT item_id FROM claims WHERE id = $1 AND status = 'open') AND ",
    open_item!(),
    " RETURNING id"
);

#[derive(sqlx::FromRow)]
struct ClaimRow {
    #[sqlx(try_from = "i64")]
    id: ClaimId,
    #[sqlx(try_from = "i64")]
    item_id: ItemId,
    claimant: String,
    message: String,
    #[sqlx(try_from = "String")]
    status: ClaimStatus,
    created_at: i64,
    decided_at: Option<i64>,
    decided_by: Option<String>,
}

impl From<ClaimRow> for Claim {
    fn from(row: ClaimRow) -> Self {
        Claim {
            id: row.id,
            item_id: row.item_id,
            claimant: row.claimant,
            message: row.message,
            status: row.status,
            created_at: row.created_at,
            decided_at: row.decided_at,
            decided_by: row.decided_by,
        }
    }
}

/// Which claims a listing asks for: every condition given must hold.
#[derive(Debug, Clone, Default)]
pub struct ClaimFilter<'a> {
    pub item: Option<ItemId>,
    pub claimant: Option<&'a str>,
    pub status: Option<ClaimStatus>,
    /// Only claims on the items one site holds.
    pub site: Option<i64>,
}

impl Store {
    /// Opens a claim on a found, approved item still in custody, unless the claimant reported
    /// it or has an open claim on it already.
    pub async fn open_claim(
        &self,
        item: ItemId,
        claimant: &str,
        message: &str,
        now: i64,
    ) -> Result<Committed<Result<Claim, ClaimRefusal>>, StoreError> {
        let outcome = with_pool!(self, write, |pool| {
            let found: Option<(String, String, bool)> = sqlx::query_as(CLAIMABLE)
                .bind(item.get())
                .fetch_optional(&mut *pool)
                .await?;
            let open: i64 = sqlx::query_scalar(HAS_OPEN)
                .bind(item.get())
                .bind(claimant)
                .fetch_one(&mut *pool)
                .await?;
            match found {
                None => Ok(Err(ClaimRefusal::NoItem)),
                Some((reporter, _, _)) if reporter == claimant => Ok(Err(ClaimRefusal::OwnItem)),
                Some((_, _, false)) => Ok(Err(ClaimRefusal::NotClaimable)),
                Some(_) if open > 0 => Ok(Err(ClaimRefusal::AlreadyOpen)),
                Some((_, title, _)) => {
                    let claim: ClaimRow = sqlx::query_as(INSERT_CLAIM)
                        .bind(item.get())
                        .bind(claimant)
                        .bind(message)
                        .bind(now)
                        .fetch_one(&mut *pool)
                        .await?;
                    let notified = self
                        .notify_site_staff(pool, &Notice::claim_received(item, &title), now)
                        .await?;
                    Ok(Ok((claim, notified)))
                }
            }
        });
        match outcome {
            Ok(Ok((claim, notified))) => Ok(committed(Ok(claim.into()), notified)),
            Ok(Err(refusal)) => Ok(Committed::quiet(Err(refusal))),
            // Two claims at once on PostgreSQL: the index of open claims refuses the second.
            Err(StoreError::Conflict(_)) => Ok(Committed::quiet(Err(ClaimRefusal::AlreadyOpen))),
            Err(err) => Err(err),
        }
    }

    /// The item claim `id` is on, if both exist.
    pub async fn claimed_item(&self, id: ClaimId) -> Result<Option<crate::domain::Item>, StoreError> {
        let row: Option<(i64,)> = self.read_row(CLAIMED_ITEM, &[id.get().into()]).await?;
        match row.and_then(|(item,)| ItemId::new(item)) {
            Some(item) => self.item(item).await,
            None => Ok(None),
        }
    }

    /// The claims `filter` selects, newest first, at most `limit`.
    pub async fn claims(&self, filter: &ClaimFilter<'_>, limit: u32) -> Result<Vec<Claim>, StoreError> {
        let rows: Vec<ClaimRow> = with_pool!(self, read, |pool| {
            sqlx::query_as(LIST_CLAIMS)
                .bind(filter.item.map(ItemId::get))
                .bind(filter.claimant)
                .bind(filter.status.map(ClaimStatus::as_str))
                .bind(i64::from(limit))
                .bind(filter.site)
                .fetch_all(pool)
                .await
        })?;
        Ok(rows.into_iter().map(Claim::from).collect())
    }

    /// Accepts or rejects an open claim. Accepting hands the item over: it is returned now,
    /// the other open claims on it are rejected, and its change log records who handed it
    /// to whom. An accepted claim's notice says where to collect it (`office`).
    pub async fn decide_claim(
        &self,
        id: ClaimId,
        accept: bool,
        actor: &str,
        office: Option<&str>,
        now: i64,
    ) -> Result<Committed<Result<Claim, ClaimRefusal>>, StoreError> {
        let status = if accept {
            ClaimStatus::Accepted
        } else {
            ClaimStatus::Rejected
        };
        let outcome: Result<(ClaimRow, Vec<NotificationRow>), ClaimRefusal> = with_pool!(self, write, |pool| {
            // Accepting returns the item first, only if it is not returned yet: on PostgreSQL
            // that locks the item, so of two claims accepted at once only one gets it.
            let handed_over = if accept {
                sqlx::query(LOCK_CLAIMED_ITEM)
                    .bind(id.get())
                    .execute(&mut *pool)
                    .await?;
                let version: i64 = sqlx::query_scalar(NEXT_VERSION).fetch_one(&mut *pool).await?;
                let item: Option<i64> = sqlx::query_scalar(HAND_OVER)
                    .bind(id.get())
                    .bind(now)
                    .bind(version)
                    .fetch_optional(&mut *pool)
                    .await?;
                item.is_some()
            } else {
                true
            };
            let decided: Option<ClaimRow> = if handed_over {
                sqlx::query_as(DECIDE)
                    .bind(id.get())
                    .bind(status.as_str())
                    .bind(now)
                    .bind(actor)
                    .fetch_optional(&mut *pool)
                    .await?
            } else {
                None
            };
            match decided {
                None => {
                    let owner: Option<String> = sqlx::query_scalar(CLAIMANT)
                        .bind(id.get())
                        .fetch_optional(&mut *pool)
                        .await?;
                    Ok(Err(why_untouched(owner, None)))
                }
                Some(claim) => {
                    let notified = self.follow_decision(pool, &claim, actor, office, now).await?;
                    Ok(Ok((claim, notified)))
                }
            }
        })?;
        Ok(match outcome {
            Ok((claim, notified)) => committed(Ok(claim.into()), notified),
            Err(refusal) => Committed::quiet(Err(refusal)),
        })
    }

    /// The claimant withdraws an open claim of theirs.
    pub async fn withdraw_claim(
        &self,
        id: ClaimId,
        claimant: &str,
        now: i64,
    ) -> Result<Result<Claim, ClaimRefusal>, StoreError> {
        let outcome: Result<ClaimRow, ClaimRefusal> = with_pool!(self, write, |pool| {
            let withdrawn: Option<ClaimRow> = sqlx::query_as(WITHDRAW)
                .bind(id.get())
                .bind(now)
                .bind(claimant)
                .fetch_optional(&mut *pool)
                .await?;
            match withdrawn {
                Some(claim) => Ok(Ok(claim)),
                None => {
                    let owner: Option<String> = sqlx::query_scalar(CLAIMANT)
                        .bind(id.get())
                        .fetch_optional(&mut *pool)
                        .await?;
                    Ok(Err(why_untouched(owner, Some(claimant))))
                }
            }
        })?;
        Ok(outcome.map(Claim::from))
    }
}

impl Store {
    /// What follows a decision on `tx`: the claimant is told, and an accepted claim's
    /// handover rejects the item's other open claims (their claimants told too) and is
    /// recorded in the item's change log.
    async fn follow_decision(
        &self,
        tx: &mut impl Tx,
        claim: &ClaimRow,
        actor: &str,
        office: Option<&str>,
        now: i64,
    ) -> sqlx::Result<Vec<NotificationRow>> {
        let (item, accepted) = (claim.item_id, claim.status == ClaimStatus::Accepted);
        let (title, place): (String, Option<String>) = tx.row(TITLE_AND_PLACE, &[item.get().into()]).await?;
        let decided = if accepted {
            Notice::claim_accepted(item, &title, place.as_deref(), office)
        } else {
            Notice::claim_refused(item, &title)
        };
        let mut notified: Vec<NotificationRow> = self
            .notify_user(tx, &claim.claimant, &decided, now)
            .await?
            .into_iter()
            .collect();
        if accepted {
            let refused = self
                .reject_open_claims(tx, item, &title, Some(claim.id), actor, now)
                .await?;
            notified.extend(refused);
            let change = ItemChange::HandedOver {
                claim: claim.id,
                to: &claim.claimant,
            };
            record_change(tx, item, actor, now, &change).await?;
        }
        Ok(notified)
    }
}

impl Store {
    /// Rejects the open claims on an item that leaves custody (but `except`), on `tx`, and
    /// tells their claimants.
    pub(super) async fn reject_open_claims(
        &self,
        tx: &mut impl Tx,
        item: ItemId,
        title: &str,
        except: Option<ClaimId>,
        actor: &str,
        now: i64,
    ) -> sqlx::Result<Vec<NotificationRow>> {
        let except = except.map_or(0, ClaimId::get);
        let args = [item.get().into(), except.into(), now.into(), actor.into()];
        let rejected: Vec<(String,)> = tx.rows(REJECT_OTHERS, &args).await?;
        let refused = Notice::claim_refused(item, title);
        let mut notified = Vec::with_capacity(rejected.len());
        for (claimant,) in &rejected {
            notified.extend(self.notify_user(tx, claimant, &refused, now).await?);
        }
        Ok(notified)
    }
}

/// Why an update of an open claim touched nothing, from the claim's owner (`None`: no such
/// claim): someone else's, when only `claimant` may change it; otherwise not open any more.
fn why_untouched(owner: Option<String>, claimant: Option<&str>) -> ClaimRefusal {
    match owner {
        None => ClaimRefusal::NoClaim,
        Some(owner) if claimant.is_some_and(|claimant| claimant != owner) => ClaimRefusal::NotClaimant,
        Some(_) => ClaimRefusal::NotOpen,
    }
}
