//! Bins, kept by the staff of their site.

use super::{NO_SITE, check_at};
use crate::{
    domain::{Bin, BinFields, User, access::Action},
    error::{AppError, Result},
    state::AppState,
    store::BinRefusal,
    time::now_ms,
};

pub const NO_BIN: &str = "Bin not found";

/// Adds a bin to site `site`.
pub async fn add(state: &AppState, user: &User, site: i64, fields: &BinFields) -> Result<Bin> {
    state.store.site(site).await?.ok_or(AppError::NotFound(NO_SITE))?;
    check_at(user, Action::Shelve, Some(site))?;
    refused(state.store.add_bin(site, fields, now_ms()).await?)
}

/// Changes bin `id`'s code or name (its items take the new name as their storage place).
pub async fn change(state: &AppState, user: &User, id: i64, fields: &BinFields) -> Result<Bin> {
    let bin = state.store.bin(id).await?.ok_or(AppError::NotFound(NO_BIN))?;
    check_at(user, Action::Shelve, Some(bin.site_id))?;
    refused(state.store.change_bin(id, fields).await?)
}

/// Removes bin `id`, when it holds nothing.
pub async fn remove(state: &AppState, user: &User, id: i64) -> Result<()> {
    let bin = state.store.bin(id).await?.ok_or(AppError::NotFound(NO_BIN))?;
    check_at(user, Action::Shelve, Some(bin.site_id))?;
    refused(state.store.remove_bin(id).await?)
}

fn refused<T>(outcome: std::result::Result<T, BinRefusal>) -> Result<T> {
    outcome.map_err(|refusal| match refusal {
        BinRefusal::NotFound => AppError::NotFound(NO_BIN),
        BinRefusal::CodeTaken => AppError::Conflict("A bin of the site has that code"),
        BinRefusal::HoldsItems => AppError::Conflict("The bin holds items: move them first"),
    })
}
