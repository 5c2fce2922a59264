//! Web Push: where each person's devices receive push messages, and the push outbox — the
//! notifications queued for each device with their email (see `notifications`), taken one at
//! a time under a lease like the mail outbox (see `outbox`).

use super::{Store, StoreError, notifications::NotificationRow, statement::Tx, with_pool};
use crate::domain::{Lang, Notification, Phrase, PushSubscription};

/// How many devices one account keeps: subscribing another forgets the oldest.
pub const DEVICES_PER_ACCOUNT: i64 = 10;

const SUBSCRIBE: &str = "INSERT INTO push_subscriptions (user_id, endpoint, p256dh, auth, created_at) \
     VALUES ($1, $2, $3, $4, $5) \
     ON CONFLICT (endpoint) DO UPDATE SET user_id = $1, p256dh = $3, auth = $4, created_at = $5";
const FORGET_OLDEST: &str = "DELETE FROM push_subscriptions WHERE user_id = $1 AND id NOT IN \
     (SELECT id FROM push_subscriptions WHERE user_id = $1 ORDER BY created_at DESC, id DESC LIMIT $2)";
const UNSUBSCRIBE: &str = "DELETE FROM push_subscriptions WHERE user_id = $1 AND endpoint = $2";
const DEVICES: &str = "SELECT endpoint, created_at FROM push_subscriptions WHERE user_id = $1 ORDER BY id";
/// As the mail outbox's `TAKE`, for one row of a notification and a device.
const TAKE: &str = "UPDATE push_outbox SET attempts = attempts + 1, next_attempt_at = $2 \
     WHERE (notification_id, subscription_id) = (SELECT notification_id, subscription_id FROM push_outbox \
            WHERE next_attempt_at <= $1 ORDER BY next_attempt_at, notification_id, subscription_id LIMIT 1) \
       AND next_attempt_at <= $1 \
     RETURNING notification_id, subscription_id, attempts";
const ADDRESSED: &str = "SELECT n.id, n.user_id, n.type, n.item_id, n.text, n.created_at, n.read, \
            n.phrase, n.items, u.lang, s.endpoint, s.p256dh, s.auth \
     FROM notifications n JOIN users u ON u.id = n.user_id AND NOT u.disabled \
     JOIN push_subscriptions s ON s.id = $2 AND s.user_id = n.user_id WHERE n.id = $1";
const DONE: &str = "DELETE FROM push_outbox WHERE notification_id = $1 AND subscription_id = $2";
const FAILED: &str =
    "UPDATE push_outbox SET next_attempt_at = $3, last_error = $4 WHERE notification_id = $1 AND subscription_id = $2";
const GONE: &str = "DELETE FROM push_subscriptions WHERE id = $1";
const NEXT_DUE: &str = "SELECT MIN(next_attempt_at) FROM push_outbox";

/// A notification to push to one device.
#[derive(Debug, Clone)]
pub struct OutgoingPush {
    pub notification: Notification,
    /// Its words, to say in `lang` (`None` for one written before words were kept).
    pub phrase: Option<Phrase>,
    pub lang: Lang,
    pub device: PushSubscription,
    /// The device's row, forgotten when its push service says it is gone.
    pub device_id: i64,
    /// How many times sending it was started, this one included.
    pub attempts: u32,
}

#[derive(sqlx::FromRow)]
struct AddressedRow {
    #[sqlx(flatten)]
    notification: NotificationRow,
    lang: Option<String>,
    endpoint: String,
    p256dh: String,
    auth: String,
}

impl Store {
    /// Queues the notifications written from now on to be pushed to their readers' devices.
    pub fn with_push_outbox(mut self) -> Self {
        self.push_outbox = true;
        self
    }

    /// Sends `user`'s notices to `device` from now on (taking it from another account that had
    /// it); the oldest of their devices beyond [`DEVICES_PER_ACCOUNT`] is forgotten.
    pub async fn subscribe_push(&self, user: &str, device: &PushSubscription, now: i64) -> Result<(), StoreError> {
        with_pool!(self, write, |pool| {
            let args = [
                user.into(),
                device.endpoint().into(),
                device.p256dh().into(),
                device.auth().into(),
                now.into(),
            ];
            pool.run(SUBSCRIBE, &args).await?;
            pool.run(FORGET_OLDEST, &[user.into(), DEVICES_PER_ACCOUNT.into()])
                .await?;
            Ok(())
        })
    }

    /// Stops pushing `user`'s notices to the device at `endpoint`; whether it was theirs.
    pub async fn unsubscribe_push(&self, user: &str, endpoint: &str) -> Result<bool, StoreError> {
        Ok(self.write(UNSUBSCRIBE, &[user.into(), endpoint.into()]).await? > 0)
    }

    /// The endpoints of `user`'s devices and when each was subscribed, oldest first.
    pub async fn push_devices(&self, user: &str) -> Result<Vec<(String, i64)>, StoreError> {
        self.read_rows(DEVICES, &[user.into()]).await
    }

    /// When the next queued push is due (epoch ms), if any is queued.
    pub async fn next_push_due(&self) -> Result<Option<i64>, StoreError> {
        let (due,): (Option<i64>,) = self.read_one(NEXT_DUE, &[]).await?;
        Ok(due)
    }

    /// Takes the push due first at `now`, leased until `lease_until`. Pushes whose reader was
    /// disabled meanwhile are dropped on the way.
    pub async fn take_push(&self, now: i64, lease_until: i64) -> Result<Option<OutgoingPush>, StoreError> {
        with_pool!(self, write, |pool| {
            loop {
                let taken: Option<(i64, i64, i32)> = pool.rows(TAKE, &[now.into(), lease_until.into()]).await?.pop();
                let Some((id, device_id, attempts)) = taken else {
                    break Ok(None);
                };
                let row: Option<AddressedRow> = pool.rows(ADDRESSED, &[id.into(), device_id.into()]).await?.pop();
                let Some(row) = row else {
                    pool.run(DONE, &[id.into(), device_id.into()]).await?;
                    continue;
                };
                let Ok(device) = PushSubscription::parse(&row.endpoint, &row.p256dh, &row.auth, true) else {
                    pool.run(GONE, &[device_id.into()]).await?;
                    continue;
                };
                let notification: Notification = row.notification.into();
                break Ok(Some(OutgoingPush {
                    phrase: notification.phrase.as_deref().and_then(Phrase::from_json),
                    notification,
                    lang: row.lang.and_then(|lang| lang.parse().ok()).unwrap_or_default(),
                    device,
                    device_id,
                    attempts: attempts.unsigned_abs(),
                }));
            }
        })
    }

    /// Forgets the push of notification `id` to device `device_id`: its push service took it,
    /// or it was given up.
    pub async fn push_done(&self, id: i64, device_id: i64) -> Result<(), StoreError> {
        self.write(DONE, &[id.into(), device_id.into()]).await.map(drop)
    }

    /// Puts the push back, to be tried again at `retry_at`; `error` says what went wrong.
    pub async fn push_failed(&self, id: i64, device_id: i64, retry_at: i64, error: &str) -> Result<(), StoreError> {
        let args = [id.into(), device_id.into(), retry_at.into(), error.into()];
        self.write(FAILED, &args).await.map(drop)
    }

    /// Forgets device `device_id` and what waits for it: its push service says it is gone.
    pub async fn push_device_gone(&self, device_id: i64) -> Result<(), StoreError> {
        self.write(GONE, &[device_id.into()]).await.map(drop)
    }
}
