//! Transfers between sites: an item sent is in transit (`transit_to`) and stays its sender's
//! until the site it was sent to receives it; each hand is in its change log. Both steps are
//! one statement on the item's row, so it is never at two sites or none.

use super::{
    Store, StoreError,
    claims::awaiting_pickup,
    derived::place_words,
    items::{ItemRow, NEXT_VERSION, item_columns, open_item, record_change},
    statement::{Arg, Tx},
    with_pool,
};
use crate::domain::{Bin, Item, ItemChange, ItemId};

/// Why a transfer or its receipt did not happen.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TransferRefusal {
    NoItem,
    /// Only an approved found item the office holds, open, travels.
    NotHeld,
    /// It is on its way somewhere already.
    InTransit,
    /// It is at the site it would be sent to.
    SameSite,
    /// It is not (or no longer) on its way to the site receiving it.
    NotInTransitHere,
    /// The claimant of an accepted claim is to collect it where it is.
    AwaitingPickup,
}

/// The item's site, whether it travels, is at `$2` and may travel (an approved found item,
/// open), read with its row locked: of two sends at once, the second sees the first's.
const SEND_STATE: &str = concat!(
    "UPDATE items SET status = status WHERE id = $1 RETURNING site_id, transit_to IS NOT NULL, \
     COALESCE(site_id = $2, FALSE), kind = 'found' AND status = 'approved' AND ",
    open_item!()
);
/// Sends the item to `$3`: its bin and storage place stay behind.
const SEND: &str = concat!(
    "UPDATE items SET transit_to = $3, bin_id = NULL, storage_place = NULL, place_words = NULL, version = $2 \
     WHERE id = $1 RETURNING ",
    item_columns!()
);
/// The site that sent the item on its way to `$2`, read with its row locked.
const SENDER: &str = "UPDATE items SET status = status WHERE id = $1 AND transit_to = $2 RETURNING site_id";
/// Receives the item at the site it travels to, into bin `$3` (named `$4`) or none.
const RECEIVE: &str = concat!(
    "UPDATE items SET site_id = transit_to, transit_to = NULL, bin_id = $3, storage_place = $4, place_words = $5, \
     version = $2 WHERE id = $1 RETURNING ",
    item_columns!()
);
const INCOMING: &str = concat!(
    "SELECT ",
    item_columns!(),
    " FROM items WHERE transit_to = $1 ORDER BY id"
);
const OUTGOING: &str = concat!(
    "SELECT ",
    item_columns!(),
    " FROM items WHERE site_id = $1 AND transit_to IS NOT NULL ORDER BY id"
);

impl Store {
    /// Sends item `id` to site `to` (which exists: the caller found it), with a note.
    pub async fn send_item(
        &self,
        id: ItemId,
        to: i64,
        note: Option<&str>,
        actor: &str,
        now: i64,
    ) -> Result<Result<Item, TransferRefusal>, StoreError> {
        let sent = with_pool!(self, write, |pool| {
            let state: Option<(Option<i64>, bool, bool, bool)> =
                pool.rows(SEND_STATE, &[id.get().into(), to.into()]).await?.pop();
            let Some((from, travels, here, held)) = state else {
                return Ok(Err(TransferRefusal::NoItem));
            };
            let refusal = if travels {
                Some(TransferRefusal::InTransit)
            } else if here {
                Some(TransferRefusal::SameSite)
            } else if !held {
                Some(TransferRefusal::NotHeld)
            } else if awaiting_pickup(pool, id).await? {
                Some(TransferRefusal::AwaitingPickup)
            } else {
                None
            };
            if let Some(refusal) = refusal {
                return Ok(Err(refusal));
            }
            let (version,): (i64,) = pool.row(NEXT_VERSION, &[]).await?;
            let args: [Arg; 3] = [id.get().into(), version.into(), to.into()];
            let row: ItemRow = pool.row(SEND, &args).await?;
            let from = from.unwrap_or_default();
            record_change(pool, id, actor, now, &ItemChange::Sent { from, to, note }).await?;
            Ok(Ok(row))
        })?;
        Ok(sent.map(|row| row.into_item()))
    }

    /// Receives item `id` at site `at`, where it was sent, into `bin` (of that site: the
    /// caller checked) or none.
    pub async fn receive_item(
        &self,
        id: ItemId,
        at: i64,
        bin: Option<&Bin>,
        actor: &str,
        now: i64,
    ) -> Result<Result<Item, TransferRefusal>, StoreError> {
        let place = bin.map(|bin| bin.name.as_str());
        let words = place_words(place);
        let received = with_pool!(self, write, |pool| {
            let Some((from,)) = pool
                .rows::<(Option<i64>,)>(SENDER, &[id.get().into(), at.into()])
                .await?
                .pop()
            else {
                return Ok(Err(TransferRefusal::NotInTransitHere));
            };
            let (version,): (i64,) = pool.row(NEXT_VERSION, &[]).await?;
            let bin_id = bin.map(|bin| bin.id);
            let args: [Arg; 5] = [
                id.get().into(),
                version.into(),
                bin_id.into(),
                place.into(),
                words.as_deref().into(),
            ];
            let row: ItemRow = pool.row(RECEIVE, &args).await?;
            let from = from.unwrap_or_default();
            record_change(pool, id, actor, now, &ItemChange::Received { from, at, bin: bin_id }).await?;
            Ok(Ok(row))
        })?;
        Ok(received.map(|row| row.into_item()))
    }

    /// What is on its way to site `site`, and what it has sent that is not received yet.
    pub async fn transfers(&self, site: i64) -> Result<(Vec<Item>, Vec<Item>), StoreError> {
        let incoming: Vec<ItemRow> = self.read_rows(INCOMING, &[site.into()]).await?;
        let outgoing: Vec<ItemRow> = self.read_rows(OUTGOING, &[site.into()]).await?;
        let items = |rows: Vec<ItemRow>| rows.into_iter().map(|row| row.into_item()).collect();
        Ok((items(incoming), items(outgoing)))
    }
}
