//! Claims, decided by the staff of the claimed item's site, and the pickup that follows an
//! accepted one: the handover at the desk, or its cancellation.

use super::{IN_TRANSIT, check_at};
use crate::{
    domain::{
        Claim, ClaimId, ClaimMessage, ClaimRefusal, Committed, Handover, Item, ItemKind, Lang, Settled, Settlement,
        User, access::Action, matching, receipt::Receipt,
    },
    error::{AppError, Result},
    meaning,
    state::AppState,
    store::Pickup,
    time::{format_minute, now_ms},
};

/// Accepts (the item waits at its site for the claimant, who is told where, when and what
/// to bring) or rejects a claim on an item of the decider's site. An item on its way to
/// another site is promised there, once received.
pub async fn decide(state: &AppState, user: &User, id: ClaimId, accept: bool) -> Result<Claim> {
    let item = staffs_item(state, user, id).await?;
    if accept && item.transit_to.is_some() {
        return Err(AppError::Conflict(IN_TRANSIT));
    }
    let site = match item.site_id {
        Some(site) => state.store.site(site).await?,
        None => None,
    };
    let pickup = Pickup {
        site: site.as_ref(),
        office: state.config.office.as_deref(),
    };
    let decided = state.store.decide_claim(id, accept, &user.id, pickup, now_ms()).await?;
    Ok(state.events.publish(decided)?)
}

/// Records the handover of an accepted claim's item at the desk: it is returned, and the
/// claimant's lost reports it settles are closed.
pub async fn hand_over(state: &AppState, user: &User, id: ClaimId, handover: &Handover) -> Result<Claim> {
    staffs_item(state, user, id).await?;
    let now = now_ms();
    let handed_over = state.store.hand_over(id, handover, &user.id, now).await?;
    went_home(state, handed_over, &user.id, now).await
}

/// Sends an accepted claim's item by post (the postage set and, unless nothing, paid): it is
/// returned, and the claimant's lost reports it settles are closed.
pub async fn send_by_post(state: &AppState, user: &User, id: ClaimId, carrier: &str, tracking: &str) -> Result<Claim> {
    staffs_item(state, user, id).await?;
    let now = now_ms();
    let sent = state.store.send_by_post(id, carrier, tracking, &user.id, now).await?;
    went_home(state, sent, &user.id, now).await
}

/// Publishes a change that returned an item to its claimant, then closes their open lost
/// reports it settles.
async fn went_home(
    state: &AppState,
    returned: Committed<std::result::Result<Claim, ClaimRefusal>>,
    actor: &str,
    now: i64,
) -> Result<Claim> {
    let claim = state.events.publish(returned)?;
    if let Err(err) = close_settled_reports(state, &claim, actor, now).await {
        // The item went home either way; only the owner's lost reports stay open.
        tracing::warn!(error = %err, claim = %claim.id.get(), "the lost reports a return settled were not closed");
    }
    Ok(claim)
}

/// Sets what posting an accepted claim's item costs (`None`: nothing), telling the claimant.
pub async fn set_post_fee(state: &AppState, user: &User, id: ClaimId, fee: Option<&str>) -> Result<Claim> {
    staffs_item(state, user, id).await?;
    let priced = state.store.set_post_fee(id, fee, now_ms()).await?;
    Ok(state.events.publish(priced)?)
}

/// Records how the postage was paid, telling the claimant.
pub async fn record_post_payment(state: &AppState, user: &User, id: ClaimId, note: &str) -> Result<Claim> {
    staffs_item(state, user, id).await?;
    let paid = state.store.record_post_payment(id, note, &user.id, now_ms()).await?;
    Ok(state.events.publish(paid)?)
}

/// Calls off the pickup of an accepted claim, telling the claimant why.
pub async fn cancel(state: &AppState, user: &User, id: ClaimId, reason: &str) -> Result<Claim> {
    staffs_item(state, user, id).await?;
    let cancelled = state.store.cancel_claim(id, reason, &user.id, now_ms()).await?;
    Ok(state.events.publish(cancelled)?)
}

/// The receipt of collected claim `id`, for its claimant or the staff of its item's site, in
/// `lang`.
pub async fn receipt(state: &AppState, user: &User, id: ClaimId, lang: Lang) -> Result<String> {
    let (claim, item) = party_to(state, user, id).await?;
    let Some(Settled {
        at,
        by,
        how: Settlement::HandedOver(handover),
    }) = &claim.settled
    else {
        return Err(AppError::Conflict(NOT_HANDED_OVER));
    };
    let name_of = async |id: &str| -> Result<String> {
        Ok(state
            .store
            .user(id)
            .await?
            .map_or_else(|| id.to_owned(), |user| user.name))
    };
    let (owner, staff) = (name_of(&claim.claimant).await?, name_of(by).await?);
    let site = match item.site_id {
        Some(site) => state.store.site(site).await?.map(|site| site.name),
        None => None,
    };
    let at = format_minute(*at);
    let receipt = Receipt {
        claim: id.get(),
        item: item.id.get(),
        title: &item.title,
        site: site.as_deref(),
        owner: (&owner, &claim.claimant),
        proxy: handover.proxy.as_deref(),
        id_checked: handover.id_checked.as_deref(),
        staff: (&staff, by),
        at: &at,
    };
    Ok(receipt.html(lang))
}

/// Claim `id` with its conversation, oldest first, for its claimant or the staff of its
/// item's site.
pub async fn conversation(state: &AppState, user: &User, id: ClaimId) -> Result<(Claim, Vec<ClaimMessage>)> {
    let (claim, _) = party_to(state, user, id).await?;
    let messages = state.store.claim_messages(id).await?;
    Ok((claim, messages))
}

/// Writes in claim `id`'s conversation, as its claimant or staff of its item's site; the
/// other side is told.
pub async fn write(state: &AppState, user: &User, id: ClaimId, text: &str) -> Result<(Claim, ClaimMessage)> {
    let (claim, _) = party_to(state, user, id).await?;
    let written = state.store.write_claim_message(id, &user.id, text, now_ms()).await?;
    Ok((claim, state.events.publish(written)?))
}

/// Claim `id` and its item, when `user` is its claimant or staff of the item's site: the two
/// sides of a claim, who alone read its receipt and its conversation.
async fn party_to(state: &AppState, user: &User, id: ClaimId) -> Result<(Claim, Item)> {
    let claim = state.store.claim(id).await?.ok_or(ClaimRefusal::NoClaim)?;
    let item = state.store.item(claim.item_id).await?.ok_or(ClaimRefusal::NoClaim)?;
    if claim.claimant != user.id {
        check_at(user, Action::Decide, item.site_id).map_err(|_| ClaimRefusal::NotClaimant)?;
    }
    Ok((claim, item))
}

/// A receipt is written once the item is handed over.
const NOT_HANDED_OVER: &str = "No receipt: the item is not handed over";

/// The item claim `id` is on, when `user` may decide for its site.
async fn staffs_item(state: &AppState, user: &User, id: ClaimId) -> Result<Item> {
    let item = state.store.claimed_item(id).await?.ok_or(ClaimRefusal::NoClaim)?;
    check_at(user, Action::Decide, item.site_id)?;
    Ok(item)
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
