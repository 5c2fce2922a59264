//! Answers that carry items: a list produced as it is sent (a batch, or a photo, at a time),
//! kept in the answer cache once whole when it is small; one item with its ETag; photos as
//! `data:` URLs when `imgData` is asked for.

use std::sync::Arc;

use axum::{
    Json,
    body::{Body, Bytes},
    http::{HeaderMap, HeaderName, HeaderValue, header},
    response::{IntoResponse, Response},
};
use futures_util::{Stream, StreamExt, stream};
use sha2::{Digest, Sha256};

use super::{
    conditional::{etag, hex, matches, not_modified},
    fields::{ItemKey, ItemKeys},
    views::ItemJson,
};
use crate::{
    cache::{Answer, AnswerCache},
    domain::Item,
    error::Result,
    state::AppState,
    store::StoreError,
};

/// Answers up to this size are kept in the answer cache (one with big photos in it is not).
const MAX_KEPT: usize = 256 * 1024;

/// A short, stable digest of some text, for ETags.
pub(super) fn digest(text: &str) -> String {
    hex(&Sha256::digest(text.as_bytes())[..6])
}

/// The JSON array of every item `batches` yields, produced as it is sent: one batch (or, with
/// photos, one item) at a time, a bounded number of lists at once, and nothing produced
/// while the client is not reading. No database connection is held between batches.
pub(super) fn stream_list(
    state: AppState,
    batches: impl Stream<Item = Result<Vec<Item>, StoreError>> + Send + 'static,
    keys: ItemKeys,
    keep: Keep,
) -> Body {
    let (chunks, body) = tokio::sync::mpsc::channel::<std::io::Result<Bytes>>(1);
    tokio::spawn(async move {
        if let Err(err) = produce_list(&state, batches, &keys, &chunks, keep).await {
            // The status is sent; cutting the body short is how the client learns.
            tracing::error!(error = %err, "a list answer failed part-way");
            let _ = chunks
                .send(Err(std::io::Error::other("the list could not be completed")))
                .await;
        }
    });
    Body::from_stream(stream::unfold(body, |mut body| async move {
        body.recv().await.map(|chunk| (chunk, body))
    }))
}

type Chunks = tokio::sync::mpsc::Sender<std::io::Result<Bytes>>;

/// A copy of a small answer as it is sent, to keep in the answer cache once whole.
pub(super) struct Keep {
    version: i64,
    request: String,
    headers: Vec<(HeaderName, HeaderValue)>,
    parts: Vec<Bytes>,
    size: usize,
    /// False for answers that change with the time, not only with the items.
    wanted: bool,
}

impl Keep {
    /// `wanted`: false for an answer that changes with the time, not only with the items.
    pub(super) fn new(version: i64, request: String, headers: &[(HeaderName, HeaderValue)], wanted: bool) -> Self {
        Self {
            version,
            request,
            headers: headers.to_vec(),
            parts: Vec::new(),
            size: 0,
            wanted,
        }
    }

    /// Copies `part`; an answer past [`MAX_KEPT`] is not kept.
    fn copy(&mut self, part: &Bytes) {
        self.size += part.len();
        if self.wanted && self.size <= MAX_KEPT {
            self.parts.push(part.clone());
        }
    }

    fn done(self, answers: &AnswerCache) {
        if self.wanted && self.size <= MAX_KEPT {
            let body = Bytes::from(self.parts.concat());
            answers.put(
                self.version,
                self.request,
                Answer {
                    headers: self.headers,
                    body,
                },
            );
        }
    }
}

/// Keeps `answer` in the cache when it is small, and sends it.
pub(super) fn keep_and_send(answers: &AnswerCache, version: i64, request: String, answer: Answer) -> Response {
    if answer.body.len() <= MAX_KEPT {
        answers.put(version, request, answer.clone());
    }
    send_kept(answer, &HeaderMap::new())
}

/// A kept answer, or 304 when the client has it already.
pub(super) fn send_kept(answer: Answer, request: &HeaderMap) -> Response {
    let tag = answer.headers.iter().find(|(name, _)| name == header::ETAG);
    if let Some((_, tag)) = tag.filter(|(_, tag)| matches(request, tag)) {
        return not_modified([(header::ETAG, tag.clone())]);
    }
    let mut response = Body::from(answer.body).into_response();
    response.headers_mut().extend(answer.headers);
    response
}

async fn produce_list(
    state: &AppState,
    batches: impl Stream<Item = Result<Vec<Item>, StoreError>>,
    keys: &ItemKeys,
    chunks: &Chunks,
    mut keep: Keep,
) -> Result<()> {
    let mut batches = std::pin::pin!(batches);
    let mut first = true;
    loop {
        let batch = {
            let _producing = state.list_production.acquire().await.map_err(anyhow::Error::from)?;
            match batches.next().await {
                Some(batch) => batch?,
                None => break,
            }
        };
        if batch.is_empty() {
            continue;
        }
        // Without photos a batch is a few hundred kilobytes at most: one chunk. With them,
        // each photo on its own.
        let groups = if keys.contains(ItemKey::ImgData) {
            apart_from_photos(batch)
        } else {
            vec![batch]
        };
        for group in groups {
            let chunk = {
                let _producing = state.list_production.acquire().await.map_err(anyhow::Error::from)?;
                serialize(state, group, keys, first).await?
            };
            first = false;
            keep.copy(&chunk);
            if chunks.send(Ok(chunk)).await.is_err() {
                // The client went away.
                return Ok(());
            }
        }
    }
    let end = Bytes::from_static(if first { b"[]" } else { b"]" });
    keep.copy(&end);
    let _ = chunks.send(Ok(end)).await;
    keep.done(&state.answers);
    Ok(())
}

/// `items` in order, in groups: each item with a photo alone (a photo may be megabytes), the
/// items between them together.
fn apart_from_photos(items: Vec<Item>) -> Vec<Vec<Item>> {
    let mut groups: Vec<Vec<Item>> = Vec::new();
    for item in items {
        match groups.last_mut() {
            Some(group) if item.photo_version.is_none() && group[0].photo_version.is_none() => group.push(item),
            _ => groups.push(vec![item]),
        }
    }
    groups
}

/// Items as the next part of a JSON array: each preceded by `[` (the very first) or `,`.
async fn serialize(state: &AppState, items: Vec<Item>, keys: &ItemKeys, first: bool) -> Result<Bytes> {
    let mut photos = Vec::with_capacity(items.len());
    for item in &items {
        photos.push(img_data(state, item, keys).await?);
    }
    let size = photos.iter().flatten().map(String::len).sum::<usize>() + items.len() * 512;
    let (keys, hold) = (keys.clone(), Arc::clone(&state.hold));
    let chunk = state
        .cpu
        .run(size, move || {
            let mut chunk = Vec::with_capacity(size);
            for (n, (item, photo)) in items.iter().zip(&photos).enumerate() {
                chunk.push(if first && n == 0 { b'[' } else { b',' });
                serde_json::to_writer(&mut chunk, &ItemJson::new(item, &keys, &hold, photo.as_deref()))?;
            }
            Ok::<_, serde_json::Error>(chunk)
        })
        .await?
        .map_err(anyhow::Error::from)?;
    Ok(Bytes::from(chunk))
}

/// The item's photo as a `data:` URL, when the answer shows `imgData` to its reader and there
/// is one.
pub(super) async fn img_data(state: &AppState, item: &Item, keys: &ItemKeys) -> Result<Option<String>> {
    if !keys.contains(ItemKey::ImgData) || item.photo_version.is_none() || keys.withholds(item, ItemKey::ImgData) {
        return Ok(None);
    }
    let Some(photo) = state.store.photo(item.id).await? else {
        return Ok(None);
    };
    Ok(Some(state.cpu.run(photo.bytes.len(), move || photo.data_url()).await?))
}

/// One item as an answer: the selected keys, its ETag.
pub(super) async fn answer(state: &AppState, item: &Item, keys: &ItemKeys) -> Result<Response> {
    let photo = img_data(state, item, keys).await?;
    let tag = item_etag(item, keys);
    Ok((
        [(header::ETAG, tag)],
        Json(ItemJson::new(item, keys, &state.hold, photo.as_deref())),
    )
        .into_response())
}

/// Names one state of one item in one selection of keys, as its reader is shown it. Its
/// `holdUntil` follows its category's and site's periods, which change no item's version:
/// they are named too when it is selected.
pub(super) fn item_etag(item: &Item, keys: &ItemKeys) -> HeaderValue {
    let periods = match keys.contains(ItemKey::HoldUntil) {
        true => format!(".{:?}.{:?}", item.category_hold_days, item.site_hold_days),
        false => String::new(),
    };
    etag(&format!(
        "i{}.{}.{}{periods}",
        item.id,
        item.version,
        digest(&keys.tag(item))
    ))
}
