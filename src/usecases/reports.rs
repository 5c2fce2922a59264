//! Reports: made, corrected, reviewed, moved between bins, removed, disposed of, closed.

use super::{IN_TRANSIT, OTHER_SITE, check_at, tell_matches};
use crate::{
    domain::{
        Bin, CustodyRefusal, Item, ItemId, ItemKind, ItemNotFound, ItemPatch, ItemStatus, NewDisposal, NewItem,
        ReportEdit, Site, User, ValidationError,
        access::{self, Action},
        nearest_site,
    },
    error::{AppError, Result},
    state::AppState,
    time::now_ms,
};

/// What a reporter hears correcting a report that is no longer open.
pub const CANNOT_EDIT: &str = "Item cannot be edited";
/// What a reporter hears sending verification details: only staff record them.
pub const STAFF_VERIFY: &str = "Only staff record verification details";

/// Reports an item, or (staff) takes in one handed in at the desk, at the site and in the bin
/// [`placed`] gives it, or takes a visitor's lost report there: it is the account of the
/// visitor's address, made for them when there is none, and a visitor without a password is
/// mailed the link to follow it.
pub async fn report(state: &AppState, user: &User, item: NewItem) -> Result<Item> {
    let now = now_ms();
    if let Some(happened) = item.happened() {
        happened.not_after(now)?;
    }
    let item = placed(state, user, item).await?;
    let reporter = match item.visitor() {
        Some(visitor) => Some((state.store.visitor_account(visitor, now).await?, visitor.email.clone())),
        None => None,
    };
    let created_by = reporter
        .as_ref()
        .map_or(user.id.as_str(), |(account, _)| account.id.as_str());
    let item = state
        .events
        .publish(state.store.insert_item(item, created_by, now).await?);
    if let Some((account, address)) = reporter.filter(|(account, _)| account.follows_by_link) {
        state
            .events
            .publish(state.store.mail_follow_link(&account.id, address.as_str(), now).await?);
    }
    state.meanings.item_changed(&item);
    if item.status == ItemStatus::Approved {
        tell_matches(state, &item, now).await;
    }
    Ok(item)
}

/// A new item at its site: a found item goes to the site chosen, else (taken in by someone
/// who works at sites) the nearest of theirs, else — as every report without a choice — the
/// nearest site, which the store's insert picks. A report logged already reviewed (staff's:
/// only they may send a `status`) or taken for a visitor is the logger's desk's too, so that no staff reviews
/// another site's report by writing it. A bin named must be that site's. Reports that name
/// neither, the most, read nothing here.
async fn placed(state: &AppState, user: &User, item: NewItem) -> Result<NewItem> {
    let at_the_desk =
        item.kind() == ItemKind::Found || item.status() != ItemStatus::Pending || item.visitor().is_some();
    let takes_in_at_own = at_the_desk && item.site().is_none() && !user.sites.is_empty();
    if item.site().is_none() && item.bin().is_none() && !takes_in_at_own {
        return Ok(item);
    }
    let sites = state.store.sites().await?;
    let item = match item.site() {
        Some(site) if !sites.iter().any(|s| s.id == site) => {
            return Err(ValidationError::new("siteId", "Invalid site").into());
        }
        // Staff take in at their own sites only; anyone else may hand in anywhere.
        Some(site) if at_the_desk && access::may(user, Action::TakeIn) => {
            check_at(user, Action::TakeIn, Some(site))?;
            item
        }
        Some(_) => item,
        None if takes_in_at_own => {
            let own: Vec<Site> = sites
                .iter()
                .filter(|site| user.sites.contains(&site.id))
                .cloned()
                .collect();
            match nearest_site(&own, item.lat(), item.lng()).map(|site| site.id) {
                Some(site) => item.at_site(site),
                None => item,
            }
        }
        None => item,
    };
    match item.bin() {
        Some(bin) => {
            let site = item
                .site()
                .or_else(|| nearest_site(&sites, item.lat(), item.lng()).map(|s| s.id));
            let bin = bin_of(state, bin, site).await?;
            Ok(item.in_bin(&bin))
        }
        None => Ok(item),
    }
}

/// Reviews an item of the reviewer's site: its status, its storage place or its bin (one
/// click or scan moves it, recorded in its history).
pub async fn review(state: &AppState, user: &User, id: ItemId, patch: ItemPatch) -> Result<Item> {
    let item = state.store.item(id).await?.ok_or(ItemNotFound)?;
    check_at(user, Action::Review, item.site_id)?;
    let patch = match patch.bin() {
        Some(Some(bin)) => {
            let bin = bin_of(state, bin, item.site_id).await?;
            patch.into_bin(Some(&bin))
        }
        Some(None) => patch.into_bin(None),
        None => patch,
    };
    let now = now_ms();
    let updated = state.store.update_item(id, &patch, &user.id, now).await?;
    let (item, approved) = state.events.publish(updated).ok_or(ItemNotFound)?;
    if approved {
        tell_matches(state, &item, now).await;
    }
    Ok(item)
}

/// Removes an item of the remover's site, with its photo, thread and claims.
pub async fn remove(state: &AppState, user: &User, id: ItemId) -> Result<()> {
    let item = state.store.item(id).await?.ok_or(ItemNotFound)?;
    check_at(user, Action::Remove, item.site_id)?;
    if state.store.delete_item(id, &user.id, now_ms()).await? {
        Ok(())
    } else {
        Err(ItemNotFound.into())
    }
}

/// Records what became of a found item of the site nobody claimed.
pub async fn dispose(state: &AppState, user: &User, id: ItemId, disposal: &NewDisposal) -> Result<Item> {
    let item = state.store.item(id).await?.ok_or(ItemNotFound)?;
    check_at(user, Action::Dispose, item.site_id)?;
    if item.transit_to.is_some() {
        return Err(AppError::Conflict(IN_TRANSIT));
    }
    let disposed = state.store.dispose_item(id, disposal, &user.id, now_ms()).await?;
    Ok(state.events.publish(disposed)?)
}

/// Corrects a report: its reporter's own while it is open, or any of their site's as staff.
/// An approved report its reporter corrects goes back to review when the office says so
/// (`LOSTFOUND_REVIEW_EDITS`).
pub async fn edit(state: &AppState, user: &User, item: &Item, edit: &ReportEdit) -> Result<Item> {
    let staff = access::may_at(user, Action::Review, item.site_id);
    if !staff && item.created_by != user.id {
        return Err(if access::may(user, Action::Review) {
            AppError::NotAllowed(OTHER_SITE)
        } else {
            CustodyRefusal::NotReporter.into()
        });
    }
    if !staff && !item.is_open() {
        return Err(AppError::invalid(CANNOT_EDIT));
    }
    if !staff && edit.verification().is_some() {
        return Err(AppError::NotAllowed(STAFF_VERIFY));
    }
    if let Some(Some(happened)) = edit.happened() {
        happened.not_after(now_ms())?;
    }
    let review_again = !staff && state.config.custody.review_edits;
    let edited = state
        .store
        .edit_item(item.id, edit, &user.id, review_again, now_ms())
        .await?;
    let item = state.events.publish(edited).ok_or(ItemNotFound)?;
    state.meanings.item_changed(&item);
    Ok(item)
}

/// Closes a report: its reporter's own, or as staff of its site (who may close what the
/// office keeps).
pub async fn close(state: &AppState, user: &User, item: &Item, reason: Option<&str>) -> Result<Item> {
    let staff = access::may_at(user, Action::Review, item.site_id);
    let closed = state
        .store
        .close_item(item.id, reason, &user.id, staff, now_ms())
        .await?;
    Ok(state.events.publish(closed)?)
}

/// Bin `id`, when it is `site`'s; else 400 naming `binId`.
pub(super) async fn bin_of(state: &AppState, id: i64, site: Option<i64>) -> Result<Bin> {
    match state.store.bin(id).await? {
        Some(bin) if Some(bin.site_id) == site => Ok(bin),
        _ => Err(ValidationError::new("binId", "Invalid bin").into()),
    }
}
