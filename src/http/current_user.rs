//! Who is calling, as extractors for handlers: the session behind the `sid` cookie.

use std::marker::PhantomData;

use axum::{extract::FromRequestParts, http::request::Parts};

use crate::{
    auth::Session,
    domain::access::{self, Action},
    error::AppError,
    state::AppState,
};

/// Anyone: the session if there is one.
pub struct Viewer(pub Option<Session>);

impl FromRequestParts<AppState> for Viewer {
    type Rejection = AppError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, AppError> {
        Ok(Self(state.sessions.resolve(&parts.headers).await?))
    }
}

/// A logged-in user, or 401.
pub struct SignedIn(pub Session);

impl FromRequestParts<AppState> for SignedIn {
    type Rejection = AppError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, AppError> {
        let Viewer(session) = Viewer::from_request_parts(parts, state).await?;
        session.map(Self).ok_or(AppError::Unauthenticated("Login required"))
    }
}

/// A logged-in user who may do `A`'s action, or 401 / 403 (before the body is read).
pub struct May<A>(pub Session, pub PhantomData<A>);

impl<A: Permission> FromRequestParts<AppState> for May<A> {
    type Rejection = AppError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, AppError> {
        let SignedIn(session) = SignedIn::from_request_parts(parts, state).await?;
        if access::may(&session.user, A::ACTION) {
            Ok(Self(session, PhantomData))
        } else {
            Err(AppError::Forbidden)
        }
    }
}

/// An [`Action`] as a type, for [`May`].
pub trait Permission {
    const ACTION: Action;
}

macro_rules! permissions {
    ($($action:ident),*) => {
        $(
            #[doc = concat!("[`Action::", stringify!($action), "`] as a type.")]
            pub struct $action;

            impl Permission for $action {
                const ACTION: Action = Action::$action;
            }
        )*
    };
}

permissions!(
    ReadAll,
    Review,
    TakeIn,
    Decide,
    Dispose,
    Transfer,
    Shelve,
    Remove,
    ManageAccounts,
    ManageSites,
    ManageCategories
);
