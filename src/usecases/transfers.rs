//! Transfers: staff send an item of their site to another; staff there receive it.

use super::{IN_TRANSIT, check_at, reports::bin_of};
use crate::{
    domain::{Item, ItemId, ItemNotFound, User, ValidationError, access, access::Action},
    error::{AWAITING_PICKUP, AppError, Result},
    state::AppState,
    store::TransferRefusal,
    time::now_ms,
};

/// What staff hear when they receive an item not on its way to their site.
pub const NOT_COMING_HERE: &str = "Item is not in transit to your site";

/// Sends item `id` of the sender's site to site `to`, with a note.
pub async fn send(state: &AppState, user: &User, id: ItemId, to: i64, note: Option<&str>) -> Result<Item> {
    let item = state.store.item(id).await?.ok_or(ItemNotFound)?;
    check_at(user, Action::Transfer, item.site_id)?;
    if state.store.site(to).await?.is_none() {
        return Err(ValidationError::new("to", "Invalid site").into());
    }
    state
        .store
        .send_item(id, to, note, &user.id, now_ms())
        .await?
        .map_err(refused)
}

/// Receives item `id`, on its way to a site of the receiver's, into bin `bin` of that site or
/// none.
pub async fn receive(state: &AppState, user: &User, id: ItemId, bin: Option<i64>) -> Result<Item> {
    let item = state.store.item(id).await?.ok_or(ItemNotFound)?;
    let Some(to) = item
        .transit_to
        .filter(|to| access::may_at(user, Action::Transfer, Some(*to)))
    else {
        return Err(AppError::Conflict(NOT_COMING_HERE));
    };
    let bin = match bin {
        Some(bin) => Some(bin_of(state, bin, Some(to)).await?),
        None => None,
    };
    state
        .store
        .receive_item(id, to, bin.as_ref(), &user.id, now_ms())
        .await?
        .map_err(refused)
}

fn refused(refusal: TransferRefusal) -> AppError {
    match refusal {
        TransferRefusal::NoItem => ItemNotFound.into(),
        TransferRefusal::NotHeld => AppError::invalid("Only an approved found item still held can be sent"),
        TransferRefusal::InTransit => AppError::Conflict(IN_TRANSIT),
        TransferRefusal::SameSite => ValidationError::new("to", "The item is at that site already").into(),
        TransferRefusal::NotInTransitHere => AppError::Conflict(NOT_COMING_HERE),
        TransferRefusal::AwaitingPickup => AppError::Conflict(AWAITING_PICKUP),
    }
}
