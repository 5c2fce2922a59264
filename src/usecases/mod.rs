//! What people do with the service, one function each: report, review, take in, decide a
//! claim, dispose, close, send to another site, receive, keep bins. Each asks the access
//! module whether the actor may do it to this item at its site, calls the store (each store
//! call is one transaction), publishes the events the store committed (notifications, review
//! states: pushed live and mailed by their listeners), and starts what follows (telling the
//! owners of matches, closing the lost reports a handover settled). Policy — where to collect,
//! what a handover settles — is the use case's, passed to the store. HTTP handlers parse, call
//! one of these, and answer.

pub mod bins;
pub mod claims;
pub mod reports;
pub mod transfers;

use crate::{
    domain::{
        Item, User,
        access::{self, Action},
    },
    error::{AppError, Result},
    meaning,
    state::AppState,
};

pub const NO_SITE: &str = "Site not found";
/// What staff hear when they act on another site's item.
pub const OTHER_SITE: &str = "This item belongs to another site: only its staff may do that";
/// An item on its way to another site is handed over, disposed of or sent nowhere else.
pub const IN_TRANSIT: &str = "Item is in transit";

/// Refuses `user` doing `action` at `site` (an item's, a bin's) when they may not: 403, with
/// why when they may do it at other sites.
fn check_at(user: &User, action: Action, site: Option<i64>) -> Result<()> {
    if access::may_at(user, action, site) {
        Ok(())
    } else if access::may(user, action) {
        Err(AppError::NotAllowed(OTHER_SITE))
    } else {
        Err(AppError::Forbidden)
    }
}

/// Tells the owners of what an approved item likely is; a failure is logged: the approval
/// stands either way.
async fn tell_matches(state: &AppState, item: &Item, now: i64) {
    let told = async {
        let notices = meaning::matches::notices_after_approval(&state.store, &state.meanings, item).await?;
        state.events.publish(state.store.tell(&notices, now).await?);
        anyhow::Ok(())
    };
    if let Err(err) = told.await {
        tracing::warn!(error = %err, item = %item.id, "the owners of an approved item's matches were not told");
    }
}
