//! A person's rights over their own data. `GET /api/me/export`: everything the service holds
//! about the caller, as one JSON document (the right of access): the account, what they
//! reported, their claims with the messages about them, what they wrote in the chat and the
//! threads, their notifications and the matches they answered "Not mine" to. Photos are named
//! by their address, not copied in. `DELETE /api/me`: erasure of their account (see
//! `store::erasure` for what goes and what the office keeps, anonymised).

use axum::{
    Json, Router,
    extract::State,
    http::header,
    response::{IntoResponse, Response},
    routing::{delete, get},
};
use futures_util::TryStreamExt;
use serde::Serialize;
use utoipa::ToSchema;

use super::{
    current_user::SignedIn,
    extract::{ClientAddr, JsonObject},
    fields::ItemKeys,
    mail_choices::{ChoicesJson, choices_of},
    schemas,
    session::{confirm_password, with_cookies},
    views::{AccountJson, ClaimJson, ClaimMessageJson, ItemJson, OkJson},
};
use crate::{
    domain::{ItemFilter, Notification, WrittenMessage, current_password},
    error::{AppError, Result},
    json::NotificationJson,
    state::AppState,
    store::{AccountChange, ClaimFilter, NO_PASSWORD},
    time::{format_ms, now_ms},
};

/// Items and notifications read from the database at a time.
const BATCH: u32 = 500;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/api/me/export", get(export))
        .route("/api/me", delete(erase))
}

/// The whole document; its parts are the API's own representations.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = OwnData)]
pub struct OwnDataJson<'a> {
    #[schema(format = DateTime)]
    exported_at: String,
    account: AccountJson<'a>,
    /// The language emails go out in (`en`, `ko` or `es`), `null` until chosen.
    #[schema(value_type = Option<String>)]
    lang: Option<&'static str>,
    /// Every item they reported, in every state, newest first: all its fields but those only
    /// staff read (who handed it in, verification details), its photo by `photoUrl`.
    #[schema(value_type = Vec<schemas::Item>)]
    reports: Vec<ItemJson<'a>>,
    /// Their claims, newest first, each with its conversation with the desk.
    claims: Vec<ClaimWithMessages>,
    /// What they wrote while logged in: in the chat (`itemId` null) and in items' threads.
    messages: Vec<WrittenMessageJson<'a>>,
    /// Newest first, in the language of their emails.
    notifications: Vec<NotificationJson<'a>>,
    /// The items they said are not theirs, which matching no longer offers them.
    not_mine: Vec<i64>,
    /// Which kinds of notice they get by email (and push).
    mail: ChoicesJson,
    /// The devices their notices are pushed to, oldest first.
    push_devices: Vec<PushDeviceJson>,
}

/// A device notices are pushed to: its push service's endpoint, and since when.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = PushDeviceSince)]
pub struct PushDeviceJson {
    endpoint: String,
    created_at: String,
}

#[derive(Serialize, ToSchema)]
#[schema(as = ClaimWithMessages)]
pub struct ClaimWithMessages {
    #[serde(flatten)]
    claim: ClaimJson,
    messages: Vec<ClaimMessageJson>,
}

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = WrittenMessage)]
pub struct WrittenMessageJson<'a> {
    id: i64,
    /// The item whose thread it is in; `null`: the global chat.
    item_id: Option<i64>,
    nick: &'a str,
    text: &'a str,
    #[schema(format = DateTime)]
    created_at: String,
}

impl<'a> From<&'a WrittenMessage> for WrittenMessageJson<'a> {
    fn from(message: &'a WrittenMessage) -> Self {
        Self {
            id: message.id.get(),
            item_id: message.item.map(|item| item.get()),
            nick: &message.nick,
            text: &message.text,
            created_at: format_ms(message.at),
        }
    }
}

/// A copy of everything the service holds about the caller.
#[utoipa::path(get, path = "/api/me/export", operation_id = "exportOwnData", tag = "session", security(("session" = [])),
    responses(
        (status = 200, description = "One JSON document; `Content-Disposition: attachment`", body = OwnDataJson),
        (status = 401, response = schemas::LoginRequired),
    ))]
async fn export(State(state): State<AppState>, SignedIn(session): SignedIn) -> Result<Response> {
    let id = session.user.id.as_str();
    let store = &state.store;
    // Removed since the session began: nothing to export.
    let account = store
        .account(id)
        .await?
        .ok_or(AppError::Unauthenticated("Login required"))?;
    let lang = store.lang(id).await?;
    let filter = ItemFilter {
        created_by: Some(id.to_owned()),
        ..ItemFilter::default()
    };
    let reports: Vec<_> = store.stream_items(filter, None, BATCH).try_concat().await?;
    let own_claims = ClaimFilter {
        item: None,
        claimant: Some(id),
        status: None,
        site: None,
    };
    let mut claims = Vec::new();
    for claim in store.claims(&own_claims, u32::MAX).await? {
        let messages = store.claim_messages(claim.id).await?;
        let messages = messages.iter().map(|m| ClaimMessageJson::new(m, &claim)).collect();
        claims.push(ClaimWithMessages {
            claim: claim.into(),
            messages,
        });
    }
    let messages = store.messages_written_by(id).await?;
    let notifications = all_notifications(&state, id).await?;
    let mut not_mine: Vec<i64> = store.not_mine(id).await?.into_iter().map(|item| item.get()).collect();
    not_mine.sort_unstable();
    let keys = ItemKeys::readable_by_reporter();
    let said_in = lang.unwrap_or_default();
    let document = OwnDataJson {
        exported_at: format_ms(now_ms()),
        account: AccountJson::from(&account),
        lang: lang.map(|lang| lang.as_str()),
        reports: reports
            .iter()
            .map(|item| ItemJson::new(item, &keys, &state.hold, None))
            .collect(),
        claims,
        messages: messages.iter().map(WrittenMessageJson::from).collect(),
        notifications: notifications
            .iter()
            .map(|n| NotificationJson::said_in(n, said_in))
            .collect(),
        not_mine,
        mail: choices_of(&state, id).await?,
        push_devices: state
            .store
            .push_devices(id)
            .await?
            .into_iter()
            .map(|(endpoint, at)| PushDeviceJson {
                endpoint,
                created_at: format_ms(at),
            })
            .collect(),
    };
    let attachment = format!("attachment; filename=\"lostfound-{}.json\"", file_name_part(id));
    Ok(([(header::CONTENT_DISPOSITION, attachment)], Json(document)).into_response())
}

/// Every notification of `user`, newest first, read a page at a time.
async fn all_notifications(state: &AppState, user: &str) -> Result<Vec<Notification>> {
    let mut all: Vec<Notification> = Vec::new();
    loop {
        let before = all.last().map(|n| n.id);
        let page = state.store.notifications(user, before, BATCH).await?;
        let done = page.len() < BATCH as usize;
        all.extend(page);
        if done {
            return Ok(all);
        }
    }
}

/// A user id as it may stand in a file name: letters, digits, `.`, `_` and `-`; anything else
/// (the `@` of an address) as `_`.
fn file_name_part(id: &str) -> String {
    id.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || ".-_".contains(c) {
                c
            } else {
                '_'
            }
        })
        .collect()
}

/// Erases the caller's account: their sessions end everywhere, and what the office keeps —
/// reports, claims with their handover, messages — stays under an anonymous account; the id
/// is never given again. An account with a password confirms it (`current`).
#[utoipa::path(delete, path = "/api/me", operation_id = "eraseAccount", tag = "session", security(("session" = [])),
    request_body = schemas::EraseBody,
    responses(
        (status = 200, description = "Erased; `Set-Cookie` clears the session", body = OkJson),
        (status = 400, description = "Current password required, At least one administrator must remain", body = schemas::ErrorBody),
        (status = 401, response = schemas::LoginRequired),
        (status = 403, description = "Wrong password (or a cross-site request)", body = schemas::ErrorBody),
        (status = 413, response = schemas::TooLarge),
        (status = 429, response = schemas::FailedLogins),
    ))]
async fn erase(
    State(state): State<AppState>,
    SignedIn(session): SignedIn,
    ClientAddr(addr): ClientAddr,
    headers: axum::http::HeaderMap,
    body: JsonObject,
) -> Result<Response> {
    let id = &session.user.id;
    let stored = state.store.login_record(id).await?.map(|record| record.password_hash);
    // Signing in by single sign-on or an emailed link: the session is all there is to show.
    if stored.as_deref().is_some_and(|hash| hash != NO_PASSWORD) {
        let current = current_password(&body.fields)?;
        confirm_password(&state, id, stored, current, addr, &headers).await?;
    }
    match state.store.erase_account(id, now_ms()).await? {
        AccountChange::Done(anonymous) => {
            tracing::info!(account = %anonymous, "an account was erased by its owner");
            let cookie = state.sessions.end(&headers).await?;
            Ok(with_cookies(Json(OkJson::DONE), [cookie]))
        }
        AccountChange::LastAdmin => Err(AppError::invalid("At least one administrator must remain")),
        AccountChange::NotFound | AccountChange::UnknownSite => Err(AppError::Unauthenticated("Login required")),
    }
}
