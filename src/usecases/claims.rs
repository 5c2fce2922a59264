//! Claims, decided by the staff of the claimed item's site.

use super::{IN_TRANSIT, check_at};
use crate::{
    domain::{Claim, ClaimId, ClaimRefusal, User, access::Action},
    error::{AppError, Result},
    state::AppState,
    time::now_ms,
};

/// Accepts (hands the item over) or rejects a claim on an item of the decider's site. An item
/// on its way to another site is handed over there, once received.
pub async fn decide(state: &AppState, user: &User, id: ClaimId, accept: bool) -> Result<Claim> {
    let item = state.store.claimed_item(id).await?.ok_or(ClaimRefusal::NoClaim)?;
    check_at(user, Action::Decide, item.site_id)?;
    if accept && item.transit_to.is_some() {
        return Err(AppError::Conflict(IN_TRANSIT));
    }
    Ok(state.store.decide_claim(id, accept, &user.id, now_ms()).await??)
}
