//! `/api/items`: reports of lost and found items, their photos, and their review.

use axum::{
    Json, Router,
    body::Bytes,
    extract::{Path, RawQuery, State},
    http::{HeaderMap, HeaderName, HeaderValue, header},
    response::{IntoResponse, Response},
    routing::{get, patch, post},
};
use futures_util::stream;

use super::{
    conditional::{etag, matches, not_modified},
    current_user::{Dispose, May, ReadAll, Remove, Review, SignedIn},
    extract::{JsonObject, Params},
    fields::{ItemKey, ItemKeys},
    item_answers::{Keep, answer, digest, img_data, item_etag, keep_and_send, send_kept, stream_list},
    reader::Reader,
    schemas,
    views::{ChangeJson, ItemJson, MatchJson, OkJson, WhyJson},
};
use crate::{
    auth::Session,
    cache::Answer,
    domain::{
        BestCursor, Cursor, Item, ItemId, ItemNotFound, ItemPatch, ListRequest, NewDisposal, NewItem, ReportEdit, Sort,
        access::{self, Action},
        matching, parse_close_reason,
    },
    error::{AppError, Result},
    meaning::{self, search},
    state::AppState,
    store::Count,
    time::now_ms,
    usecases::reports,
};

/// Items read from the database at a time for a whole list.
const LIST_BATCH: u32 = 100;
/// Photos may be cached for ever under their versioned URLs.
const IMMUTABLE: &str = "public, max-age=31536000, immutable";
/// The photo of an item not everyone may read: the browser keeps it, no shared cache does.
const PRIVATE: &str = "private, max-age=31536000, immutable";
/// The query parameters a list understands; each may be given once.
pub(super) const LIST_PARAMS: [&str; 18] = [
    "status",
    "sort",
    "limit",
    "cursor",
    "q",
    "cat",
    "kind",
    "near",
    "within",
    "since",
    "until",
    "fields",
    "createdBy",
    "site",
    "bin",
    "ids",
    "open",
    "due",
];

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/api/items", get(list).post(create))
        .route("/api/items/{id}", get(read).patch(update).delete(remove))
        .route("/api/items/{id}/photo", get(photo))
        .route("/api/items/{id}/thumb", get(thumbnail))
        .route("/api/items/{id}/matches", get(possible_matches))
        .route("/api/items/{id}/not-mine", post(not_mine).delete(take_back_not_mine))
        .route("/api/items/{id}/history", get(history))
        .route("/api/items/{id}/disposal", post(dispose))
        .route("/api/items/{id}/close", post(close))
        .route("/api/items/{id}/report", patch(edit))
}

/// Items, newest first (a search: best first unless `sort=newest`): whole (streamed) or a page at a time.
#[utoipa::path(get, path = "/api/items", operation_id = "listItems", tag = "items", params(schemas::FilterQuery, schemas::PageQuery, schemas::FieldsQuery),
    responses(
        (status = 200, description = "Items; `X-Total-Count` (past 10,000 an estimate, with `X-Total-Count-Estimated: true`), and `Link: rel=\"next\"` when a page has more", body = [schemas::Item]),
        (status = 304, response = schemas::NotModified),
        (status = 400, description = "Invalid status, limit, cursor, sort, kind, near, within, since, until, ids, open, due, fields or query string", body = schemas::ErrorBody),
        (status = 401, description = "`due=true` without a session", body = schemas::ErrorBody),
        (status = 403, description = "`due=true` by someone not an administrator", body = schemas::ErrorBody),
    ))]
async fn list(State(state): State<AppState>, RawQuery(raw): RawQuery, headers: HeaderMap) -> Result<Response> {
    let params = Params::parse(raw.as_deref(), &LIST_PARAMS)?;
    let mut request = ListRequest::parse(|name| params.get(name))?;
    let keys = params.keys()?;
    let staff_only = request.due || request.filter.bin.is_some();
    let reader = Reader::of_request(
        &state,
        &headers,
        staff_only || Reader::answer_depends_on_who(&state, &keys),
    )
    .await?;
    let keys = reader.keys(keys);
    request.filter.visible = reader.visible();
    let mut kept_as = reader.kept_as(format!("list?{}", raw.as_deref().unwrap_or("")));
    // A search by its words' forms and by meaning (a `q` with no words is no search).
    let q = params.get("q").filter(|_| !request.filter.words.is_empty());
    if q.is_some() {
        // Read before the search, like the version: meanings and words arrive after their
        // item's version, and a kept search must not outlive them.
        kept_as.push_str(&format!("#{}", state.meanings.generation()));
    }
    if staff_only {
        reader.require_reads_all()?;
    }
    if request.due {
        request.filter.due = Some(state.due_now());
    }
    // What is due changes with the time, not only with the items: never kept, and its ETag
    // names the moment.
    let kept = request.filter.due.is_none();
    // Read before the items: an answer is never older than the version its ETag names.
    let version = state.store.list_version().await?;
    if kept && let Some(answer) = state.answers.get(version, &kept_as) {
        return Ok(send_kept(answer, &headers));
    }
    let moment = request
        .filter
        .due
        .as_ref()
        .map(|due| format!("@{}", due.at))
        .unwrap_or_default();
    let tag = etag(&format!("l{version}{moment}.{}", digest(&kept_as)));
    if matches(&headers, &tag) {
        return Ok(not_modified([(header::ETAG, tag)]));
    }
    let query = match q {
        Some(q) => Some(state.meanings.widen(&state.store, &mut request.filter, q).await?),
        None => None,
    };
    let (total, estimated) = match state.store.count_items(&request.filter).await? {
        Count::Exact(total) => (total, false),
        Count::Estimated(total) => (total, true),
    };
    let mut response_headers = vec![
        (header::CONTENT_TYPE, HeaderValue::from_static("application/json")),
        (header::ETAG, tag),
        (HeaderName::from_static("x-total-count"), HeaderValue::from(total)),
    ];
    if estimated {
        response_headers.push((
            HeaderName::from_static("x-total-count-estimated"),
            HeaderValue::from_static("true"),
        ));
    }
    let body = match (request.sort, &query, request.limit) {
        (Sort::Best, Some(query), limit) => {
            let ranked = state.meanings.best_first(&state.store, &request.filter, query).await?;
            // One more than asked: whether a next page exists.
            let ranked = search::after(ranked, request.after_best)
                .take(limit.map_or(usize::MAX, |limit| limit as usize + 1))
                .collect();
            let (page, next) = one_page(ranked, limit, |(item, relevance)| {
                BestCursor {
                    relevance: *relevance,
                    id: item.id,
                }
                .encode()
            });
            response_headers.extend(next.map(|next| (header::LINK, next_link(raw.as_deref(), &next))));
            let items = page.into_iter().map(|(item, _)| item).collect();
            let keep = Keep::new(version, kept_as, &response_headers, kept);
            stream_list(state, stream::iter([Ok(items)]), keys, keep)
        }
        (_, _, Some(limit)) => {
            let items = state
                .store
                .list_items(&request.filter, request.after, limit + 1)
                .await?;
            let (items, next) = one_page(items, Some(limit), |item| Cursor::after(item).encode());
            response_headers.extend(next.map(|next| (header::LINK, next_link(raw.as_deref(), &next))));
            let keep = Keep::new(version, kept_as, &response_headers, kept);
            stream_list(state, stream::iter([Ok(items)]), keys, keep)
        }
        (_, _, None) => {
            let batches = state.store.stream_items(request.filter, request.after, LIST_BATCH);
            let keep = Keep::new(version, kept_as, &response_headers, kept);
            stream_list(state, batches, keys, keep)
        }
    };
    let mut response = body.into_response();
    response.headers_mut().extend(response_headers);
    Ok(response)
}

/// A page of at most `limit` of `rows` (read one more than that: whether another follows),
/// and the cursor after its last row when another follows.
fn one_page<T>(mut rows: Vec<T>, limit: Option<u32>, cursor_after: impl Fn(&T) -> String) -> (Vec<T>, Option<String>) {
    match limit {
        Some(limit) if rows.len() > limit as usize => {
            rows.truncate(limit as usize);
            let next = rows.last().map(cursor_after);
            (rows, next)
        }
        _ => (rows, None),
    }
}

/// `</api/items?…&cursor=…>; rel="next"`: the same query, from cursor `next` on.
fn next_link(raw: Option<&str>, next: &str) -> HeaderValue {
    let mut query = form_urlencoded::Serializer::new(String::new());
    for (name, value) in form_urlencoded::parse(raw.unwrap_or("").as_bytes()) {
        if name != "cursor" {
            query.append_pair(&name, &value);
        }
    }
    query.append_pair("cursor", next);
    HeaderValue::from_str(&format!("</api/items?{}>; rel=\"next\"", query.finish()))
        .expect("an encoded query is a valid header value")
}

#[utoipa::path(get, path = "/api/items/{id}", operation_id = "getItem", tag = "items", params(("id" = i64, Path, minimum = 1, description = "Item id"), schemas::FieldsQuery),
    responses((status = 200, description = "The item", body = schemas::Item), (status = 304, response = schemas::NotModified), (status = 400, description = "Invalid item ID, Invalid fields, Invalid query string", body = schemas::ErrorBody), (status = 404, response = schemas::NoItem)))]
async fn read(
    State(state): State<AppState>,
    Path(id): Path<String>,
    RawQuery(raw): RawQuery,
    headers: HeaderMap,
) -> Result<Response> {
    let id = ItemId::parse(&id)?;
    let keys = Params::parse(raw.as_deref(), &["fields"])?.keys()?;
    let reader = Reader::of_request(&state, &headers, Reader::answer_depends_on_who(&state, &keys)).await?;
    let keys = reader.keys(keys);
    let version = state.store.list_version().await?;
    let kept_as = reader.kept_as(format!("item/{id}?{}", raw.as_deref().unwrap_or("")));
    if let Some(answer) = state.answers.get(version, &kept_as) {
        return Ok(send_kept(answer, &headers));
    }
    let item = reader.readable(state.store.item(id).await?)?;
    let tag = item_etag(&item, &keys);
    if matches(&headers, &tag) {
        return Ok(not_modified([(header::ETAG, tag)]));
    }
    let photo = img_data(&state, &item, &keys).await?;
    let body = Bytes::from(
        serde_json::to_vec(&ItemJson::new(&item, &keys, &state.hold, photo.as_deref())).map_err(anyhow::Error::from)?,
    );
    let answer = Answer {
        headers: vec![
            (header::CONTENT_TYPE, HeaderValue::from_static("application/json")),
            (header::ETAG, tag),
        ],
        body,
    };
    Ok(keep_and_send(&state.answers, version, kept_as, answer))
}

/// Approved items of the other kind that may be the same object, best first (at most 20).
#[utoipa::path(get, path = "/api/items/{id}/matches", operation_id = "getMatches", tag = "items", params(("id" = i64, Path, minimum = 1, description = "Item id"), schemas::FieldsQuery),
    responses((status = 200, description = "Matches", body = [MatchJson]), (status = 400, description = "Invalid item ID, Invalid fields, Invalid query string", body = schemas::ErrorBody), (status = 404, response = schemas::NoItem)))]
async fn possible_matches(
    State(state): State<AppState>,
    Path(id): Path<String>,
    RawQuery(raw): RawQuery,
    headers: HeaderMap,
) -> Result<Response> {
    let id = ItemId::parse(&id)?;
    let keys = Params::parse(raw.as_deref(), &["fields"])?.keys()?;
    // Always read: a reporter is not shown what they said is not theirs.
    let session = state.sessions.resolve(&headers).await?;
    let reader = Reader::of(&state, session.as_ref());
    let keys = reader.keys(keys);
    let item = reader.readable(state.store.item(id).await?)?;
    // Returned, disposed or closed: it matches nothing any more.
    if !item.is_open() {
        return Ok(Json(Vec::<MatchJson>::new()).into_response());
    }
    let viewer = session.as_ref().map(|session| session.user.id.as_str());
    let found = meaning::matches::of(&state.store, &state.meanings, &item, viewer).await?;
    // With photos, twenty of them make a big answer: made a bounded number at once, like lists.
    let _producing = state.list_production.acquire().await.map_err(anyhow::Error::from)?;
    let mut photos = Vec::with_capacity(found.len());
    for found in &found {
        photos.push(img_data(&state, &found.item, &keys).await?);
    }
    let answer: Vec<MatchJson> = found
        .iter()
        .zip(&photos)
        .map(|(found, photo)| MatchJson {
            item: ItemJson::new(&found.item, &keys, &state.hold, photo.as_deref()),
            score: found.score,
            distance: found.distance,
            likely: found.score >= matching::LIKELY,
            why: WhyJson::from(&found.why),
        })
        .collect();
    Ok(Json(answer).into_response())
}

/// Reports an item; it waits for review (`pending`).
#[utoipa::path(post, path = "/api/items", operation_id = "createItem", tag = "items", security(("session" = [])), params(schemas::FieldsQuery),
    request_body = schemas::NewItem,
    responses(
        (status = 200, description = "The new item", body = schemas::Item),
        (status = 400, description = "Required fields missing, a field of the wrong type or out of range, Invalid image, Invalid kind, Invalid fields", body = schemas::ErrorBody),
        (status = 401, response = schemas::LoginRequired), (status = 403, response = schemas::CrossSite), (status = 413, response = schemas::TooLarge),
    ))]
async fn create(
    State(state): State<AppState>,
    SignedIn(session): SignedIn,
    RawQuery(raw): RawQuery,
    body: JsonObject,
) -> Result<Response> {
    let reader = Reader::of(&state, Some(&session));
    let keys = reader.keys(Params::parse(raw.as_deref(), &["fields"])?.keys()?);
    // Checking a photo means decoding it and making its thumbnail.
    let parse = if access::may(&session.user, Action::TakeIn) {
        NewItem::parse_intake
    } else {
        NewItem::parse
    };
    let new_item = state.cpu.run(body.len, move || parse(&body.fields)).await??;
    let item = reports::report(&state, &session.user, new_item).await?;
    answer(&state, &item, &keys).await
}

/// Reviews an item: its status and where it is kept.
#[utoipa::path(patch, path = "/api/items/{id}", operation_id = "updateItem", tag = "items", security(("session" = [])), params(("id" = i64, Path, minimum = 1, description = "Item id"), schemas::FieldsQuery),
    request_body = schemas::ItemPatch,
    responses(
        (status = 200, description = "The updated item", body = schemas::Item),
        (status = 400, description = "Invalid status, No fields to update, Invalid item ID, Invalid fields", body = schemas::ErrorBody),
        (status = 401, response = schemas::LoginRequired), (status = 403, response = schemas::AdminOnly), (status = 404, response = schemas::NoItem), (status = 413, response = schemas::TooLarge),
    ))]
async fn update(
    State(state): State<AppState>,
    May(session, _): May<Review>,
    Path(id): Path<String>,
    RawQuery(raw): RawQuery,
    body: JsonObject,
) -> Result<Response> {
    let id = ItemId::parse(&id)?;
    let keys = Params::parse(raw.as_deref(), &["fields"])?.keys()?;
    let patch = ItemPatch::parse(&body.fields)?;
    let item = reports::review(&state, &session.user, id, patch).await?;
    answer(&state, &item, &keys).await
}

/// Deletes an item with its photo, thread and claims.
#[utoipa::path(delete, path = "/api/items/{id}", operation_id = "deleteItem", tag = "items", security(("session" = [])), params(("id" = i64, Path, minimum = 1, description = "Item id")),
    responses((status = 200, description = "Deleted", body = OkJson), (status = 400, response = schemas::BadItemId), (status = 401, response = schemas::LoginRequired), (status = 403, response = schemas::AdminOnly), (status = 404, response = schemas::NoItem)))]
async fn remove(
    State(state): State<AppState>,
    May(session, _): May<Remove>,
    Path(id): Path<String>,
) -> Result<Json<OkJson>> {
    reports::remove(&state, &session.user, ItemId::parse(&id)?).await?;
    Ok(Json(OkJson::DONE))
}

/// Records what became of a found item nobody claimed: it leaves custody, and its open
/// claims are rejected.
#[utoipa::path(post, path = "/api/items/{id}/disposal", operation_id = "disposeItem", tag = "items", security(("session" = [])), params(("id" = i64, Path, minimum = 1, description = "Item id"), schemas::FieldsQuery),
    request_body = schemas::DisposalBody,
    responses(
        (status = 200, description = "The item, with `disposedAt` and `disposal`", body = schemas::Item),
        (status = 400, description = "Invalid method, Item cannot be disposed (a lost report, or returned, disposed or closed already), Invalid item ID, Invalid fields", body = schemas::ErrorBody),
        (status = 401, response = schemas::LoginRequired), (status = 403, response = schemas::AdminOnly), (status = 404, response = schemas::NoItem), (status = 413, response = schemas::TooLarge),
    ))]
async fn dispose(
    State(state): State<AppState>,
    May(session, _): May<Dispose>,
    Path(id): Path<String>,
    RawQuery(raw): RawQuery,
    body: JsonObject,
) -> Result<Response> {
    let id = ItemId::parse(&id)?;
    let keys = Params::parse(raw.as_deref(), &["fields"])?.keys()?;
    let disposal = NewDisposal::parse(&body.fields)?;
    let item = reports::dispose(&state, &session.user, id, &disposal).await?;
    answer(&state, &item, &keys).await
}

/// The item path `id` names, as `session`'s user may see it (someone who may not see it learns
/// nothing about it: 404), and the keys their answer carries (`?fields=` in `raw`).
async fn acted_on(state: &AppState, session: &Session, id: &str, raw: Option<&str>) -> Result<(Item, ItemKeys)> {
    let id = ItemId::parse(id)?;
    let reader = Reader::of(state, Some(session));
    let keys = reader.keys(Params::parse(raw, &["fields"])?.keys()?);
    let item = reader.readable(state.store.item(id).await?)?;
    Ok((item, keys))
}

/// Closes a report ("found it myself"): its reporter, or staff. It no longer matches and
/// cannot be claimed; its open claims are rejected.
#[utoipa::path(post, path = "/api/items/{id}/close", operation_id = "closeItem", tag = "items", security(("session" = [])), params(("id" = i64, Path, minimum = 1, description = "Item id"), schemas::FieldsQuery),
    request_body = schemas::CloseBody,
    responses(
        (status = 200, description = "The item, with `closedAt`", body = schemas::Item),
        (status = 400, description = "Item cannot be closed (returned, disposed or closed already), Invalid item ID, Invalid fields, a reason too long", body = schemas::ErrorBody),
        (status = 401, response = schemas::LoginRequired), (status = 403, description = "Not your report, or a cross-site request refused", body = schemas::ErrorBody), (status = 404, response = schemas::NoItem), (status = 413, response = schemas::TooLarge),
    ))]
async fn close(
    State(state): State<AppState>,
    SignedIn(session): SignedIn,
    Path(id): Path<String>,
    RawQuery(raw): RawQuery,
    body: JsonObject,
) -> Result<Response> {
    let reason = parse_close_reason(&body.fields)?;
    let (item, keys) = acted_on(&state, &session, &id, raw.as_deref()).await?;
    let item = reports::close(&state, &session.user, &item, reason.as_deref()).await?;
    answer(&state, &item, &keys).await
}

/// Corrects a report: its reporter, while it is open, or its site's staff. Only what is sent
/// changes; `null` clears a description, category or place, and removes the photo.
#[utoipa::path(patch, path = "/api/items/{id}/report", operation_id = "editReport", tag = "items", security(("session" = [])), params(("id" = i64, Path, minimum = 1, description = "Item id"), schemas::FieldsQuery),
    request_body = schemas::ReportEditBody,
    responses(
        (status = 200, description = "The corrected item (an approved report its reporter corrected is `pending` again when the office reviews corrections)", body = schemas::Item),
        (status = 400, description = "No fields to update, Item cannot be edited (closed, returned or disposed of), a bad field (the texts of a new report's), Invalid item ID, Invalid fields", body = schemas::ErrorBody),
        (status = 401, response = schemas::LoginRequired), (status = 403, description = "Not your report; or staff of another site", body = schemas::ErrorBody), (status = 404, response = schemas::NoItem), (status = 413, response = schemas::TooLarge),
    ))]
async fn edit(
    State(state): State<AppState>,
    SignedIn(session): SignedIn,
    Path(id): Path<String>,
    RawQuery(raw): RawQuery,
    body: JsonObject,
) -> Result<Response> {
    // Checking a photo means decoding it and making its thumbnail.
    let edit = state
        .cpu
        .run(body.len, move || ReportEdit::parse(&body.fields))
        .await??;
    let (item, keys) = acted_on(&state, &session, &id, raw.as_deref()).await?;
    let item = reports::edit(&state, &session.user, &item, &edit).await?;
    answer(&state, &item, &keys).await
}

/// The item's change log, oldest first: who reviewed, handed over or deleted it, and when.
/// It outlives the item.
#[utoipa::path(get, path = "/api/items/{id}/history", operation_id = "getItemHistory", tag = "items", security(("session" = [])),
    params(("id" = i64, Path, minimum = 1, description = "Item id")),
    responses(
        (status = 200, description = "The change log", body = [ChangeJson]),
        (status = 400, response = schemas::BadItemId),
        (status = 401, response = schemas::LoginRequired),
        (status = 403, response = schemas::AdminOnly),
        (status = 404, description = "Item not found (and never changed)", body = schemas::ErrorBody),
    ))]
async fn history(
    State(state): State<AppState>,
    _: May<ReadAll>,
    Path(id): Path<String>,
) -> Result<Json<Vec<ChangeJson>>> {
    let id = ItemId::parse(&id)?;
    let changes = state.store.item_changes(id).await?;
    if changes.is_empty() && state.store.item(id).await?.is_none() {
        return Err(ItemNotFound.into());
    }
    Ok(Json(changes.into_iter().map(ChangeJson::from).collect()))
}

/// Which picture of an item.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Picture {
    Photo,
    Thumbnail,
}

#[utoipa::path(get, path = "/api/items/{id}/photo", operation_id = "getPhoto", tag = "items", params(("id" = i64, Path, minimum = 1, description = "Item id"), ("v" = Option<String>, Query, description = "The version from `photoUrl`/`thumbUrl`: cached for ever")),
    responses(
        (status = 200, description = "The photo", content_type = "image/*", body = Vec<u8>),
        (status = 304, response = schemas::NotModified), (status = 400, response = schemas::BadItemId), (status = 404, description = "Item not found, or it has no photo", body = schemas::ErrorBody),
    ))]
async fn photo(state: State<AppState>, id: Path<String>, raw: RawQuery, headers: HeaderMap) -> Result<Response> {
    picture(state, id, raw, headers, Picture::Photo).await
}

#[utoipa::path(get, path = "/api/items/{id}/thumb", operation_id = "getThumbnail", tag = "items", params(("id" = i64, Path, minimum = 1, description = "Item id"), ("v" = Option<String>, Query, description = "The version from `photoUrl`/`thumbUrl`: cached for ever")),
    responses(
        (status = 200, description = "The thumbnail (a placeholder without a photo)", content_type = "image/*", body = Vec<u8>),
        (status = 304, response = schemas::NotModified), (status = 400, response = schemas::BadItemId), (status = 404, description = "Item not found, or it has no photo", body = schemas::ErrorBody),
    ))]
async fn thumbnail(state: State<AppState>, id: Path<String>, raw: RawQuery, headers: HeaderMap) -> Result<Response> {
    picture(state, id, raw, headers, Picture::Thumbnail).await
}

/// The photo or thumbnail of an item, with its type and ETag; cached for ever when asked
/// for by its current versioned URL.
async fn picture(
    State(state): State<AppState>,
    Path(id): Path<String>,
    RawQuery(raw): RawQuery,
    headers: HeaderMap,
    which: Picture,
) -> Result<Response> {
    let id = ItemId::parse(&id)?;
    let not_found = || AppError::NotFound("Photo not found");
    let item = state.store.item(id).await?;
    // Who asks matters for a sensitive category's photo in the public view only: a list's
    // thumbnails cost no session lookup.
    let sensitive = item.as_ref().is_some_and(|item| item.sensitive);
    let reader = Reader::of_request(&state, &headers, sensitive && Reader::public_view_limited(&state)).await?;
    let item = reader.readable(item)?;
    // A sensitive category's photo is its reporter's and staff's only.
    if reader.shown().withholds(&item, ItemKey::PhotoUrl) {
        return Err(not_found());
    }
    let version = item.photo_version.ok_or_else(not_found)?;
    let tag = match which {
        Picture::Photo => etag(&version),
        Picture::Thumbnail => etag(&format!("{version}-t")),
    };
    let versioned = Params::parse(raw.as_deref(), &[])?.get("v") == Some(version.as_str());
    let cache = HeaderValue::from_static(match versioned {
        false => "no-cache",
        true if state.config.custody.is_public(item.status) && !item.sensitive => IMMUTABLE,
        true => PRIVATE,
    });
    let validators = [(header::ETAG, tag), (header::CACHE_CONTROL, cache)];
    if matches(&headers, &validators[0].1) {
        return Ok(not_modified(validators));
    }
    let (content_type, bytes) = match which {
        Picture::Photo => {
            let photo = state.store.photo(id).await?.ok_or_else(not_found)?;
            (photo.content_type(), photo.bytes)
        }
        Picture::Thumbnail => {
            let thumb = state.store.thumbnail(id).await?.ok_or_else(not_found)?;
            (thumb.content_type, thumb.bytes)
        }
    };
    let content_type = HeaderValue::from_str(&content_type).map_err(|_| not_found())?;
    Ok((
        validators,
        [
            (header::CONTENT_TYPE, content_type),
            (
                header::CONTENT_SECURITY_POLICY,
                HeaderValue::from_static("default-src 'none'"),
            ),
        ],
        bytes,
    )
        .into_response())
}

/// "Not mine": the signed-in user says a suggested item is not theirs. It is no longer
/// suggested to them (their reports' matches, match notices); the answer is kept for the
/// office.
#[utoipa::path(post, path = "/api/items/{id}/not-mine", operation_id = "sayNotMine", tag = "items", security(("session" = [])), params(("id" = i64, Path, minimum = 1, description = "Item id")),
    responses((status = 200, description = "Recorded", body = OkJson), (status = 400, response = schemas::BadItemId), (status = 401, response = schemas::LoginRequired), (status = 403, response = schemas::CrossSite), (status = 404, response = schemas::NoItem)))]
async fn not_mine(
    State(state): State<AppState>,
    SignedIn(session): SignedIn,
    Path(id): Path<String>,
) -> Result<Json<OkJson>> {
    let id = ItemId::parse(&id)?;
    Reader::of(&state, Some(&session)).readable(state.store.item(id).await?)?;
    state.store.answer_not_mine(&session.user.id, id, now_ms()).await?;
    Ok(Json(OkJson::DONE))
}

/// Takes back a "not mine": the item may be suggested again.
#[utoipa::path(delete, path = "/api/items/{id}/not-mine", operation_id = "takeBackNotMine", tag = "items", security(("session" = [])), params(("id" = i64, Path, minimum = 1, description = "Item id")),
    responses((status = 200, description = "Taken back (or there was nothing to take back)", body = OkJson), (status = 400, response = schemas::BadItemId), (status = 401, response = schemas::LoginRequired), (status = 403, response = schemas::CrossSite)))]
async fn take_back_not_mine(
    State(state): State<AppState>,
    SignedIn(session): SignedIn,
    Path(id): Path<String>,
) -> Result<Json<OkJson>> {
    let id = ItemId::parse(&id)?;
    state.store.forget_not_mine(&session.user.id, id).await?;
    Ok(Json(OkJson::DONE))
}
