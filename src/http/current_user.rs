//! Who is calling, as extractors for handlers: the session behind the `sid` cookie.

use axum::{extract::FromRequestParts, http::request::Parts};

use crate::{auth::Session, error::AppError, state::AppState};

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

/// A logged-in administrator, or 401 / 403.
pub struct Admin(pub Session);

impl FromRequestParts<AppState> for Admin {
    type Rejection = AppError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, AppError> {
        let SignedIn(session) = SignedIn::from_request_parts(parts, state).await?;
        if session.user.is_admin {
            Ok(Self(session))
        } else {
            Err(AppError::Forbidden)
        }
    }
}
