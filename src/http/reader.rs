//! Who reads items: staff or not, what they may see when not every review state is public
//! (`LOSTFOUND_PUBLIC_STATES`), whose reports they see whole (`LOSTFOUND_PUBLIC_VIEW`), and
//! how answers kept for one reader are told from another's.

use axum::http::HeaderMap;

use super::fields::{ItemKeys, Shown};
use crate::{
    auth::Session,
    config::PublicView,
    domain::{
        Item, ItemNotFound, Visibility,
        access::{self, Action},
    },
    error::{AppError, Result},
    state::AppState,
};

pub struct Reader {
    /// The signed-in user's id.
    user: Option<String>,
    reads_all: bool,
    /// `None`: everything.
    visible: Option<Visibility>,
    /// Whether the reports of others are shown to it in the public view
    /// (`LOSTFOUND_PUBLIC_VIEW=limited`, and not staff).
    limited: bool,
}

impl Reader {
    pub fn of(state: &AppState, session: Option<&Session>) -> Self {
        let user = session.map(|session| &session.user);
        let reads_all = access::viewer_may(user, Action::ReadAll);
        Self {
            user: user.map(|user| user.id.clone()),
            reads_all,
            visible: state.config.custody.visibility(user),
            limited: !reads_all && Self::public_view_limited(state),
        }
    }

    /// The reader of a public request: its session is read only when it matters — when not
    /// every state is public, or when the answer depends on who asks (`asks_who`: see
    /// [`Reader::answer_depends_on_who`]) — so most public reads cost no session lookup.
    pub async fn of_request(state: &AppState, headers: &HeaderMap, asks_who: bool) -> Result<Self> {
        let session = if asks_who || state.config.custody.restricts() {
            state.sessions.resolve(headers).await?
        } else {
            None
        };
        Ok(Self::of(state, session.as_ref()))
    }

    /// Whether others' reports are shown in the public view (`LOSTFOUND_PUBLIC_VIEW=limited`).
    pub fn public_view_limited(state: &AppState) -> bool {
        state.config.custody.public_view == PublicView::Limited
    }

    /// Whether an answer with `keys` depends on who asks: it names a key only staff may have,
    /// or, in the public view, one it leaves out of others' reports.
    pub fn answer_depends_on_who(state: &AppState, keys: &ItemKeys) -> bool {
        keys.asks_private() || (Self::public_view_limited(state) && keys.may_withhold())
    }

    /// Only a reader who may read everything ([`Action::ReadAll`]), or 401 / 403.
    pub fn require_reads_all(&self) -> Result<()> {
        match (self.user.is_some(), self.reads_all) {
            (false, _) => Err(AppError::Unauthenticated("Login required")),
            (true, false) => Err(AppError::Forbidden),
            (true, true) => Ok(()),
        }
    }

    /// What lists may show this reader.
    pub fn visible(&self) -> Option<Visibility> {
        self.visible.clone()
    }

    /// The keys of those `?fields=` names that this reader may have, and whose items it is
    /// shown whole.
    pub fn keys(&self, keys: ItemKeys) -> ItemKeys {
        keys.for_viewer(self.reads_all).shown_to(self.shown())
    }

    /// Whose items this reader is shown whole.
    pub fn shown(&self) -> Shown {
        match self.limited {
            true => Shown::OwnWhole(self.user.clone()),
            false => Shown::Whole,
        }
    }

    /// The item, if this reader may see it; as if there were none otherwise.
    pub fn readable(&self, item: Option<Item>) -> Result<Item, ItemNotFound> {
        item.filter(|item| self.visible.as_ref().is_none_or(|visible| visible.admits(item)))
            .ok_or(ItemNotFound)
    }

    /// Where an answer for this reader is kept: staff and, when not everything is public or
    /// others' reports are shown in the public view, each user see other answers than
    /// visitors.
    pub fn kept_as(&self, answer: String) -> String {
        match &self.user {
            _ if self.reads_all => format!("staff:{answer}"),
            Some(user) if self.limited || self.visible.is_some() => format!("user:{user}:{answer}"),
            _ => answer,
        }
    }
}
