//! Notifications: written in the transaction of the change that causes them, listed per
//! user, marked read; once committed, handed to whoever listens for live delivery.

use tokio::sync::broadcast;

use super::{Store, StoreError, with_pool};
use crate::domain::{Item, Notice, Notification, matching};

macro_rules! notification_columns {
    () => {
        "id, user_id, type, item_id, text, created_at, read"
    };
}

pub(super) const NOTIFY_USER: &str = concat!(
    "INSERT INTO notifications (user_id, type, item_id, text, created_at) VALUES ($1, $2, $3, $4, $5) RETURNING ",
    notification_columns!()
);
pub(super) const NOTIFY_ADMINS: &str = concat!(
    "INSERT INTO notifications (user_id, type, item_id, text, created_at) \
     SELECT id, $1, $2, $3, $4 FROM users WHERE is_admin RETURNING ",
    notification_columns!()
);
const LIST: &str = concat!(
    "SELECT ",
    notification_columns!(),
    " FROM notifications WHERE user_id = $1 AND ($2 IS NULL OR id < $2) ORDER BY id DESC LIMIT $3"
);

/// Writes `$notice` for user `$user` on `$conn`, in the transaction of what caused it, and
/// queues it to be emailed when `$store` does that.
macro_rules! notify_user {
    ($store:expr, $conn:expr, $user:expr, $notice:expr, $now:expr) => {
        async {
            let row = sqlx::query_as::<_, NotificationRow>(NOTIFY_USER)
                .bind($user)
                .bind($notice.kind.as_str())
                .bind($notice.item_id.get())
                .bind(&$notice.text)
                .bind($now)
                .fetch_one(&mut *$conn)
                .await?;
            if $store.mail_outbox {
                super::outbox::queue_mail!($conn, row.id, $now)?;
            }
            Ok::<_, sqlx::Error>(row)
        }
        .await
    };
}
pub(super) use notify_user;

/// Writes `$notice` for every administrator on `$conn`, queued to be emailed like
/// [`notify_user!`].
macro_rules! notify_admins {
    ($store:expr, $conn:expr, $notice:expr, $now:expr) => {
        async {
            let rows = sqlx::query_as::<_, NotificationRow>(NOTIFY_ADMINS)
                .bind($notice.kind.as_str())
                .bind($notice.item_id.get())
                .bind(&$notice.text)
                .bind($now)
                .fetch_all(&mut *$conn)
                .await?;
            if $store.mail_outbox {
                for row in &rows {
                    super::outbox::queue_mail!($conn, row.id, $now)?;
                }
            }
            Ok::<_, sqlx::Error>(rows)
        }
        .await
    };
}
pub(super) use notify_admins;

#[derive(sqlx::FromRow)]
pub(super) struct NotificationRow {
    pub(super) id: i64,
    user_id: String,
    #[sqlx(rename = "type")]
    kind: String,
    item_id: Option<i64>,
    text: String,
    created_at: i64,
    read: bool,
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
        }
    }
}

impl Store {
    /// Notifications this process commits from now on, for live delivery.
    pub fn notifications_committed(&self) -> broadcast::Receiver<Notification> {
        self.notified.subscribe()
    }

    /// Hands committed notifications to the listeners (none listening is fine).
    pub(super) fn announce(&self, rows: Vec<NotificationRow>) {
        for row in rows {
            let _ = self.notified.send(row.into());
        }
    }

    /// A user's notifications, newest first, at most `limit`, older than notification
    /// `before` when given.
    pub async fn notifications(
        &self,
        user: &str,
        before: Option<i64>,
        limit: u32,
    ) -> Result<Vec<Notification>, StoreError> {
        let rows: Vec<NotificationRow> = with_pool!(self, read, pool => {
            sqlx::query_as(LIST).bind(user).bind(before).bind(i64::from(limit)).fetch_all(pool).await
        })?;
        Ok(rows.into_iter().map(Notification::from).collect())
    }

    /// Marks those of `ids` that are `user`'s as read.
    pub async fn mark_read(&self, user: &str, ids: &[i64]) -> Result<(), StoreError> {
        with_pool!(self, write, pool => {
            for id in ids {
                sqlx::query("UPDATE notifications SET read = TRUE WHERE id = $1 AND user_id = $2")
                    .bind(id)
                    .bind(user)
                    .execute(&mut *pool)
                    .await?;
            }
            Ok(())
        })
    }

    /// Tells the reporters of the items `item` may match that it was approved.
    pub async fn notify_matches(&self, item: &Item, now: i64) -> Result<(), StoreError> {
        let candidates = self
            .list_items(&matching::candidates(item), None, matching::MAX_CANDIDATES)
            .await?;
        let mut reporters: Vec<(String, Notice)> = Vec::new();
        for found in matching::rank(item, candidates) {
            let reporter = found.item.created_by;
            if reporter != item.created_by && !reporters.iter().any(|(r, _)| *r == reporter) {
                reporters.push((reporter, Notice::may_match(item.id, &item.title)));
            }
        }
        if reporters.is_empty() {
            return Ok(());
        }
        let rows = with_pool!(self, write, pool => {
            let mut rows = Vec::with_capacity(reporters.len());
            for (reporter, notice) in &reporters {
                rows.push(notify_user!(self, pool, reporter, notice, now)?);
            }
            Ok(rows)
        })?;
        self.announce(rows);
        Ok(())
    }
}
