//! The API document, OpenAPI 3.1, served at `GET /api/openapi.json`. Each route's part is
//! the `#[utoipa::path]` on its handler; answers are described by the types that write them
//! (`views`, `json`), the rest by `schemas`. This module gathers them.
//!
//! `tests::every_route_is_documented` reads the routers' sources and fails when a route is
//! missing here.

use std::sync::LazyLock;

use axum::{
    Router,
    http::header,
    response::{IntoResponse, Response},
    routing::get,
};
use utoipa::OpenApi;

use super::{schemas, views};
use crate::{json, state::AppState};

#[derive(OpenApi)]
#[openapi(
    info(
        title = "lostfound",
        description = "Lost-item reporting: items on a map, staff review, claims, notifications. \
                       Sessions are the `sid` cookie set by `POST /api/login`. \
                       Real-time events (Socket.IO at `/socket.io/`) are described in the project's docs/api.md.",
    ),
    paths(
        super::health::healthz,
        super::health::readyz,
        openapi_json,
        super::session::me,
        super::session::set_email,
        super::session::email,
        super::session::access,
        super::session::login,
        super::session::logout,
        super::own_data::export,
        super::own_data::erase,
        super::mail_choices::choices,
        super::mail_choices::choose,
        super::mail_choices::unsubscribe,
        super::push::key,
        super::push::subscribe,
        super::push::unsubscribe,
        super::items::list,
        super::items::create,
        super::items::read,
        super::items::update,
        super::items::remove,
        super::items::photo,
        super::items::thumbnail,
        super::items::possible_matches,
        super::items::not_mine,
        super::items::take_back_not_mine,
        super::claims::open,
        super::claims::of_item,
        super::claims::list,
        super::claims::decide,
        super::claims::withdraw,
        super::claims::hand_over,
        super::claims::cancel,
        super::claims::receipt,
        super::claims::request_post,
        super::claims::set_fee,
        super::claims::record_payment,
        super::claims::send_by_post,
        super::claims::conversation,
        super::claims::write,
        super::notifications::list,
        super::notifications::mark_read,
        super::items::history,
        super::items::dispose,
        super::items::close,
        super::items::edit,
        super::labels::item_label,
        super::export::export,
        super::stats::stats,
        super::accounts::list,
        super::accounts::create,
        super::accounts::update,
        super::accounts::reset_password,
        super::accounts::unlock_account,
        super::accounts::change_own_password,
        super::signup::config,
        super::signup::signup,
        super::signup::verify,
        super::signup::request_reset,
        super::signup::confirm_reset,
        super::signup::follow,
        super::messages::remove,
        super::sites::list,
        super::sites::create,
        super::sites::update,
        super::sites::remove,
        super::categories::list,
        super::categories::create,
        super::categories::update,
        super::categories::remove,
        super::places::list,
        super::places::create,
        super::places::import,
        super::places::remove,
        super::labels::bin_label,
        super::bins::list,
        super::bins::create,
        super::bins::show,
        super::bins::update,
        super::bins::remove,
        super::transfers::send,
        super::transfers::receive,
        super::transfers::list,
        super::sso::login,
        super::sso::callback,
    ),
    components(
        schemas(
            schemas::ErrorBody, schemas::Item, schemas::NewItem, schemas::ItemPatch, schemas::DisposalBody, schemas::CloseBody, schemas::ReportEditBody, schemas::LoginBody,
            schemas::EmailBody, schemas::NewAccountBody, schemas::AccountPatchBody, schemas::PasswordBody,
            schemas::PasswordChangeBody, schemas::EraseBody, schemas::ClaimBody, schemas::DecisionBody, schemas::HandoverBody, schemas::ReasonBody, schemas::AddressBody, schemas::ClaimMessageBody, schemas::FeeBody, schemas::PaymentBody, schemas::ShipmentBody, schemas::MarkReadBody,
            schemas::SignupBody, schemas::TokenBody, schemas::NewPasswordBody, super::signup::ConfigJson, super::signup::VerifiedJson,
            views::OkJson, views::MatchJson, views::WhyJson, json::UserJson, views::MeJson, views::LoginJson, views::EmailJson,
            views::EmailSavedJson, views::AccountJson, views::ClaimJson, views::ContactJson, views::ClaimMessageJson, views::HandoverJson, views::CancellationJson, views::PostJson, views::FeeJson, views::PaymentJson, views::SentJson, views::ChangeJson,
            json::NotificationJson, super::health::HealthJson, super::sites::SiteJson, schemas::SiteBody, super::categories::CategoryJson, super::categories::NamesJson, schemas::CategoryBody, super::mail_choices::ChoicesJson, super::push::PushKeyJson, super::push::PushDeviceJson, schemas::PushSubscriptionBody, schemas::PushKeysBody, schemas::PushEndpointBody, super::places::PlaceJson, super::places::ImportJson, super::places::RefusedLineJson, schemas::PlaceBody, super::bins::BinJson, schemas::BinBody,
            super::transfers::TransfersJson, schemas::TransferBody, schemas::ReceiveBody, super::views::AccessJson,
        ),
        responses(
            schemas::BadItemId, schemas::LoginRequired, schemas::AdminOnly, schemas::CrossSite, schemas::NoItem,
            schemas::NoUser, schemas::NoClaim, schemas::AlreadyDecided, schemas::TooLarge, schemas::TooManyRequests, schemas::FailedLogins, schemas::NotModified,
        ),
    ),
    modifiers(&SessionCookie),
)]
struct ApiDoc;

/// The document, made once.
static DOCUMENT: LazyLock<String> = LazyLock::new(|| ApiDoc::openapi().to_json().expect("the document serializes"));

pub fn router() -> Router<AppState> {
    Router::new().route("/api/openapi.json", get(openapi_json))
}

/// This document.
#[utoipa::path(get, path = "/api/openapi.json", operation_id = "openapi", tag = "meta",
    responses((status = 200, description = "The OpenAPI 3.1 document", content_type = "application/json", body = Object)))]
async fn openapi_json() -> Response {
    ([(header::CONTENT_TYPE, "application/json")], DOCUMENT.as_str()).into_response()
}

/// The `sid` cookie as the security scheme of routes that need a session.
struct SessionCookie;

impl utoipa::Modify for SessionCookie {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        use utoipa::openapi::security::{ApiKey, ApiKeyValue, SecurityScheme};
        let components = openapi.components.get_or_insert_with(Default::default);
        components.add_security_scheme(
            "session",
            SecurityScheme::ApiKey(ApiKey::Cookie(ApiKeyValue::new("sid"))),
        );
    }
}

#[cfg(test)]
mod tests {
    use std::collections::{BTreeMap, BTreeSet};

    use serde_json::Value;

    use super::*;

    /// `(method, path)` of every route the routers' sources declare under `/api` (and the
    /// health checks), in OpenAPI's `{param}` form.
    fn declared_routes() -> BTreeSet<(String, String)> {
        let sources = [
            include_str!("session.rs"),
            include_str!("items.rs"),
            include_str!("labels.rs"),
            include_str!("claims.rs"),
            include_str!("notifications.rs"),
            include_str!("accounts.rs"),
            include_str!("export.rs"),
            include_str!("own_data.rs"),
            include_str!("stats.rs"),
            include_str!("signup.rs"),
            include_str!("messages.rs"),
            include_str!("sites.rs"),
            include_str!("categories.rs"),
            include_str!("places.rs"),
            include_str!("mail_choices.rs"),
            include_str!("push.rs"),
            include_str!("bins.rs"),
            include_str!("transfers.rs"),
            include_str!("sso.rs"),
            include_str!("openapi.rs"),
            include_str!("health.rs"),
        ];
        let mut routes = BTreeSet::new();
        for source in sources {
            for (_, rest) in source.lines().filter_map(|line| line.split_once(".route(\"")) {
                let (path, handlers) = rest.split_once('"').unwrap();
                for method in ["get", "post", "patch", "put", "delete"] {
                    if handlers.contains(&format!("{method}(")) {
                        routes.insert((method.to_owned(), path.to_owned()));
                    }
                }
            }
        }
        routes
    }

    #[test]
    fn every_route_is_documented() {
        let document: Value = serde_json::from_str(&DOCUMENT).unwrap();
        assert_eq!(document["openapi"], "3.1.0");
        let documented: BTreeSet<(String, String)> = document["paths"]
            .as_object()
            .unwrap()
            .iter()
            .flat_map(|(path, operations)| {
                operations
                    .as_object()
                    .unwrap()
                    .keys()
                    .map(move |method| (method.clone(), path.clone()))
            })
            .collect();
        let declared = declared_routes();
        assert!(declared.len() >= 30, "{declared:?}");
        let missing: Vec<_> = declared.difference(&documented).collect();
        assert!(missing.is_empty(), "routes the API document lacks: {missing:?}");
        let extra: Vec<_> = documented.difference(&declared).collect();
        assert!(extra.is_empty(), "documented routes that do not exist: {extra:?}");
    }

    /// Generated clients name a method after each `operationId`: two operations with one id
    /// make an invalid document and a client that calls one of them by the other's name.
    #[test]
    fn every_operation_has_an_id_of_its_own() {
        let document: Value = serde_json::from_str(&DOCUMENT).unwrap();
        let mut operations: BTreeMap<String, Vec<String>> = BTreeMap::new();
        for (path, methods) in document["paths"].as_object().unwrap() {
            for (method, operation) in methods.as_object().unwrap() {
                let id = operation["operationId"].as_str();
                let id = id.unwrap_or_else(|| panic!("{method} {path} has no operationId"));
                operations
                    .entry(id.to_owned())
                    .or_default()
                    .push(format!("{method} {path}"));
            }
        }
        let shared: Vec<_> = operations.iter().filter(|(_, routes)| routes.len() > 1).collect();
        assert!(
            shared.is_empty(),
            "operationIds used by more than one route (give each its own `operation_id`): {shared:?}"
        );
    }
}
