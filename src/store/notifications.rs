//! Notifications: written in the transaction of the change that causes them (so a notice
//! is never lost nor told of a change that was undone), listed per user, marked read; the
//! change returns them as events, for whoever publishes it.

use std::{collections::HashSet, sync::LazyLock};

use super::{
    Store, StoreError, in_place,
    statement::{Arg, Tx},
    with_pool,
};
use crate::domain::{
    COUNT_MARK, Committed, ItemId, Lang, MAX_NOTIFICATION_IDS as MAX_IDS, Notice, NoticeKind, Notification,
    NotificationIds, review_phrase,
};

macro_rules! notification_columns {
    () => {
        "id, user_id, type, item_id, text, created_at, read, phrase, items"
    };
}

/// Match notices name their best item in `item_id`, and all of them in `items` when several.
const TOLD_MATCHES: &str = "SELECT item_id, items FROM notifications WHERE user_id = $1 AND type = $2";
const NOTIFY_USER: &str = concat!(
    "INSERT INTO notifications (user_id, type, item_id, text, created_at, phrase, items) \
     SELECT id, $2, $3, $4, $5, $6, $7 FROM users WHERE id = $1 RETURNING ",
    notification_columns!()
);
/// Who hears of a new message in item `$1`'s thread: its reporter and everyone who wrote there
/// logged in, but its writer (`$2`, NULL when they were not logged in); with the item's title.
const THREAD_LISTENERS: &str = "SELECT who.user_id, i.title FROM ( \
       SELECT created_by AS user_id FROM items WHERE id = $1 \
       UNION SELECT user_id FROM messages WHERE item_id = $1 AND user_id IS NOT NULL \
     ) who JOIN items i ON i.id = $1 \
     WHERE $2 IS NULL OR who.user_id <> $2";
/// Records that user `$1` is emailed now (`$3`) about item `$2`'s thread, unless they were
/// within the hour (`$4`, the hour's start): a row back when the email is due.
const THREAD_MAIL_DUE: &str = "INSERT INTO thread_mail (user_id, item_id, mailed_at) VALUES ($1, $2, $3) \
     ON CONFLICT (user_id, item_id) DO UPDATE SET mailed_at = excluded.mailed_at \
     WHERE thread_mail.mailed_at <= $4 RETURNING mailed_at";
/// At most one email an hour per thread to each person; the bell has every reply.
const THREAD_MAIL_EVERY_MS: i64 = 60 * 60 * 1000;
/// Whether account `u` looks after site `$site` (an SQL expression): it works there, or it is
/// an administrator and nobody active works there. Staff are told of their own site's reports
/// and claims only, and a site without staff is not left unattended.
macro_rules! looks_after_site {
    ($site:expr) => {
        concat!(
            "NOT u.disabled AND (EXISTS (SELECT 1 FROM site_staff w WHERE w.user_id = u.id AND w.site_id = ",
            $site,
            ") OR (u.is_admin AND NOT EXISTS (SELECT 1 FROM site_staff w JOIN users s ON s.id = w.user_id \
             WHERE w.site_id = ",
            $site,
            " AND NOT s.disabled)))"
        )
    };
}
/// Whether account `u` looks after the site of item `$item` (see [`looks_after_site`]).
macro_rules! looks_after_item_site {
    ($item:literal) => {
        looks_after_site!(concat!("(SELECT site_id FROM items WHERE id = ", $item, ")"))
    };
}
/// Notifies those who look after the site of the notice's item (`$2`).
const NOTIFY_SITE_STAFF: &str = concat!(
    "INSERT INTO notifications (user_id, type, item_id, text, created_at, phrase, items) \
     SELECT u.id, $1, $2, $3, $4, $5, $6 FROM users u WHERE ",
    looks_after_item_site!("$2"),
    " RETURNING ",
    notification_columns!()
);
/// How long one review-waiting notification counts the reports that arrive.
const REVIEW_WINDOW_MS: i64 = 10 * 60 * 1000;
/// Those who look after item `$3`'s site but `$1`, each with their review-waiting notification
/// written after `$2`, if any (its id, count and first item): one statement, as each costs the
/// write a round trip to the database's thread.
static REVIEWERS: LazyLock<String> = LazyLock::new(|| {
    format!(
        "SELECT u.id, r.id, r.count, r.item_id FROM users AS u {} WHERE u.id <> $1 AND {}",
        recent_review("$2"),
        looks_after_item_site!("$3")
    )
});
/// Joins to each account `u` its review notification of the window, written after `since`, as
/// `r` (its columns `NULL` without one).
fn recent_review(since: &str) -> String {
    format!(
        "LEFT JOIN notifications AS r ON r.id = (SELECT n.id FROM notifications AS n \
         WHERE n.user_id = u.id AND n.type = 'review' AND n.created_at > {since} ORDER BY n.id DESC LIMIT 1)"
    )
}
/// A row of [`REVIEWERS`]: who looks after the site, and their recent review notification's id,
/// count and first item (all `NULL` without one).
type Reviewer = (String, Option<i64>, Option<i64>, Option<i64>);
const RAISE_REVIEW: &str =
    "UPDATE notifications SET count = count + 1, text = $2, phrase = $3, read = FALSE WHERE id = $1";
/// Marks up to [`MAX_IDS`] notifications of a user read in one statement, prepared once:
/// `id IN ($2, …, $201)`.
static MARK_READ: LazyLock<String> = LazyLock::new(|| {
    let places: Vec<String> = (2..=MAX_IDS + 1).map(|n| format!("${n}")).collect();
    format!(
        "UPDATE notifications SET read = TRUE WHERE user_id = $1 AND id IN ({})",
        places.join(", ")
    )
});
/// Queues to be emailed, due at `at`, the notifications `n` of `from` (the table, or a
/// statement's own rows) that `which` picks: those whose reader has an address and did not ask
/// not to be emailed about their kind.
fn queue_mail(from: &str, which: &str, at: &str) -> String {
    format!(
        "INSERT INTO mail_outbox (notification_id, next_attempt_at) \
         SELECT n.id, {at} FROM {from} n JOIN users u ON u.id = n.user_id \
         WHERE {which} AND u.email IS NOT NULL AND NOT u.disabled \
           AND NOT EXISTS (SELECT 1 FROM mail_optouts o WHERE o.user_id = n.user_id AND o.kind = n.type)"
    )
}
/// Queues to be pushed, due at `at`, the notifications `n` of `from` that `which` picks: one
/// for each of its reader's devices, unless its kind is one they asked not to be sent.
fn queue_push(from: &str, which: &str, at: &str) -> String {
    format!(
        "INSERT INTO push_outbox (notification_id, subscription_id, next_attempt_at) \
         SELECT n.id, s.id, {at} FROM {from} n JOIN push_subscriptions s ON s.user_id = n.user_id \
         WHERE {which} \
           AND NOT EXISTS (SELECT 1 FROM mail_optouts o WHERE o.user_id = n.user_id AND o.kind = n.type)"
    )
}
/// Queues notification `$1` to be emailed at `$2`.
static QUEUE_MAIL: LazyLock<String> = LazyLock::new(|| queue_mail("notifications", "n.id = $1", "$2"));
/// Queues notification `$1` to be pushed at `$2`.
static QUEUE_PUSH: LazyLock<String> = LazyLock::new(|| queue_push("notifications", "n.id = $1", "$2"));
const LIST: &str = concat!(
    "SELECT ",
    notification_columns!(),
    " FROM notifications WHERE user_id = $1 AND ($2 IS NULL OR id < $2) ORDER BY id DESC LIMIT $3"
);

/// A notification's row, as sqlx reads it, or as PostgreSQL's `json_agg` writes it (the
/// one-statement create's).
#[derive(sqlx::FromRow, serde::Deserialize)]
pub(super) struct NotificationRow {
    pub(super) id: i64,
    user_id: String,
    #[sqlx(rename = "type")]
    #[serde(rename = "type")]
    kind: String,
    item_id: Option<i64>,
    text: String,
    created_at: i64,
    read: bool,
    phrase: Option<String>,
    items: Option<String>,
}

/// The columns of `notification_columns`, in their order, as rusqlite reads them.
impl TryFrom<&rusqlite::Row<'_>> for NotificationRow {
    type Error = rusqlite::Error;

    fn try_from(row: &rusqlite::Row<'_>) -> rusqlite::Result<Self> {
        Ok(Self {
            id: row.get(0)?,
            user_id: row.get(1)?,
            kind: row.get(2)?,
            item_id: row.get(3)?,
            text: row.get(4)?,
            created_at: row.get(5)?,
            read: row.get(6)?,
            phrase: row.get(7)?,
            items: row.get(8)?,
        })
    }
}

impl From<NotificationRow> for Notification {
    fn from(row: NotificationRow) -> Self {
        Self {
            id: row.id,
            user_id: row.user_id,
            kind: row.kind,
            item_id: row.item_id,
            text: row.text,
            created_at: row.created_at,
            read: row.read,
            phrase: row.phrase,
            items: listed(row.items.as_deref()).collect(),
        }
    }
}

/// The ids of a notification's `items` column (comma-separated).
fn listed(items: Option<&str>) -> impl Iterator<Item = i64> {
    items
        .into_iter()
        .flat_map(|items| items.split(','))
        .filter_map(|id| id.parse().ok())
}

/// What telling one reviewer of a new report takes.
enum ReviewNotice {
    /// Their recent review notification `id` counts one report more.
    Raise { id: i64, notice: Notice },
    /// A notification of its own for `user`.
    New { user: String, notice: Notice },
}

impl ReviewNotice {
    /// For each reviewer of [`REVIEWERS`] (asked with [`reviewers_args`]), what report `item`
    /// takes: a raise of their notification within the window, else a new one.
    fn of(item: ItemId, reviewers: Vec<Reviewer>) -> impl Iterator<Item = Self> {
        reviewers
            .into_iter()
            .map(move |(user, recent, count, first)| match (recent, count) {
                (Some(id), Some(count)) => {
                    let first = first.and_then(ItemId::new).unwrap_or(item);
                    Self::Raise {
                        id,
                        notice: Notice::review_waiting(first, count + 1),
                    }
                }
                _ => Self::New {
                    user,
                    notice: Notice::review_waiting(item, 1),
                },
            })
    }
}

/// The parameters of [`REVIEWERS`].
fn reviewers_args(item: ItemId, reporter: &str, now: i64) -> [Arg<'_>; 3] {
    [reporter.into(), (now - REVIEW_WINDOW_MS).into(), item.get().into()]
}

/// The parameters of [`RAISE_REVIEW`].
fn raise_args(id: i64, notice: &Notice) -> [Arg<'_>; 3] {
    [id.into(), notice.text().into(), notice.phrase.to_json().into()]
}

/// Writes `notice` for `user` on `tx`, not to be emailed; `None` when there is no such account.
async fn write_notice(
    tx: &mut impl Tx,
    user: &str,
    notice: &Notice,
    now: i64,
) -> sqlx::Result<Option<NotificationRow>> {
    let rows: Vec<NotificationRow> = tx.rows(NOTIFY_USER, &notify_user_args(user, notice, now)).await?;
    Ok(rows.into_iter().next())
}

/// The parameters of [`NOTIFY_USER`].
fn notify_user_args<'a>(user: &'a str, notice: &'a Notice, now: i64) -> [Arg<'a>; 7] {
    let [kind, item, text, at, phrase, items] = notice_args(notice, now);
    [user.into(), kind, item, text, at, phrase, items]
}

/// Where the notifications a store writes are queued to be sent besides the bell: copied out
/// of the store for a write in place (see `in_place`).
#[derive(Debug, Clone, Copy)]
pub(super) struct Outboxes {
    mail: bool,
    push: bool,
}

impl Outboxes {
    /// Queues notification `id`, just written in place, in each outbox.
    fn queue_in_place(self, connection: &rusqlite::Connection, id: i64, now: i64) -> rusqlite::Result<()> {
        if self.mail {
            in_place::run(connection, &QUEUE_MAIL, &[id.into(), now.into()])?;
        }
        if self.push {
            in_place::run(connection, &QUEUE_PUSH, &[id.into(), now.into()])?;
        }
        Ok(())
    }
}

/// [`Store::notify_reviewers`] in place (see `in_place`), queuing what is sent in `outboxes`.
pub(super) fn notify_reviewers_in_place(
    connection: &rusqlite::Connection,
    outboxes: Outboxes,
    item: ItemId,
    reporter: &str,
    now: i64,
) -> rusqlite::Result<Vec<NotificationRow>> {
    let reviewers: Vec<Reviewer> = in_place::rows(connection, &REVIEWERS, &reviewers_args(item, reporter, now))?;
    let mut notified = Vec::new();
    for step in ReviewNotice::of(item, reviewers) {
        match step {
            ReviewNotice::Raise { id, notice } => {
                in_place::run(connection, RAISE_REVIEW, &raise_args(id, &notice))?;
            }
            ReviewNotice::New { user, notice } => {
                let rows: Vec<NotificationRow> =
                    in_place::rows(connection, NOTIFY_USER, &notify_user_args(&user, &notice, now))?;
                for row in &rows {
                    outboxes.queue_in_place(connection, row.id, now)?;
                }
                notified.extend(rows);
            }
        }
    }
    Ok(notified)
}

/// [`Store::notify_reviewers`] as parts of one statement, for PostgreSQL's one-statement create
/// (`items::CREATE_POSTGRES`): what telling those who look after the site of the new item —
/// the statement's `made`, when it is pending — takes, as that does in a transaction (a
/// reviewer's review notification of the window counts one more report, the others get one
/// of their own, `told`, queued to be emailed and pushed where this store sends them). Its
/// parameters, numbered from `first`, are [`review_notice_args`].
pub(super) fn review_notice_ctes(first: usize) -> String {
    let p = |n: usize| format!("${}", first + n);
    let (since, kind, one_text, one_phrase, many_text, many_phrase, mark, now, mail, push) =
        (p(0), p(1), p(2), p(3), p(4), p(5), p(6), p(7), p(8), p(9));
    format!(
        "reviewers AS (SELECT u.id, r.id AS recent FROM made CROSS JOIN users AS u {recent} \
           WHERE made.status = 'pending' AND u.id <> made.created_by AND {looks}), \
         raised AS (UPDATE notifications AS n SET count = n.count + 1, \
           text = replace({many_text}, {mark}, CAST(n.count + 1 AS TEXT)), \
           phrase = replace({many_phrase}, {mark}, CAST(n.count + 1 AS TEXT)), read = FALSE \
           FROM reviewers WHERE n.id = reviewers.recent), \
         told AS (INSERT INTO notifications (user_id, type, item_id, text, created_at, phrase) \
           SELECT reviewers.id, {kind}, made.id, {one_text}, {now}, {one_phrase} FROM reviewers CROSS JOIN made \
           WHERE reviewers.recent IS NULL RETURNING {columns}), \
         mailed AS ({mailed}), pushed AS ({pushed})",
        recent = recent_review(&since),
        looks = looks_after_site!("made.site_id"),
        columns = notification_columns!(),
        mailed = queue_mail("told", &mail, &now),
        pushed = queue_push("told", &push, &now),
    )
}

/// How many parameters [`review_notice_ctes`] takes.
pub(super) const REVIEW_NOTICE_ARGS: usize = 10;

/// The review notice's English words and phrase for one report and for [`COUNT_MARK`]
/// reports: the same for every create, made once.
static REVIEW_WORDS: LazyLock<[String; 4]> = LazyLock::new(|| {
    let (one, many) = (review_phrase("1"), review_phrase(COUNT_MARK));
    [one.say(Lang::En), one.to_json(), many.say(Lang::En), many.to_json()]
});

/// The parameters of [`review_notice_ctes`]: the window's start, the review notice's kind and
/// words for one report and for a count the statement writes, and whether this store emails
/// and pushes its notifications.
pub(super) fn review_notice_args(outboxes: Outboxes, now: i64) -> [Arg<'static>; REVIEW_NOTICE_ARGS] {
    let [one_text, one_phrase, many_text, many_phrase] = &*REVIEW_WORDS;
    [
        (now - REVIEW_WINDOW_MS).into(),
        NoticeKind::Review.as_str().into(),
        one_text.as_str().into(),
        one_phrase.as_str().into(),
        many_text.as_str().into(),
        many_phrase.as_str().into(),
        COUNT_MARK.into(),
        now.into(),
        outboxes.mail.into(),
        outboxes.push.into(),
    ]
}

/// The parameters of [`NOTIFY_SITE_STAFF`], and after the user those of [`NOTIFY_USER`].
fn notice_args(notice: &Notice, now: i64) -> [Arg<'_>; 6] {
    let items: Vec<String> = notice.items.iter().map(ToString::to_string).collect();
    [
        notice.kind.as_str().into(),
        notice.item_id.get().into(),
        notice.text().into(),
        now.into(),
        notice.phrase.to_json().into(),
        (!items.is_empty()).then(|| items.join(",")).into(),
    ]
}

impl Store {
    /// Writes `notice` for user `user` on `tx`, in the transaction of what caused it, and
    /// queues it to be emailed and pushed when this store does that. A reporter whose account
    /// was removed (their reports stay) is told nothing: `None`.
    pub(super) async fn notify_user(
        &self,
        tx: &mut impl Tx,
        user: &str,
        notice: &Notice,
        now: i64,
    ) -> sqlx::Result<Option<NotificationRow>> {
        let row = write_notice(tx, user, notice, now).await?;
        if let Some(row) = &row {
            self.queue_to_send(tx, row, now).await?;
        }
        Ok(row)
    }

    /// Tells the reporter of item `item` and those who wrote in its thread (but `writer`, its
    /// writer when logged in) that `nick` wrote there: each in the bell, and by email at most
    /// once an hour per thread.
    pub async fn tell_thread_reply(
        &self,
        item: ItemId,
        writer: Option<&str>,
        nick: &str,
        now: i64,
    ) -> Result<Committed<()>, StoreError> {
        let rows = with_pool!(self, write, |pool| {
            let listeners: Vec<(String, String)> =
                pool.rows(THREAD_LISTENERS, &[item.get().into(), writer.into()]).await?;
            let mut rows = Vec::with_capacity(listeners.len());
            for (user, title) in listeners {
                let notice = Notice::thread_reply(item, &title, nick);
                let Some(row) = write_notice(pool, &user, &notice, now).await? else {
                    continue;
                };
                let hour_ago = now - THREAD_MAIL_EVERY_MS;
                let due: Vec<(i64,)> = pool
                    .rows(
                        THREAD_MAIL_DUE,
                        &[user.as_str().into(), item.get().into(), now.into(), hour_ago.into()],
                    )
                    .await?;
                if !due.is_empty() {
                    self.queue_to_send(pool, &row, now).await?;
                }
                rows.push(row);
            }
            Ok(rows)
        })?;
        Ok(committed((), rows))
    }

    /// Writes `notice` on `tx` for those who look after its item's site (its staff, else the
    /// administrators), queued to be sent like [`Store::notify_user`].
    pub(super) async fn notify_site_staff(
        &self,
        tx: &mut impl Tx,
        notice: &Notice,
        now: i64,
    ) -> sqlx::Result<Vec<NotificationRow>> {
        let rows: Vec<NotificationRow> = tx.rows(NOTIFY_SITE_STAFF, &notice_args(notice, now)).await?;
        for row in &rows {
            self.queue_to_send(tx, row, now).await?;
        }
        Ok(rows)
    }

    /// Tells those who look after report `item`'s site (but `reporter`) on `tx` that it waits
    /// for review: at most one notification each per [`REVIEW_WINDOW_MS`]; a report arriving
    /// within the window raises its count (and marks it unread) instead. Called in the report's
    /// transaction, after it took its version. On PostgreSQL, reports written in the same
    /// instant on connections that bump different rows of the version do not wait for each
    /// other, and a reviewer may then get one notification for each of them.
    pub(super) async fn notify_reviewers(
        &self,
        tx: &mut impl Tx,
        item: ItemId,
        reporter: &str,
        now: i64,
    ) -> sqlx::Result<Vec<NotificationRow>> {
        let reviewers: Vec<Reviewer> = tx.rows(&REVIEWERS, &reviewers_args(item, reporter, now)).await?;
        let mut notified = Vec::new();
        for step in ReviewNotice::of(item, reviewers) {
            match step {
                ReviewNotice::Raise { id, notice } => {
                    tx.run(RAISE_REVIEW, &raise_args(id, &notice)).await?;
                }
                ReviewNotice::New { user, notice } => {
                    notified.extend(self.notify_user(tx, &user, &notice, now).await?);
                }
            }
        }
        Ok(notified)
    }

    /// Where this store queues the notifications it writes.
    pub(super) fn outboxes(&self) -> Outboxes {
        Outboxes {
            mail: self.mail_outbox,
            push: self.push_outbox,
        }
    }

    /// Queues a notification just written to be sent besides the bell: emailed, while email is
    /// configured, and pushed to its reader's devices, while push is on.
    async fn queue_to_send(&self, tx: &mut impl Tx, row: &NotificationRow, now: i64) -> sqlx::Result<()> {
        if self.mail_outbox {
            tx.run(&QUEUE_MAIL, &[row.id.into(), now.into()]).await?;
        }
        if self.push_outbox {
            tx.run(&QUEUE_PUSH, &[row.id.into(), now.into()]).await?;
        }
        Ok(())
    }

    /// A user's notifications, newest first, at most `limit`, older than notification
    /// `before` when given.
    pub async fn notifications(
        &self,
        user: &str,
        before: Option<i64>,
        limit: u32,
    ) -> Result<Vec<Notification>, StoreError> {
        let rows: Vec<NotificationRow> = with_pool!(self, read, |pool| {
            sqlx::query_as(LIST)
                .bind(user)
                .bind(before)
                .bind(i64::from(limit))
                .fetch_all(pool)
                .await
        })?;
        Ok(rows.into_iter().map(Notification::from).collect())
    }

    /// Marks those of `ids` that are `user`'s as read.
    pub async fn mark_read(&self, user: &str, ids: &NotificationIds) -> Result<(), StoreError> {
        if ids.as_slice().is_empty() {
            return Ok(());
        }
        let mut args: Vec<Arg> = Vec::with_capacity(MAX_IDS + 1);
        args.push(user.into());
        // Places not used hold 0, which no notification has.
        let given = ids.as_slice().iter().copied();
        args.extend(given.chain(std::iter::repeat(0)).take(MAX_IDS).map(Arg::from));
        self.write(&MARK_READ, &args).await.map(drop)
    }

    /// The items `user` was told of as likely theirs: those of every match notice they have
    /// (a finder's notices name lost reports, which are never a lost report's matches).
    pub async fn told_matches(&self, user: &str) -> Result<HashSet<ItemId>, StoreError> {
        let rows: Vec<(Option<i64>, Option<String>)> = self
            .read_rows(
                TOLD_MATCHES,
                &[user.to_owned().into(), NoticeKind::Match.as_str().into()],
            )
            .await?;
        let mut told = HashSet::new();
        for (item, items) in rows {
            told.extend(item.into_iter().chain(listed(items.as_deref())).filter_map(ItemId::new));
        }
        Ok(told)
    }

    /// Writes each notice for its user in one transaction (users whose account was removed
    /// are told nothing).
    pub async fn tell(&self, notices: &[(String, Notice)], now: i64) -> Result<Committed<()>, StoreError> {
        if notices.is_empty() {
            return Ok(Committed::quiet(()));
        }
        let rows = with_pool!(self, write, |pool| {
            let mut rows = Vec::with_capacity(notices.len());
            for (user, notice) in notices {
                rows.extend(self.notify_user(pool, user, notice, now).await?);
            }
            Ok(rows)
        })?;
        Ok(committed((), rows))
    }
}

/// `value`, with the notifications written with it as its events.
pub(super) fn committed<T>(value: T, rows: Vec<NotificationRow>) -> Committed<T> {
    Committed::notified(value, rows.into_iter().map(Notification::from))
}
