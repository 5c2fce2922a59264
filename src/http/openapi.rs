//! The API document, OpenAPI 3.1, served at `GET /api/openapi.json`. Each route's part is
//! the `#[utoipa::path]` on its handler; this module gathers them and declares the shapes
//! that `views.rs` writes by hand (an item's keys depend on `fields`, so an item's schema
//! lists every key and requires none).
//!
//! `tests::every_route_is_documented` reads the routers' sources and fails when a route is
//! missing here.

// The shapes below exist to be described, never built.
#![allow(dead_code)]

use std::sync::LazyLock;

use axum::{
    Router,
    http::header,
    response::{IntoResponse, Response},
    routing::get,
};
use serde_json::Value;
use utoipa::{IntoParams, OpenApi, ToSchema};

use crate::state::AppState;

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
        super::session::login,
        super::session::logout,
        super::items::list,
        super::items::create,
        super::items::read,
        super::items::update,
        super::items::remove,
        super::items::photo,
        super::items::thumbnail,
        super::items::possible_matches,
        super::claims::open,
        super::claims::of_item,
        super::claims::list,
        super::claims::decide,
        super::claims::withdraw,
        super::notifications::list,
        super::notifications::mark_read,
        super::items::history,
        super::export::export,
        super::accounts::list,
        super::accounts::create,
        super::accounts::update,
        super::accounts::reset_password,
        super::accounts::unlock_account,
        super::accounts::change_own_password,
    ),
    components(schemas(
        ErrorBody, Ok, Item, NewItem, ItemPatch, Match, UserSchema, MeAnswer, LoginBody, LoginAnswer,
        EmailBody, EmailAnswer, EmailSaved, AccountSchema, NewAccountBody, AccountPatchBody, PasswordBody,
        PasswordChangeBody, ChangeSchema, ClaimSchema, ClaimBody, DecisionBody, NotificationSchema, MarkReadBody, Health
    )),
    modifiers(&SessionCookie),
)]
struct ApiDoc;

/// The document, made once.
static DOCUMENT: LazyLock<String> = LazyLock::new(|| ApiDoc::openapi().to_json().expect("the document serializes"));

pub fn router() -> Router<AppState> {
    Router::new().route("/openapi.json", get(openapi_json))
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

/// Every error: `{ error }`; in development mode also `details`.
#[derive(ToSchema)]
#[schema(as = Error)]
pub struct ErrorBody {
    /// What went wrong, in words for people, e.g. `Item not found`.
    error: String,
    /// Only with `LOSTFOUND_ENV=development`.
    details: Option<Value>,
}

#[derive(ToSchema)]
pub struct Ok {
    #[schema(value_type = bool, example = true)]
    ok: bool,
}

/// An item. Without `fields` an answer has exactly the first twelve keys; `fields` picks any
/// of all sixteen, in the order named.
#[derive(ToSchema)]
pub struct Item {
    #[schema(minimum = 1)]
    id: Option<i64>,
    #[schema(min_length = 1, max_length = 200)]
    title: Option<String>,
    desc: Option<Option<String>>,
    cat: Option<Option<String>>,
    /// The photo as a data URL, `data:image/png;base64,…`.
    #[schema(rename = "imgData")]
    img_data: Option<Option<String>>,
    #[schema(minimum = -90, maximum = 90)]
    lat: Option<f64>,
    #[schema(minimum = -180, maximum = 180)]
    lng: Option<f64>,
    /// Meters.
    #[schema(minimum = 0, maximum = 100000)]
    radius: Option<f64>,
    #[schema(inline)]
    status: Option<ItemStatusSchema>,
    #[schema(rename = "storagePlace")]
    storage_place: Option<Option<String>>,
    #[schema(format = DateTime)]
    created_at: Option<String>,
    #[schema(rename = "createdBy")]
    created_by: Option<String>,
    #[schema(inline)]
    kind: Option<KindSchema>,
    #[schema(rename = "photoUrl")]
    photo_url: Option<Option<String>>,
    #[schema(rename = "thumbUrl")]
    thumb_url: Option<Option<String>>,
    #[schema(rename = "returnedAt", format = DateTime)]
    returned_at: Option<Option<String>>,
}

#[derive(ToSchema)]
#[schema(rename_all = "lowercase")]
enum ItemStatusSchema {
    Pending,
    Approved,
    Rejected,
}

#[derive(ToSchema)]
#[schema(rename_all = "lowercase")]
enum KindSchema {
    Lost,
    Found,
}

/// A new report. Text is trimmed; unknown keys are ignored.
#[derive(ToSchema)]
pub struct NewItem {
    #[schema(min_length = 1, max_length = 200)]
    title: String,
    #[schema(max_length = 5000)]
    desc: Option<Option<String>>,
    #[schema(max_length = 100)]
    cat: Option<Option<String>>,
    /// `data:image/(png|jpeg|gif|webp);base64,…`, at most 5 MiB decoded.
    #[schema(rename = "imgData")]
    img_data: Option<Option<String>>,
    #[schema(minimum = -90, maximum = 90)]
    lat: f64,
    #[schema(minimum = -180, maximum = 180)]
    lng: f64,
    #[schema(minimum = 0, maximum = 100000)]
    radius: Option<Option<f64>>,
    #[schema(inline)]
    kind: Option<Option<KindSchema>>,
}

/// A review action: at least one of the two.
#[derive(ToSchema)]
pub struct ItemPatch {
    #[schema(inline)]
    status: Option<ItemStatusSchema>,
    /// `null` or `""` clears it.
    #[schema(rename = "storagePlace", max_length = 200)]
    storage_place: Option<Option<String>>,
}

/// An item of the other kind that may be the same object.
#[derive(ToSchema)]
pub struct Match {
    item: Item,
    #[schema(minimum = 0, maximum = 1)]
    score: f64,
    /// Meters between the two centres.
    #[schema(minimum = 0)]
    distance: f64,
}

#[derive(ToSchema)]
#[schema(as = User)]
pub struct UserSchema {
    id: String,
    name: String,
    #[schema(rename = "isAdmin")]
    is_admin: bool,
}

#[derive(ToSchema)]
pub struct MeAnswer {
    user: Option<UserSchema>,
}

#[derive(ToSchema)]
pub struct LoginBody {
    #[schema(min_length = 1)]
    id: String,
    #[schema(min_length = 1)]
    pw: String,
}

#[derive(ToSchema)]
pub struct LoginAnswer {
    #[schema(value_type = bool)]
    ok: bool,
    user: UserSchema,
}

#[derive(ToSchema)]
pub struct EmailBody {
    /// `null` removes the address.
    #[schema(format = Email, max_length = 254)]
    email: Option<String>,
}

#[derive(ToSchema)]
pub struct EmailAnswer {
    #[schema(format = Email)]
    email: Option<String>,
}

#[derive(ToSchema)]
pub struct EmailSaved {
    #[schema(value_type = bool)]
    ok: bool,
    #[schema(format = Email)]
    email: Option<String>,
}

#[derive(ToSchema)]
#[schema(as = Claim)]
pub struct ClaimSchema {
    id: i64,
    #[schema(rename = "itemId")]
    item_id: i64,
    claimant: String,
    /// Private: only the claimant and administrators get it.
    message: String,
    #[schema(inline)]
    status: ClaimStatusSchema,
    #[schema(format = DateTime)]
    created_at: String,
    #[schema(format = DateTime)]
    decided_at: Option<String>,
    #[schema(rename = "decidedBy")]
    decided_by: Option<String>,
}

#[derive(ToSchema)]
#[schema(rename_all = "lowercase")]
enum ClaimStatusSchema {
    Open,
    Accepted,
    Rejected,
    Withdrawn,
}

#[derive(ToSchema)]
pub struct ClaimBody {
    /// What shows the item is the claimant's.
    #[schema(min_length = 1, max_length = 2000)]
    message: String,
}

#[derive(ToSchema)]
pub struct DecisionBody {
    #[schema(inline)]
    status: DecisionSchema,
}

#[derive(ToSchema)]
#[schema(rename_all = "lowercase")]
enum DecisionSchema {
    Accepted,
    Rejected,
}

#[derive(ToSchema)]
#[schema(as = Notification)]
pub struct NotificationSchema {
    id: i64,
    /// `itemStatus`, `storagePlace`, `match`, `claimReceived` or `claimDecided`.
    #[schema(rename = "type")]
    kind: String,
    #[schema(rename = "itemId")]
    item_id: Option<i64>,
    text: String,
    #[schema(format = DateTime)]
    created_at: String,
    read: bool,
}

#[derive(ToSchema)]
pub struct MarkReadBody {
    #[schema(max_items = 1000)]
    ids: Vec<i64>,
}

/// An account as staff see it.
#[derive(ToSchema)]
#[schema(as = Account)]
pub struct AccountSchema {
    id: String,
    name: String,
    #[schema(rename = "isAdmin")]
    is_admin: bool,
    #[schema(format = Email)]
    email: Option<String>,
    disabled: bool,
    #[schema(format = DateTime)]
    created_at: String,
}

#[derive(ToSchema)]
pub struct NewAccountBody {
    /// 1–64 letters, digits, `.`, `_`, `@` or `-`.
    #[schema(pattern = r"^[A-Za-z0-9._@-]{1,64}$")]
    id: String,
    #[schema(min_length = 1, max_length = 100)]
    name: String,
    #[schema(min_length = 8, max_length = 1024)]
    password: String,
    #[schema(rename = "isAdmin")]
    is_admin: Option<bool>,
    #[schema(format = Email)]
    email: Option<String>,
}

/// At least one of these.
#[derive(ToSchema)]
pub struct AccountPatchBody {
    #[schema(min_length = 1, max_length = 100)]
    name: Option<String>,
    #[schema(rename = "isAdmin")]
    is_admin: Option<bool>,
    /// `null` removes it.
    #[schema(format = Email)]
    email: Option<Option<String>>,
    disabled: Option<bool>,
}

#[derive(ToSchema)]
pub struct PasswordBody {
    #[schema(min_length = 8, max_length = 1024)]
    password: String,
}

#[derive(ToSchema)]
pub struct PasswordChangeBody {
    #[schema(min_length = 1)]
    current: String,
    #[schema(min_length = 8, max_length = 1024)]
    password: String,
}

/// One entry of an item's change log.
#[derive(ToSchema)]
#[schema(as = Change)]
pub struct ChangeSchema {
    /// Who: an administrator's user id.
    by: String,
    #[schema(format = DateTime)]
    at: String,
    /// What changed, e.g. `{ "status": "approved" }`, `{ "deleted": true }`,
    /// `{ "handedOver": { "claim": 3, "to": "alice" } }`.
    #[schema(value_type = Object)]
    change: Value,
}

#[derive(ToSchema)]
pub struct Health {
    status: String,
    database: Option<String>,
    redis: Option<Option<String>>,
}

/// The filters of `GET /api/items` and `GET /api/items.csv`; each parameter at most once, an
/// empty value is none.
#[derive(IntoParams)]
#[into_params(parameter_in = Query)]
pub struct FilterQuery {
    #[param(inline)]
    status: Option<ItemStatusSchema>,
    /// Words, each the start of a word of the item (case and accents ignored).
    q: Option<String>,
    /// A category, ignoring case.
    cat: Option<String>,
    #[param(inline)]
    kind: Option<KindSchema>,
    /// `LAT,LNG`.
    #[param(pattern = r"^-?(90(\.0+)?|[1-8]?[0-9](\.[0-9]+)?),-?(180(\.0+)?|(1[0-7][0-9]|[1-9]?[0-9])(\.[0-9]+)?)$")]
    near: Option<String>,
    /// 0–100,000 meters from `near`.
    #[param(minimum = 0, maximum = 100000)]
    within: Option<f64>,
    /// RFC 3339, inclusive.
    #[param(format = DateTime)]
    since: Option<String>,
    /// RFC 3339, exclusive.
    #[param(format = DateTime)]
    until: Option<String>,
    /// One reporter's user id.
    #[param(rename = "createdBy")]
    created_by: Option<String>,
}

/// Paging and keys of `GET /api/items`.
#[derive(IntoParams)]
#[into_params(parameter_in = Query)]
pub struct PageQuery {
    /// 1–200: a page of at most that many, with `Link: rel="next"` when more follow.
    #[param(minimum = 1, maximum = 200)]
    limit: Option<u32>,
    /// Where the next page starts (from `Link`).
    cursor: Option<String>,
    /// Comma-separated item keys.
    #[param(
        pattern = r"^(id|title|desc|cat|imgData|lat|lng|radius|status|storagePlace|created_at|createdBy|kind|photoUrl|thumbUrl|returnedAt)(,(id|title|desc|cat|imgData|lat|lng|radius|status|storagePlace|created_at|createdBy|kind|photoUrl|thumbUrl|returnedAt))*$"
    )]
    fields: Option<String>,
}

/// `?fields=`: which item keys the answer carries.
#[derive(IntoParams)]
#[into_params(parameter_in = Query)]
pub struct FieldsQuery {
    /// Comma-separated item keys, e.g. `id,title,kind`.
    #[param(
        pattern = r"^(id|title|desc|cat|imgData|lat|lng|radius|status|storagePlace|created_at|createdBy|kind|photoUrl|thumbUrl|returnedAt)(,(id|title|desc|cat|imgData|lat|lng|radius|status|storagePlace|created_at|createdBy|kind|photoUrl|thumbUrl|returnedAt))*$"
    )]
    fields: Option<String>,
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use super::*;

    /// `(method, path)` of every route the routers' sources declare under `/api` (and the
    /// health checks), in OpenAPI's `{param}` form.
    fn declared_routes() -> BTreeSet<(String, String)> {
        let sources = [
            ("/api", include_str!("session.rs")),
            ("/api", include_str!("items.rs")),
            ("/api", include_str!("claims.rs")),
            ("/api", include_str!("notifications.rs")),
            ("/api", include_str!("accounts.rs")),
            ("/api", include_str!("export.rs")),
            ("/api", include_str!("openapi.rs")),
            ("", include_str!("health.rs")),
        ];
        let mut routes = BTreeSet::new();
        for (prefix, source) in sources {
            for (_, rest) in source.lines().filter_map(|line| line.split_once(".route(\"")) {
                let (path, handlers) = rest.split_once('"').unwrap();
                for method in ["get", "post", "patch", "put", "delete"] {
                    if handlers.contains(&format!("{method}(")) {
                        routes.insert((method.to_owned(), format!("{prefix}{path}")));
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
}
