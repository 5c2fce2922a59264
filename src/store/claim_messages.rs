//! A claim's own conversation: its claimant and the staff of the item's site write to each
//! other, privately; each message tells the other side.

use super::{
    Store, StoreError,
    claims::{TITLE, claim_to_change},
    notifications::{NotificationRow, committed},
    statement::Tx,
    with_pool,
};
use crate::domain::{Claim, ClaimId, ClaimMessage, ClaimRefusal, Committed, MOST_CLAIM_MESSAGES, Notice};

macro_rules! message_columns {
    () => {
        "id, claim_id, author, body, created_at"
    };
}
const MESSAGES: &str = concat!(
    "SELECT ",
    message_columns!(),
    " FROM claim_messages WHERE claim_id = $1 ORDER BY id"
);
const COUNT: &str = "SELECT COUNT(*) FROM claim_messages WHERE claim_id = $1";
const INSERT: &str = concat!(
    "INSERT INTO claim_messages (claim_id, author, body, created_at) VALUES ($1, $2, $3, $4) RETURNING ",
    message_columns!()
);

#[derive(sqlx::FromRow)]
struct MessageRow {
    id: i64,
    #[sqlx(try_from = "i64")]
    claim_id: ClaimId,
    author: String,
    body: String,
    created_at: i64,
}

impl From<MessageRow> for ClaimMessage {
    fn from(row: MessageRow) -> Self {
        Self {
            id: row.id,
            claim: row.claim_id,
            author: row.author,
            text: row.body,
            created_at: row.created_at,
        }
    }
}

impl Store {
    /// Claim `claim`'s conversation, oldest first.
    pub async fn claim_messages(&self, claim: ClaimId) -> Result<Vec<ClaimMessage>, StoreError> {
        let rows: Vec<MessageRow> = self.read_rows(MESSAGES, &[claim.get().into()]).await?;
        Ok(rows.into_iter().map(ClaimMessage::from).collect())
    }

    /// `author` writes `text` in claim `claim`'s conversation while the claim is open or
    /// waits for pickup: the staff of its item's site are told when the claimant writes, the
    /// claimant when staff do.
    pub async fn write_claim_message(
        &self,
        claim: ClaimId,
        author: &str,
        text: &str,
        now: i64,
    ) -> Result<Committed<Result<ClaimMessage, ClaimRefusal>>, StoreError> {
        let outcome: Result<(MessageRow, Vec<NotificationRow>), ClaimRefusal> = with_pool!(self, write, |pool| {
            let (claimant, item) = match claim_to_change(pool, claim, Claim::may_talk).await? {
                Ok(talked) => (talked.claimant, talked.item_id),
                Err(refusal) => return Ok(Err(refusal)),
            };
            let (written,): (i64,) = pool.row(COUNT, &[claim.get().into()]).await?;
            if written >= MOST_CLAIM_MESSAGES {
                return Ok(Err(ClaimRefusal::ConversationFull));
            }
            let args = [claim.get().into(), author.into(), text.into(), now.into()];
            let message: MessageRow = pool.row(INSERT, &args).await?;
            let (title,): (String,) = pool.row(TITLE, &[item.get().into()]).await?;
            let notified = if author == claimant {
                self.notify_site_staff(pool, &Notice::claimant_wrote(item, &title), now)
                    .await?
            } else {
                let notice = Notice::desk_wrote(item, &title);
                self.notify_user(pool, &claimant, &notice, now)
                    .await?
                    .into_iter()
                    .collect()
            };
            Ok(Ok((message, notified)))
        })?;
        Ok(match outcome {
            Ok((message, notified)) => committed(Ok(message.into()), notified),
            Err(refusal) => Committed::quiet(Err(refusal)),
        })
    }
}
