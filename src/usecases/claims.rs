//! Claims, decided by the staff of the claimed item's site.

use super::{IN_TRANSIT, check_at};
use crate::{
    domain::{Claim, ClaimId, ClaimRefusal, ClaimStatus, ItemKind, User, access::Action, matching},
    error::{AppError, Result},
    meaning,
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
    let now = now_ms();
    let office = state.config.office.as_deref();
    let claim = state
        .events
        .publish(state.store.decide_claim(id, accept, &user.id, office, now).await?)?;
    if claim.status == ClaimStatus::Accepted
        && let Err(err) = close_settled_reports(state, &claim, &user.id, now).await
    {
        // The handover stands; only the owner's lost reports stay open.
        tracing::warn!(error = %err, claim = %claim.id.get(), "the lost reports a handover settled were not closed");
    }
    Ok(claim)
}

/// After a handover: closes the claimant's open lost reports likely the item they collected,
/// so they stop collecting matches — not their other reports: they may have lost other things
/// nearby.
async fn close_settled_reports(state: &AppState, claim: &Claim, actor: &str, now: i64) -> anyhow::Result<()> {
    let Some(item) = state.store.item(claim.item_id).await? else {
        return Ok(());
    };
    let reports = meaning::matches::reported_by(&state.store, &state.meanings, &item, &claim.claimant).await?;
    let reason = format!("Returned through claim {}", claim.id.get());
    for settled in reports.iter().filter(|m| m.score >= matching::LIKELY) {
        debug_assert_eq!(settled.item.kind, ItemKind::Lost);
        let closed = state
            .store
            .close_item(settled.item.id, Some(&reason), actor, true, now)
            .await?;
        // Closed meanwhile by its reporter: nothing left to do.
        state.events.publish(closed).ok();
    }
    Ok(())
}
