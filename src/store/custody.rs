//! Items leaving custody without a handover: a found item nobody claimed is disposed of, a
//! report is closed by its reporter or staff.

use super::{
    Store, StoreError,
    claims::awaiting_pickup,
    items::{ItemRow, NEXT_VERSION, item_columns, open_item, record_change},
    notifications::{NotificationRow, committed},
    statement::{Arg, Tx},
    with_pool,
};
use crate::domain::{Committed, CustodyRefusal, Item, ItemChange, ItemId, NewDisposal};

/// The item's reporter and title, whether it is a found item, whether it is open and whether
/// the office keeps it (an approved found item with a storage place: what staff approved and
/// shelved), read with its row locked: of two changes at once, the second sees the first's
/// outcome.
const LOCKED_STATE: &str = concat!(
    "UPDATE items SET status = status WHERE id = $1 RETURNING created_by, title, kind = 'found', ",
    open_item!(),
    ", kind = 'found' AND status = 'approved' AND storage_place IS NOT NULL"
);
const DISPOSE: &str = concat!(
    "UPDATE items SET disposed_at = $2, version = $3, disposal_method = $4, disposal_note = $5 \
     WHERE id = $1 RETURNING ",
    item_columns!()
);
const CLOSE: &str = concat!(
    "UPDATE items SET closed_at = $2, version = $3 WHERE id = $1 RETURNING ",
    item_columns!()
);

/// How an item leaves custody.
enum Leaving<'a> {
    Disposed(&'a NewDisposal),
    /// By the reporter (the actor), or by staff.
    Closed {
        reason: Option<&'a str>,
        staff: bool,
    },
}

impl Store {
    /// Records what became of a found item nobody claimed (staff only: the caller checks).
    pub async fn dispose_item(
        &self,
        id: ItemId,
        disposal: &NewDisposal,
        actor: &str,
        now: i64,
    ) -> Result<Committed<Result<Item, CustodyRefusal>>, StoreError> {
        self.leave_custody(id, Leaving::Disposed(disposal), actor, now).await
    }

    /// Closes a report ("found it myself"): its reporter, or `actor` as `staff` of its site.
    pub async fn close_item(
        &self,
        id: ItemId,
        reason: Option<&str>,
        actor: &str,
        staff: bool,
        now: i64,
    ) -> Result<Committed<Result<Item, CustodyRefusal>>, StoreError> {
        self.leave_custody(id, Leaving::Closed { reason, staff }, actor, now)
            .await
    }

    async fn leave_custody(
        &self,
        id: ItemId,
        leaving: Leaving<'_>,
        actor: &str,
        now: i64,
    ) -> Result<Committed<Result<Item, CustodyRefusal>>, StoreError> {
        let outcome: Result<(ItemRow, Vec<NotificationRow>), CustodyRefusal> = with_pool!(self, write, |pool| {
            let state: Vec<(String, String, bool, bool, bool)> = pool.rows(LOCKED_STATE, &[id.get().into()]).await?;
            let Some((reporter, title, found, open, kept)) = state.into_iter().next() else {
                return Ok(Err(CustodyRefusal::NoItem));
            };
            let awaited = awaiting_pickup(pool, id).await?;
            let refusal = match leaving {
                // Its claimant was told to come for it: the pickup is called off first.
                _ if awaited => Some(CustodyRefusal::AwaitingPickup),
                Leaving::Disposed(_) if !found || !open => Some(CustodyRefusal::CannotDispose),
                Leaving::Closed { staff, .. } if !staff && actor != reporter => Some(CustodyRefusal::NotReporter),
                // What the office keeps leaves its shelf through staff only.
                Leaving::Closed { staff, .. } if !open || (kept && !staff) => Some(CustodyRefusal::CannotClose),
                _ => None,
            };
            if let Some(refusal) = refusal {
                return Ok(Err(refusal));
            }
            let version: i64 = pool.row::<(i64,)>(NEXT_VERSION, &[]).await?.0;
            let mut args: Vec<Arg<'_>> = vec![id.get().into(), now.into(), version.into()];
            let (sql, change) = match &leaving {
                Leaving::Disposed(disposal) => {
                    args.extend([disposal.method.as_str().into(), disposal.note.as_deref().into()]);
                    (DISPOSE, ItemChange::Disposed(disposal))
                }
                Leaving::Closed { reason, .. } => (CLOSE, ItemChange::Closed { reason: *reason }),
            };
            let row: ItemRow = pool.row(sql, &args).await?;
            record_change(pool, id, actor, now, &change).await?;
            let refused = self.reject_open_claims(pool, id, &title, None, actor, now).await?;
            Ok(Ok((row, refused)))
        })?;
        Ok(match outcome {
            Ok((row, refused)) => committed(Ok(row.into_item()), refused),
            Err(refusal) => Committed::quiet(Err(refusal)),
        })
    }
}
