//! Claims on found items: opened, accepted (the item waits for its claimant at the desk) or
//! rejected, and an accepted one handed over, posted or called off.

use super::{
    Store, StoreError,
    items::{NEXT_VERSION, open_item, record_change},
    notifications::{NotificationRow, committed},
    statement::{Arg, Tx},
    with_pool,
};
use crate::domain::{
    Claim, ClaimId, ClaimRefusal, ClaimStatus, Committed, Contact, Fee, Handover, ItemChange, ItemId, Notice, Payment,
    PostRequest, Settled, Settlement, Site,
};

macro_rules! claim_columns {
    () => {
        "id, item_id, claimant, message, status, created_at, decided_at, decided_by, \
         settled_at, settled_by, collected_by, id_checked, cancel_reason, post_address, post_requested_at, \
         post_fee, post_fee_at, post_paid, post_paid_at, post_paid_by, post_carrier, post_tracking, \
         (SELECT name FROM users WHERE users.id = claims.claimant) AS claimant_name, \
         (SELECT email FROM users WHERE users.id = claims.claimant) AS claimant_email"
    };
}
/// Whether item `$1` waits for the claimant of an accepted claim: until the handover or its
/// cancellation, it stays where it is. Read in a statement of its own after the item's row is
/// locked: on PostgreSQL, a statement that waited for the lock reads other tables as they
/// were when it began, and would miss an acceptance committed meanwhile.
const AWAITING_PICKUP: &str = "SELECT EXISTS (SELECT 1 FROM claims WHERE item_id = $1 AND status = 'accepted')";

/// Whether `item` waits for its claimant (see [`AWAITING_PICKUP`]); its row locked first.
pub(super) async fn awaiting_pickup(tx: &mut impl Tx, item: ItemId) -> sqlx::Result<bool> {
    let (awaited,): (bool,) = tx.row(AWAITING_PICKUP, &[item.get().into()]).await?;
    Ok(awaited)
}
/// The item's reporter, title and whether it can be claimed (an approved found item still in
/// custody, not promised to another claimant), read with its row locked (an update that changes nothing): on PostgreSQL a
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
pub(super) const TITLE: &str = "SELECT title FROM items WHERE id = $1";
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
const CLAIM: &str = concat!("SELECT ", claim_columns!(), " FROM claims WHERE id = $1");
const CLAIMANT: &str = "SELECT claimant FROM claims WHERE id = $1";
const CLAIMED_ITEM: &str = "SELECT item_id FROM claims WHERE id = $1";
/// The item of open claim `$1`, unless it left custody already: its id.
const RESERVE: &str = concat!(
    "SELECT id FROM items WHERE id = (SELECT item_id FROM claims WHERE id = $1 AND status = 'open') AND ",
    open_item!()
);
/// Returns the item of accepted claim `$1` (at `$2`, list version `$3`): its reporter, title,
/// and whether that reporter is neither an administrator nor staff of its site (someone to
/// thank).
const RETURN_ITEM: &str = concat!(
    "UPDATE items SET returned_at = $2, version = $3 \
     WHERE id = (SELECT item_id FROM claims WHERE id = $1 AND status = 'accepted') AND ",
    open_item!(),
    " RETURNING created_by, title, NOT EXISTS (SELECT 1 FROM users u WHERE u.id = items.created_by AND (u.is_admin \
       OR EXISTS (SELECT 1 FROM site_staff s WHERE s.user_id = u.id AND s.site_id = items.site_id)))"
);
const COLLECTED: &str = concat!(
    "UPDATE claims SET status = 'collected', settled_at = $2, settled_by = $3, collected_by = $4, id_checked = $5 \
     WHERE id = $1 AND status = 'accepted' RETURNING ",
    claim_columns!()
);
const REQUEST_POST: &str = concat!(
    "UPDATE claims SET post_address = $2, post_requested_at = $3 WHERE id = $1 RETURNING ",
    claim_columns!()
);
const SET_FEE: &str = concat!(
    "UPDATE claims SET post_fee = $2, post_fee_at = $3 WHERE id = $1 RETURNING ",
    claim_columns!()
);
const RECORD_PAYMENT: &str = concat!(
    "UPDATE claims SET post_paid = $2, post_paid_at = $3, post_paid_by = $4 WHERE id = $1 RETURNING ",
    claim_columns!()
);
const SENT: &str = concat!(
    "UPDATE claims SET status = 'posted', settled_at = $2, settled_by = $3, post_carrier = $4, post_tracking = $5 \
     WHERE id = $1 AND status = 'accepted' RETURNING ",
    claim_columns!()
);
const CANCEL: &str = concat!(
    "UPDATE claims SET status = 'cancelled', settled_at = $2, settled_by = $3, cancel_reason = $4 \
     WHERE id = $1 AND status = 'accepted' RETURNING ",
    claim_columns!()
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
    settled_at: Option<i64>,
    settled_by: Option<String>,
    collected_by: Option<String>,
    id_checked: Option<String>,
    cancel_reason: Option<String>,
    post_address: Option<String>,
    post_requested_at: Option<i64>,
    post_fee: Option<String>,
    post_fee_at: Option<i64>,
    post_paid: Option<String>,
    post_paid_at: Option<i64>,
    post_paid_by: Option<String>,
    post_carrier: Option<String>,
    post_tracking: Option<String>,
    claimant_name: Option<String>,
    claimant_email: Option<String>,
}

impl From<ClaimRow> for Claim {
    fn from(row: ClaimRow) -> Self {
        let how = match row.status {
            ClaimStatus::Collected => Some(Settlement::HandedOver(Handover {
                proxy: row.collected_by,
                id_checked: row.id_checked,
            })),
            ClaimStatus::Posted => Some(Settlement::Posted {
                carrier: row.post_carrier.unwrap_or_default(),
                tracking: row.post_tracking.unwrap_or_default(),
            }),
            ClaimStatus::Cancelled => Some(Settlement::Cancelled {
                reason: row.cancel_reason.unwrap_or_default(),
            }),
            _ => None,
        };
        let post = row
            .post_address
            .zip(row.post_requested_at)
            .map(|(address, requested_at)| PostRequest {
                address,
                requested_at,
                fee: row.post_fee_at.map(|at| Fee {
                    amount: row.post_fee,
                    at,
                }),
                payment: row.post_paid.zip(row.post_paid_at).map(|(note, at)| Payment {
                    note,
                    at,
                    by: row.post_paid_by.unwrap_or_default(),
                }),
            });
        let settled = how.zip(row.settled_at).map(|(how, at)| Settled {
            at,
            by: row.settled_by.unwrap_or_default(),
            how,
        });
        Claim {
            id: row.id,
            item_id: row.item_id,
            claimant: row.claimant,
            message: row.message,
            status: row.status,
            created_at: row.created_at,
            decided_at: row.decided_at,
            decided_by: row.decided_by,
            settled,
            post,
            contact: Contact {
                name: row.claimant_name.unwrap_or_default(),
                email: row.claimant_email,
            },
        }
    }
}

/// An item just returned to the claimant of an accepted claim.
struct Returned {
    /// Who reported it found.
    finder: String,
    title: String,
    /// Whether the finder is neither an administrator nor staff of its desk: someone to thank.
    thank: bool,
}

/// Returns the item of accepted claim `id` (its row locked): `None` when the claim is not
/// accepted or the item left custody.
async fn return_item(tx: &mut impl Tx, id: ClaimId, now: i64) -> sqlx::Result<Option<Returned>> {
    let (version,): (i64,) = tx.row(NEXT_VERSION, &[]).await?;
    let returned: Vec<(String, String, bool)> = tx
        .rows(RETURN_ITEM, &[id.get().into(), now.into(), version.into()])
        .await?;
    Ok(returned
        .into_iter()
        .next()
        .map(|(finder, title, thank)| Returned { finder, title, thank }))
}

/// Claim `id` as it stands, its item's row locked first, when `may` allows the change.
pub(super) async fn claim_to_change(
    tx: &mut impl Tx,
    id: ClaimId,
    may: impl FnOnce(&Claim) -> Result<(), ClaimRefusal>,
) -> sqlx::Result<Result<Claim, ClaimRefusal>> {
    tx.run(LOCK_CLAIMED_ITEM, &[id.get().into()]).await?;
    let rows: Vec<ClaimRow> = tx.rows(CLAIM, &[id.get().into()]).await?;
    Ok(match rows.into_iter().next() {
        None => Err(ClaimRefusal::NoClaim),
        Some(row) => {
            let claim = Claim::from(row);
            may(&claim).map(|()| claim)
        }
    })
}

/// A change of a claim as committed: the claim with the notifications it wrote, or a refusal
/// that wrote nothing.
fn settled(outcome: Result<(ClaimRow, Vec<NotificationRow>), ClaimRefusal>) -> Committed<Result<Claim, ClaimRefusal>> {
    match outcome {
        Ok((claim, notified)) => committed(Ok(claim.into()), notified),
        Err(refusal) => Committed::quiet(Err(refusal)),
    }
}

/// Where the claimant of an accepted claim collects the item: its site, or the office
/// (`LOSTFOUND_OFFICE`) when the site says nothing of where, when or what to bring.
#[derive(Debug, Clone, Copy, Default)]
pub struct Pickup<'a> {
    pub site: Option<&'a Site>,
    pub office: Option<&'a str>,
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
            let promised = awaiting_pickup(pool, item).await?;
            let open: i64 = sqlx::query_scalar(HAS_OPEN)
                .bind(item.get())
                .bind(claimant)
                .fetch_one(&mut *pool)
                .await?;
            match found {
                None => Ok(Err(ClaimRefusal::NoItem)),
                Some((reporter, _, _)) if reporter == claimant => Ok(Err(ClaimRefusal::OwnItem)),
                Some((_, _, false)) => Ok(Err(ClaimRefusal::NotClaimable)),
                Some(_) if promised => Ok(Err(ClaimRefusal::NotClaimable)),
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

    /// Claim `id`, if there is one.
    pub async fn claim(&self, id: ClaimId) -> Result<Option<Claim>, StoreError> {
        let row: Option<ClaimRow> = self.read_row(CLAIM, &[id.get().into()]).await?;
        Ok(row.map(Claim::from))
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

    /// Accepts or rejects an open claim. Accepting promises the item to its claimant: the
    /// other open claims on it are rejected, nobody else may claim it, and the claimant is
    /// told to collect it at `site` (or at the `office`). The item stays in custody until
    /// the handover.
    pub async fn decide_claim(
        &self,
        id: ClaimId,
        accept: bool,
        actor: &str,
        pickup: Pickup<'_>,
        now: i64,
    ) -> Result<Committed<Result<Claim, ClaimRefusal>>, StoreError> {
        let status = if accept {
            ClaimStatus::Accepted
        } else {
            ClaimStatus::Rejected
        };
        let outcome: Result<(ClaimRow, Vec<NotificationRow>), ClaimRefusal> = with_pool!(self, write, |pool| {
            // Accepting locks the item first and finds it still in custody: on PostgreSQL, of
            // two claims accepted at once, the second sees itself rejected by the first.
            let in_custody = if accept {
                sqlx::query(LOCK_CLAIMED_ITEM)
                    .bind(id.get())
                    .execute(&mut *pool)
                    .await?;
                let item: Option<i64> = sqlx::query_scalar(RESERVE)
                    .bind(id.get())
                    .fetch_optional(&mut *pool)
                    .await?;
                item.is_some()
            } else {
                true
            };
            let decided: Option<ClaimRow> = if in_custody {
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
                None => Ok(Err(self.why_untouched(pool, id, None).await?)),
                Some(claim) => {
                    let notified = self.follow_decision(pool, &claim, actor, pickup, now).await?;
                    Ok(Ok((claim, notified)))
                }
            }
        })?;
        Ok(settled(outcome))
    }

    /// Hands the item of an accepted claim over at the desk: it is returned now, its change
    /// log records who collected it, the ID checked and who handed it over, the claimant is
    /// told, and so is whoever reported it found, unless they work at its desk.
    pub async fn hand_over(
        &self,
        id: ClaimId,
        handover: &Handover,
        actor: &str,
        now: i64,
    ) -> Result<Committed<Result<Claim, ClaimRefusal>>, StoreError> {
        let outcome: Result<(ClaimRow, Vec<NotificationRow>), ClaimRefusal> = with_pool!(self, write, |pool| {
            if let Err(refusal) = claim_to_change(pool, id, Claim::may_settle).await? {
                return Ok(Err(refusal));
            }
            let Some(returned) = return_item(pool, id, now).await? else {
                return Ok(Err(ClaimRefusal::NotAccepted));
            };
            let args = [
                id.get().into(),
                now.into(),
                actor.into(),
                handover.proxy.as_deref().into(),
                handover.id_checked.as_deref().into(),
            ];
            let claim: ClaimRow = pool.row(COLLECTED, &args).await?;
            let change = ItemChange::HandedOver {
                claim: claim.id,
                to: &claim.claimant,
                proxy: handover.proxy.as_deref(),
            };
            record_change(pool, claim.item_id, actor, now, &change).await?;
            let told = Notice::claim_collected(claim.item_id, &returned.title);
            let notified = self.tell_returned(pool, &claim, &returned, &told, now).await?;
            Ok(Ok((claim, notified)))
        })?;
        Ok(settled(outcome))
    }

    /// The claimant of accepted claim `id` asks for its item to be posted to `address`; the
    /// item's staff are told.
    pub async fn request_post(
        &self,
        id: ClaimId,
        claimant: &str,
        address: &str,
        now: i64,
    ) -> Result<Committed<Result<Claim, ClaimRefusal>>, StoreError> {
        let outcome: Result<(ClaimRow, Vec<NotificationRow>), ClaimRefusal> = with_pool!(self, write, |pool| {
            let may = |claim: &Claim| {
                if claim.claimant != claimant {
                    return Err(ClaimRefusal::NotClaimant);
                }
                claim.may_request_post()
            };
            if let Err(refusal) = claim_to_change(pool, id, may).await? {
                return Ok(Err(refusal));
            }
            let claim: ClaimRow = pool
                .row(REQUEST_POST, &[id.get().into(), address.into(), now.into()])
                .await?;
            let (title,): (String,) = pool.row(TITLE, &[claim.item_id.get().into()]).await?;
            let notice = Notice::post_requested(claim.item_id, &title);
            let notified = self.notify_site_staff(pool, &notice, now).await?;
            Ok(Ok((claim, notified)))
        })?;
        Ok(settled(outcome))
    }

    /// Staff set what posting the item costs (`None`: nothing); the claimant is told.
    pub async fn set_post_fee(
        &self,
        id: ClaimId,
        fee: Option<&str>,
        now: i64,
    ) -> Result<Committed<Result<Claim, ClaimRefusal>>, StoreError> {
        let args = [id.get().into(), fee.into(), now.into()];
        let told = |item, title: &str| Notice::post_priced(item, title, fee);
        self.change_post(id, Claim::may_set_fee, SET_FEE, &args, told, now)
            .await
    }

    /// Staff record how the postage was paid; the claimant is told.
    pub async fn record_post_payment(
        &self,
        id: ClaimId,
        note: &str,
        actor: &str,
        now: i64,
    ) -> Result<Committed<Result<Claim, ClaimRefusal>>, StoreError> {
        let args = [id.get().into(), note.into(), now.into(), actor.into()];
        let told = |item, title: &str| Notice::post_paid(item, title);
        self.change_post(id, Claim::may_record_payment, RECORD_PAYMENT, &args, told, now)
            .await
    }

    /// A step of a posting: when `may` allows it, `sql` (claim `id` first in `args`) changes
    /// the claim and its claimant is told `told(item, title)`.
    async fn change_post(
        &self,
        id: ClaimId,
        may: fn(&Claim) -> Result<(), ClaimRefusal>,
        sql: &'static str,
        args: &[Arg<'_>],
        told: impl FnOnce(ItemId, &str) -> Notice + Send,
        now: i64,
    ) -> Result<Committed<Result<Claim, ClaimRefusal>>, StoreError> {
        let outcome: Result<(ClaimRow, Vec<NotificationRow>), ClaimRefusal> = with_pool!(self, write, |pool| {
            if let Err(refusal) = claim_to_change(pool, id, may).await? {
                return Ok(Err(refusal));
            }
            let claim: ClaimRow = pool.row(sql, args).await?;
            let (title,): (String,) = pool.row(TITLE, &[claim.item_id.get().into()]).await?;
            let notice = told(claim.item_id, &title);
            let notified = self.notify_user(pool, &claim.claimant, &notice, now).await?;
            Ok(Ok((claim, notified.into_iter().collect())))
        })?;
        Ok(settled(outcome))
    }

    /// Staff send the item by post with `carrier` and `tracking`: it is returned now, its
    /// change log records it, the claimant is told the tracking, and whoever reported it
    /// found is thanked unless they work at its desk.
    pub async fn send_by_post(
        &self,
        id: ClaimId,
        carrier: &str,
        tracking: &str,
        actor: &str,
        now: i64,
    ) -> Result<Committed<Result<Claim, ClaimRefusal>>, StoreError> {
        let outcome: Result<(ClaimRow, Vec<NotificationRow>), ClaimRefusal> = with_pool!(self, write, |pool| {
            if let Err(refusal) = claim_to_change(pool, id, Claim::may_send).await? {
                return Ok(Err(refusal));
            }
            let Some(returned) = return_item(pool, id, now).await? else {
                return Ok(Err(ClaimRefusal::NotAccepted));
            };
            let args = [
                id.get().into(),
                now.into(),
                actor.into(),
                carrier.into(),
                tracking.into(),
            ];
            let claim: ClaimRow = pool.row(SENT, &args).await?;
            let change = ItemChange::Posted {
                claim: claim.id,
                to: &claim.claimant,
                carrier,
                tracking,
            };
            record_change(pool, claim.item_id, actor, now, &change).await?;
            let told = Notice::post_sent(claim.item_id, &returned.title, carrier, tracking);
            let notified = self.tell_returned(pool, &claim, &returned, &told, now).await?;
            Ok(Ok((claim, notified)))
        })?;
        Ok(settled(outcome))
    }

    /// Calls off the pickup of an accepted claim, with the reason the claimant is told; the
    /// item may be claimed again.
    pub async fn cancel_claim(
        &self,
        id: ClaimId,
        reason: &str,
        actor: &str,
        now: i64,
    ) -> Result<Committed<Result<Claim, ClaimRefusal>>, StoreError> {
        let outcome: Result<(ClaimRow, Vec<NotificationRow>), ClaimRefusal> = with_pool!(self, write, |pool| {
            if let Err(refusal) = claim_to_change(pool, id, Claim::may_settle).await? {
                return Ok(Err(refusal));
            }
            let args = [id.get().into(), now.into(), actor.into(), reason.into()];
            let claim: ClaimRow = pool.row(CANCEL, &args).await?;
            let item = claim.item_id;
            let (title,): (String,) = pool.row(TITLE, &[item.get().into()]).await?;
            let change = ItemChange::PickupCancelled {
                claim: claim.id,
                reason,
            };
            record_change(pool, item, actor, now, &change).await?;
            let notice = Notice::claim_cancelled(item, &title, reason);
            let notified = self.notify_user(pool, &claim.claimant, &notice, now).await?;
            Ok(Ok((claim, notified.into_iter().collect())))
        })?;
        Ok(settled(outcome))
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
                None => Ok(Err(self.why_untouched(pool, id, Some(claimant)).await?)),
            }
        })?;
        Ok(outcome.map(Claim::from))
    }
}

impl Store {
    /// What follows a decision on `tx`: the claimant is told, and an accepted claim rejects
    /// the item's other open claims (their claimants told too) and is recorded in the item's
    /// change log.
    async fn follow_decision(
        &self,
        tx: &mut impl Tx,
        claim: &ClaimRow,
        actor: &str,
        pickup: Pickup<'_>,
        now: i64,
    ) -> sqlx::Result<Vec<NotificationRow>> {
        let (item, accepted) = (claim.item_id, claim.status == ClaimStatus::Accepted);
        let (title,): (String,) = tx.row(TITLE, &[item.get().into()]).await?;
        let decided = if accepted {
            Notice::claim_ready(item, &title, pickup.site, pickup.office)
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
            let change = ItemChange::Promised {
                claim: claim.id,
                to: &claim.claimant,
            };
            record_change(tx, item, actor, now, &change).await?;
        }
        Ok(notified)
    }

    /// After an item went back to its owner: the claimant is told `told`, and whoever
    /// reported it found is thanked when they are not staff of its desk.
    async fn tell_returned(
        &self,
        tx: &mut impl Tx,
        claim: &ClaimRow,
        returned: &Returned,
        told: &Notice,
        now: i64,
    ) -> sqlx::Result<Vec<NotificationRow>> {
        let mut notified: Vec<NotificationRow> = self
            .notify_user(tx, &claim.claimant, told, now)
            .await?
            .into_iter()
            .collect();
        if returned.thank && returned.finder != claim.claimant {
            let thanks = Notice::went_home(claim.item_id, &returned.title);
            notified.extend(self.notify_user(tx, &returned.finder, &thanks, now).await?);
        }
        Ok(notified)
    }

    /// Why a decision on or the withdrawal of open claim `id` touched nothing: no such claim;
    /// someone else's, when only `claimant` may change it; otherwise not open any more.
    async fn why_untouched(&self, tx: &mut impl Tx, id: ClaimId, claimant: Option<&str>) -> sqlx::Result<ClaimRefusal> {
        let owner: Vec<(String,)> = tx.rows(CLAIMANT, &[id.get().into()]).await?;
        Ok(match owner.into_iter().next() {
            None => ClaimRefusal::NoClaim,
            Some((owner,)) if claimant.is_some_and(|claimant| claimant != owner) => ClaimRefusal::NotClaimant,
            Some(_) => ClaimRefusal::NotOpen,
        })
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
