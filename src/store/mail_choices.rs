//! Which kinds of notice each person wants by email (and by push), and the keys the service
//! makes at its first start and keeps, shared by every node: the one that signs the one-click
//! unsubscribe links of emails, the one that signs push messages (VAPID).

use base64::{Engine, engine::general_purpose::URL_SAFE_NO_PAD};
use rand::RngCore;

use super::{Store, StoreError, statement::Tx, with_pool};

const KEY: &str = "SELECT value FROM service_keys WHERE name = $1";
const MAKE_KEY: &str = "INSERT INTO service_keys (name, value) VALUES ($1, $2) ON CONFLICT DO NOTHING";
const OPTOUTS: &str = "SELECT kind FROM mail_optouts WHERE user_id = $1 ORDER BY kind";
const OPT_OUT: &str =
    "INSERT INTO mail_optouts (user_id, kind) SELECT id, $2 FROM users WHERE id = $1 ON CONFLICT DO NOTHING";
const OPT_IN: &str = "DELETE FROM mail_optouts WHERE user_id = $1 AND kind = $2";

impl Store {
    /// The key that signs unsubscribe links.
    pub async fn mail_key(&self) -> Result<Vec<u8>, StoreError> {
        self.service_key("mail", |_| true).await
    }

    /// The service's key `name`, 32 bytes: made the first time it is asked for (by any node;
    /// the first to write it wins) from random bytes that `fits` accepts, the same ever after.
    pub async fn service_key(&self, name: &str, fits: impl Fn(&[u8]) -> bool) -> Result<Vec<u8>, StoreError> {
        loop {
            if let Some((key,)) = self.read_row::<(String,)>(KEY, &[name.into()]).await? {
                return Ok(URL_SAFE_NO_PAD.decode(key).unwrap_or_default());
            }
            let mut key = [0u8; 32];
            rand::rng().fill_bytes(&mut key);
            if fits(&key) {
                self.write(MAKE_KEY, &[name.into(), URL_SAFE_NO_PAD.encode(key).into()])
                    .await?;
            }
        }
    }

    /// The kinds of notice `user` does not want by email.
    pub async fn mail_optouts(&self, user: &str) -> Result<Vec<String>, StoreError> {
        let rows: Vec<(String,)> = self.read_rows(OPTOUTS, &[user.into()]).await?;
        Ok(rows.into_iter().map(|(kind,)| kind).collect())
    }

    /// Whether `user` wants notices of each kind `choices` names by email from now on, in one
    /// transaction.
    pub async fn choose_mail(&self, user: &str, choices: &[(&str, bool)]) -> Result<(), StoreError> {
        with_pool!(self, write, |pool| {
            for (kind, wanted) in choices {
                let statement = if *wanted { OPT_IN } else { OPT_OUT };
                pool.run(statement, &[user.into(), (*kind).into()]).await?;
            }
            Ok(())
        })
    }
}
