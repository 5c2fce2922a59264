//! Who reads items: staff or not, what they may see when not every review state is public
//! (`LOSTFOUND_PUBLIC_STATES`), and how answers kept for one reader are told from another's.

use axum::http::HeaderMap;

use super::fields::ItemKeys;
use crate::{
    auth::Session,
    domain::{
        Item, ItemNotFound, Visibility,
        access::{self, Action},
    },
    error::{AppError, Result},
    state::AppState,
};

pub struct Reader {
    signed_in: bool,
    reads_all: bool,
    /// `None`: everything.
    visible: Option<Visibility>,
}

impl Reader {
    pub fn of(state: &AppState, session: Option<&Session>) -> Self {
        let user = session.map(|session| &session.user);
        Self {
            signed_in: user.is_some(),
            reads_all: access::viewer_may(user, Action::ReadAll),
            visible: state.config.custody.visibility(user),
        }
    }

    /// The reader of a public request: its session is read only when it matters — when not
    /// every state is public, or when the request asks for what only staff may have
    /// (`private`) — so public reads cost no session lookup.
    pub async fn of_request(state: &AppState, headers: &HeaderMap, private: bool) -> Result<Self> {
        let session = if private || state.config.custody.restricts() {
            state.sessions.resolve(headers).await?
        } else {
            None
        };
        Ok(Self::of(state, session.as_ref()))
    }

    /// Only a reader who may read everything ([`Action::ReadAll`]), or 401 / 403.
    pub fn require_reads_all(&self) -> Result<()> {
        match (self.signed_in, self.reads_all) {
            (false, _) => Err(AppError::Unauthenticated("Login required")),
            (true, false) => Err(AppError::Forbidden),
            (true, true) => Ok(()),
        }
    }

    /// What lists may show this reader.
    pub fn visible(&self) -> Option<Visibility> {
        self.visible.clone()
    }

    /// The keys of those `?fields=` names that this reader may have.
    pub fn keys(&self, keys: ItemKeys) -> ItemKeys {
        keys.for_viewer(self.reads_all)
    }

    /// The item, if this reader may see it; as if there were none otherwise.
    pub fn readable(&self, item: Option<Item>) -> Result<Item, ItemNotFound> {
        item.filter(|item| self.visible.as_ref().is_none_or(|visible| visible.admits(item)))
            .ok_or(ItemNotFound)
    }

    /// Where an answer for this reader is kept: staff and, when not everything is public,
    /// each user see other answers than visitors.
    pub fn kept_as(&self, answer: String) -> String {
        match &self.visible {
            _ if self.reads_all => format!("staff:{answer}"),
            Some(Visibility {
                reporter: Some(user), ..
            }) => format!("user:{user}:{answer}"),
            _ => answer,
        }
    }
}
