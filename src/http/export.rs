//! `GET /api/items.csv`: the items a list's filters select, as CSV for a spreadsheet, streamed
//! a batch at a time (the whole table never sits in memory).

use axum::{
    Router,
    body::{Body, Bytes},
    extract::{RawQuery, State},
    http::header,
    response::{IntoResponse, Response},
    routing::get,
};
use futures_util::{StreamExt, stream};

use super::{
    current_user::{May, ReadAll},
    extract::Params,
    items::LIST_PARAMS,
    schemas,
};
use crate::{
    domain::{HoldPolicy, Item, ListRequest},
    error::Result,
    state::AppState,
    time::format_ms,
};

/// List parameters an export ignores.
const PAGING: [&str; 3] = ["limit", "cursor", "fields"];
/// Items read from the database at a time.
const BATCH: u32 = 500;

const COLUMNS: [&str; 22] = [
    "id",
    "kind",
    "status",
    "title",
    "description",
    "category",
    "lat",
    "lng",
    "radius",
    "storagePlace",
    "createdAt",
    "createdBy",
    "returnedAt",
    "hasPhoto",
    "holdUntil",
    "disposedAt",
    "disposal",
    "disposalNote",
    "closedAt",
    "finderName",
    "finderContact",
    "place",
];

pub fn router() -> Router<AppState> {
    Router::new().route("/api/items.csv", get(export))
}

/// Every item the filters select (those of `GET /api/items`, a search by meaning and
/// forgiving words too; `limit`, `cursor` and `fields` are ignored), newest first, one row each.
#[utoipa::path(get, path = "/api/items.csv", operation_id = "exportItems", tag = "items", security(("session" = [])),
    params(schemas::FilterQuery),
    responses(
        (status = 200, description = "CSV with a header row; `Content-Disposition: attachment`", content_type = "text/csv", body = String),
        (status = 400, description = "A bad filter, as for `GET /api/items`", body = schemas::ErrorBody),
        (status = 401, response = schemas::LoginRequired),
        (status = 403, response = schemas::AdminOnly),
    ))]
async fn export(State(state): State<AppState>, _: May<ReadAll>, RawQuery(raw): RawQuery) -> Result<Response> {
    let params = Params::parse(raw.as_deref(), &LIST_PARAMS)?;
    // Everything the filters select: paging and `fields` do not apply to a table.
    let mut request = ListRequest::parse(|name| params.get(name).filter(|_| !PAGING.contains(&name)))?;
    if request.due {
        request.filter.due = Some(state.due_now());
    }
    // A search finds what `GET /api/items?q=` finds (newest first here, as every export).
    if let Some(q) = params.get("q").filter(|_| !request.filter.words.is_empty()) {
        state.meanings.widen(&state.store, &mut request.filter, q).await?;
    }
    let header_row = stream::once(async { header_row() });
    let hold = std::sync::Arc::clone(&state.hold);
    let items = state
        .store
        .stream_items(request.filter, None, BATCH)
        .map(move |batch| batch.map(|items| rows(&items, &hold)).map_err(std::io::Error::other));
    let body = Body::from_stream(header_row.map(Ok::<_, std::io::Error>).chain(items));
    Ok((
        [
            (header::CONTENT_TYPE, "text/csv; charset=utf-8"),
            (header::CONTENT_DISPOSITION, "attachment; filename=\"items.csv\""),
        ],
        body,
    )
        .into_response())
}

/// The header row.
fn header_row() -> Bytes {
    csv_bytes(|csv| csv.write_record(COLUMNS))
}

/// `items` as CSV rows.
fn rows(items: &[Item], hold: &HoldPolicy) -> Bytes {
    csv_bytes(|csv| items.iter().try_for_each(|item| csv.write_record(row(item, hold))))
}

/// What `write` writes, as CSV bytes.
fn csv_bytes(write: impl FnOnce(&mut csv::Writer<Vec<u8>>) -> csv::Result<()>) -> Bytes {
    let mut csv = csv::Writer::from_writer(Vec::new());
    write(&mut csv).expect("writing CSV to memory cannot fail");
    Bytes::from(csv.into_inner().expect("writing CSV to memory cannot fail"))
}

fn row(item: &Item, hold: &HoldPolicy) -> [String; 22] {
    let text = |value: Option<&str>| value.map(inert).unwrap_or_default();
    let time = |ms: Option<i64>| ms.map(format_ms).unwrap_or_default();
    let (disposal, finder) = (item.disposal.as_ref(), item.finder.as_ref());
    [
        item.id.to_string(),
        item.kind.as_str().to_owned(),
        item.status.as_str().to_owned(),
        inert(&item.title),
        text(item.desc.as_deref()),
        text(item.cat.as_deref()),
        item.lat.to_string(),
        item.lng.to_string(),
        item.radius.to_string(),
        text(item.storage_place.as_deref()),
        format_ms(item.created_at),
        inert(&item.created_by),
        time(item.returned_at),
        item.photo_version.is_some().to_string(),
        time(item.hold_until(hold)),
        time(disposal.map(|d| d.at)),
        disposal.map(|d| d.method.as_str().to_owned()).unwrap_or_default(),
        text(disposal.and_then(|d| d.note.as_deref())),
        time(item.closed_at),
        text(finder.and_then(|f| f.name.as_deref())),
        text(finder.and_then(|f| f.contact.as_deref())),
        text(item.place.as_deref()),
    ]
}

/// User text that a spreadsheet would run as a formula (`=`, `+`, `-`, `@`, a tab or a
/// carriage return first) gets a leading `'`, which shows it as the text it is.
fn inert(text: &str) -> String {
    if text.starts_with(['=', '+', '-', '@', '\t', '\r']) {
        format!("'{text}")
    } else {
        text.to_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formulas_stay_text() {
        assert_eq!(inert("=HYPERLINK(\"x\")"), "'=HYPERLINK(\"x\")");
        assert_eq!(inert("-1"), "'-1");
        assert_eq!(inert("Blue umbrella"), "Blue umbrella");
    }
}
