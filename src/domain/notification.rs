//! What the service tells people, and in which words.

use serde_json::{Map, Value};

use super::{ItemId, ItemStatus, Lang, Phrase, Site, ValidationError, parse_limit};

/// Notifications a page holds when the request does not say.
const DEFAULT_PAGE: u32 = 50;
/// Notifications marked read by one request at most.
pub const MAX_IDS: usize = 200;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NoticeKind {
    /// A report of yours was approved, rejected or put back to pending.
    ItemStatus,
    /// Where a report of yours is kept was recorded or cleared.
    StoragePlace,
    /// An item was approved that may be the one you reported.
    Match,
    /// Administrators: someone claimed a found item.
    ClaimReceived,
    /// A claim of yours was accepted or rejected.
    ClaimDecided,
    /// Administrators: new reports wait for review.
    Review,
    /// Someone wrote in the thread of a report of yours, or of one you wrote in.
    ThreadReply,
}

impl NoticeKind {
    /// Every kind, in the order My account lists them.
    pub const ALL: [Self; 7] = [
        Self::Match,
        Self::ItemStatus,
        Self::StoragePlace,
        Self::ClaimDecided,
        Self::ThreadReply,
        Self::ClaimReceived,
        Self::Review,
    ];

    /// The kind `name` names (as [`NoticeKind::as_str`] writes it).
    pub fn named(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|kind| kind.as_str() == name)
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Self::ItemStatus => "itemStatus",
            Self::StoragePlace => "storagePlace",
            Self::Match => "match",
            Self::ClaimReceived => "claimReceived",
            Self::ClaimDecided => "claimDecided",
            Self::Review => "review",
            Self::ThreadReply => "threadReply",
        }
    }
}

/// A notification to be written: what, about which item, in which words (said in each
/// reader's language).
#[derive(Debug, Clone, PartialEq)]
pub struct Notice {
    pub kind: NoticeKind,
    pub item_id: ItemId,
    pub phrase: Phrase,
    /// A match notice that tells of several found items at once: all of them, best first
    /// (`item_id` is the first). Empty otherwise.
    pub items: Vec<ItemId>,
}

/// Stands for the count in [`review_phrase`] where the database counts (PostgreSQL's
/// one-statement create writes the number over it).
pub const COUNT_MARK: &str = "{count}";

/// The words of a review notice for `count` new reports: a number, or [`COUNT_MARK`].
pub fn review_phrase(count: &str) -> Phrase {
    match count {
        "1" => Phrase::new("review.one", &[]),
        _ => Phrase::new("review.many", &[("count", count)]),
    }
}

impl Notice {
    fn new(kind: NoticeKind, item_id: ItemId, phrase: Phrase) -> Self {
        Self {
            kind,
            item_id,
            phrase,
            items: Vec::new(),
        }
    }

    /// The words in English: the notification's `text` in the API.
    pub fn text(&self) -> String {
        self.phrase.say(Lang::En)
    }

    /// A report's new state, with the reason staff gave for rejecting it, if any.
    pub fn status_changed(item_id: ItemId, title: &str, status: ItemStatus, reason: Option<&str>) -> Self {
        let phrase = match reason {
            Some(reason) => Phrase::new(
                &format!("status.{status}.reason"),
                &[("title", title), ("reason", reason)],
            ),
            None => Phrase::new(&format!("status.{status}"), &[("title", title)]),
        };
        Self::new(NoticeKind::ItemStatus, item_id, phrase)
    }

    pub fn storage_changed(item_id: ItemId, title: &str, place: Option<&str>) -> Self {
        let phrase = match place {
            Some(place) => Phrase::new("storage.kept", &[("title", title), ("place", place)]),
            None => Phrase::new("storage.cleared", &[("title", title)]),
        };
        Self::new(NoticeKind::StoragePlace, item_id, phrase)
    }

    /// To the reporter of `item_id`: `title` was approved and may be the same object.
    pub fn may_match(item_id: ItemId, title: &str) -> Self {
        Self::new(
            NoticeKind::Match,
            item_id,
            Phrase::new("match.reported", &[("title", title)]),
        )
    }

    /// To the owner of a lost report: found items that are likely it were approved (or
    /// their report was, after them), best first; one notice for them all.
    pub fn found_matches(found: &[(ItemId, &str)], lost_title: &str) -> Option<Self> {
        let (best, best_title) = *found.first()?;
        let phrase = if found.len() == 1 {
            Phrase::new("match.found", &[("found", best_title), ("lost", lost_title)])
        } else {
            let titles: Vec<&str> = found.iter().map(|(_, title)| *title).collect();
            Phrase::new(
                "match.found.many",
                &[
                    ("count", &found.len().to_string()),
                    ("found", &titles.join(" / ")),
                    ("lost", lost_title),
                ],
            )
        };
        let mut notice = Self::new(NoticeKind::Match, best, phrase);
        if found.len() > 1 {
            notice.items = found.iter().map(|(id, _)| *id).collect();
        }
        Some(notice)
    }

    /// To administrators: `count` new reports arrived for review (the first of them
    /// `first`) since the notice was written.
    pub fn review_waiting(first: ItemId, count: i64) -> Self {
        Self::new(NoticeKind::Review, first, review_phrase(&count.to_string()))
    }

    /// To the reporter of `item_id` and those who wrote in its thread: `nick` wrote there.
    pub fn thread_reply(item_id: ItemId, title: &str, nick: &str) -> Self {
        Self::new(
            NoticeKind::ThreadReply,
            item_id,
            Phrase::new("thread.reply", &[("nick", nick), ("title", title)]),
        )
    }

    pub fn claim_received(item_id: ItemId, title: &str) -> Self {
        Self::new(
            NoticeKind::ClaimReceived,
            item_id,
            Phrase::new("claim.received", &[("title", title)]),
        )
    }

    /// A claim accepted: the item is ready for pickup at its site — where the site is, its
    /// hours, how to reach it and what ID to bring, never the shelf it sits on. The office
    /// (`LOSTFOUND_OFFICE`) stands in when the site says none of where, when or what to bring.
    pub fn claim_ready(item_id: ItemId, title: &str, site: Option<&Site>, office: Option<&str>) -> Self {
        let mut phrase = match site {
            Some(site) => Phrase::new("claim.ready", &[("title", title), ("site", &site.name)]),
            None => Phrase::new("claim.accepted", &[("title", title)]),
        };
        let lines = site.map_or([None; 4], |site| {
            [
                site.place.as_deref().map(|v| ("claim.ready.place", v)),
                site.hours.as_deref().map(|v| ("claim.ready.hours", v)),
                site.contact.as_deref().map(|v| ("claim.ready.contact", v)),
                site.collect.as_deref().map(|v| ("claim.ready.bring", v)),
            ]
        });
        let says_how = lines[0].is_some() || lines[1].is_some() || lines[3].is_some();
        for (key, value) in lines.into_iter().flatten() {
            phrase = phrase.then(key, &[("value", value)]);
        }
        if let Some(office) = office.filter(|_| !says_how) {
            phrase = phrase.then("claim.accepted.office", &[("office", office)]);
        }
        Self::new(NoticeKind::ClaimDecided, item_id, phrase)
    }

    /// The claimant collected the item (or someone for them): their receipt waits in the app.
    pub fn claim_collected(item_id: ItemId, title: &str) -> Self {
        Self::new(
            NoticeKind::ClaimDecided,
            item_id,
            Phrase::new("claim.collected", &[("title", title)]),
        )
    }

    /// An accepted claim called off before the handover, and why.
    pub fn claim_cancelled(item_id: ItemId, title: &str, reason: &str) -> Self {
        Self::new(
            NoticeKind::ClaimDecided,
            item_id,
            Phrase::new("claim.cancelled", &[("title", title), ("reason", reason)]),
        )
    }

    /// To the staff of the item's desk: a claimant wrote in their claim's conversation.
    pub fn claimant_wrote(item_id: ItemId, title: &str) -> Self {
        Self::new(
            NoticeKind::ClaimReceived,
            item_id,
            Phrase::new("claim.message.fromClaimant", &[("title", title)]),
        )
    }

    /// To a claimant: the desk wrote in their claim's conversation. The words stay in the
    /// app, where only the two sides read them.
    pub fn desk_wrote(item_id: ItemId, title: &str) -> Self {
        Self::new(
            NoticeKind::ClaimDecided,
            item_id,
            Phrase::new("claim.message.fromDesk", &[("title", title)]),
        )
    }

    /// To the staff of the item's desk: its claimant asks for it to be posted.
    pub fn post_requested(item_id: ItemId, title: &str) -> Self {
        Self::new(
            NoticeKind::ClaimReceived,
            item_id,
            Phrase::new("post.requested", &[("title", title)]),
        )
    }

    /// To the claimant: what posting the item costs (`None`: nothing).
    pub fn post_priced(item_id: ItemId, title: &str, fee: Option<&str>) -> Self {
        let phrase = match fee {
            Some(fee) => Phrase::new("post.fee", &[("title", title), ("fee", fee)]),
            None => Phrase::new("post.free", &[("title", title)]),
        };
        Self::new(NoticeKind::ClaimDecided, item_id, phrase)
    }

    pub fn post_paid(item_id: ItemId, title: &str) -> Self {
        Self::new(
            NoticeKind::ClaimDecided,
            item_id,
            Phrase::new("post.paid", &[("title", title)]),
        )
    }

    /// To the claimant: the item left by post, and how to follow it.
    pub fn post_sent(item_id: ItemId, title: &str, carrier: &str, tracking: &str) -> Self {
        Self::new(
            NoticeKind::ClaimDecided,
            item_id,
            Phrase::new(
                "post.sent",
                &[("title", title), ("carrier", carrier), ("tracking", tracking)],
            ),
        )
    }

    /// To whoever reported a found item: it went back to its owner.
    pub fn went_home(item_id: ItemId, title: &str) -> Self {
        Self::new(
            NoticeKind::ItemStatus,
            item_id,
            Phrase::new("found.returned", &[("title", title)]),
        )
    }

    pub fn claim_refused(item_id: ItemId, title: &str) -> Self {
        Self::new(
            NoticeKind::ClaimDecided,
            item_id,
            Phrase::new("claim.refused", &[("title", title)]),
        )
    }
}

/// A notification as stored for one user.
#[derive(Debug, Clone, PartialEq)]
pub struct Notification {
    pub id: i64,
    pub user_id: String,
    pub kind: String,
    pub item_id: Option<i64>,
    pub text: String,
    /// Epoch milliseconds.
    pub created_at: i64,
    pub read: bool,
    /// Its words as catalog keys and values ([`Phrase::to_json`]); none in notifications
    /// written before they were kept.
    pub phrase: Option<String>,
    /// A match notification's found items, best first, when it tells of several.
    pub items: Vec<i64>,
}

impl Notification {
    /// Its text in `lang`: English as stored, or said again from its phrase.
    pub fn text_in(&self, lang: Lang) -> String {
        match self.phrase.as_deref().and_then(Phrase::from_json) {
            Some(phrase) if lang != Lang::En => phrase.say(lang),
            _ => self.text.clone(),
        }
    }
}

/// Which page of notifications `GET /api/notifications` asks for: at most `limit` (1–200,
/// default 50), older than notification `before` when given.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NotificationPage {
    limit: u32,
    before: Option<i64>,
}

impl NotificationPage {
    /// Checks the query parameters, given by name.
    pub fn parse<'a>(param: impl Fn(&str) -> Option<&'a str>) -> Result<Self, ValidationError> {
        let before = param("before")
            .map(|before| {
                before
                    .parse::<i64>()
                    .ok()
                    .filter(|id| *id > 0)
                    .ok_or_else(|| ValidationError::new("before", "Invalid cursor"))
            })
            .transpose()?;
        Ok(Self {
            limit: param("limit").map(parse_limit).transpose()?.unwrap_or(DEFAULT_PAGE),
            before,
        })
    }

    pub fn limit(self) -> u32 {
        self.limit
    }

    pub fn before(self) -> Option<i64> {
        self.before
    }
}

/// The body of `POST /api/notifications/read`: `{ ids: [1, 2, …] }`, positive integers, at
/// most [`MAX_IDS`] of them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NotificationIds(Vec<i64>);

impl NotificationIds {
    pub fn parse(body: &Map<String, Value>) -> Result<Self, ValidationError> {
        body.get("ids")
            .and_then(Value::as_array)
            .filter(|ids| ids.len() <= MAX_IDS)
            .and_then(|ids| {
                ids.iter()
                    .map(|id| id.as_i64().filter(|id| *id > 0))
                    .collect::<Option<Vec<i64>>>()
            })
            .map(Self)
            .ok_or_else(|| ValidationError::new("ids", "Invalid ids"))
    }

    pub fn as_slice(&self) -> &[i64] {
        &self.0
    }
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use serde_json::json;

    use super::*;

    fn page(query: &[(&str, &str)]) -> Result<NotificationPage, ValidationError> {
        let params: HashMap<&str, &str> = query.iter().copied().collect();
        NotificationPage::parse(|name| params.get(name).copied())
    }

    #[test]
    fn pages_default_to_fifty_and_check_their_cursor() {
        assert_eq!((page(&[]).unwrap().limit(), page(&[]).unwrap().before()), (50, None));
        let asked = page(&[("limit", "3"), ("before", "17")]).unwrap();
        assert_eq!((asked.limit(), asked.before()), (3, Some(17)));
        assert_eq!(page(&[("limit", "0")]).unwrap_err().message, "Invalid limit");
        for bad in ["0", "-2", "x"] {
            assert_eq!(page(&[("before", bad)]).unwrap_err().message, "Invalid cursor");
        }
    }

    #[test]
    fn ids_are_positive_integers_and_bounded() {
        let object = |v: Value| v.as_object().unwrap().clone();
        let ids = NotificationIds::parse(&object(json!({ "ids": [3, 1] }))).unwrap();
        assert_eq!(ids.as_slice(), [3, 1]);
        let too_many: Vec<i64> = (1..=201).collect();
        for bad in [
            json!({}),
            json!({ "ids": [0] }),
            json!({ "ids": ["1"] }),
            json!({ "ids": too_many }),
        ] {
            assert_eq!(NotificationIds::parse(&object(bad)).unwrap_err().message, "Invalid ids");
        }
    }
}
