//! What the API document says that no type of the code can say for itself: an item's keys
//! (`fields` picks them, so its schema lists every key and requires none), request bodies
//! (read field by field by the domain's checked inputs), query parameters, and the error
//! answers many routes share, named once. Answers are described by the types that write
//! them (`views`, `json`).

// The shapes below exist to be described, never built.
#![allow(dead_code)]

use serde_json::Value;
use utoipa::{
    IntoParams, ToResponse, ToSchema,
    openapi::{
        ContentBuilder, ObjectBuilder, RefOr, Required, Response, ResponseBuilder, Type,
        path::{Parameter, ParameterBuilder, ParameterIn},
        schema::Ref,
    },
};

use super::fields::ItemKey;

/// Every error: `{ error }`; in development mode also `details`.
#[derive(ToSchema)]
#[schema(as = Error)]
pub struct ErrorBody {
    /// What went wrong, in words for people, e.g. `Item not found`.
    error: String,
    /// Only with `LOSTFOUND_ENV=development`.
    details: Option<Value>,
}

/// Error answers shared by many routes: a unit struct each, the answer's description, and
/// the `{ error }` body.
macro_rules! error_responses {
    ($($name:ident => $description:literal,)*) => {$(
        #[doc = $description]
        pub struct $name;

        impl<'r> ToResponse<'r> for $name {
            fn response() -> (&'r str, RefOr<Response>) {
                (stringify!($name), error_response($description))
            }
        }
    )*};
}

error_responses! {
    BadItemId => "Invalid item ID",
    LoginRequired => "Login required",
    AdminOnly => "Admin privileges required, or a cross-site request refused",
    CrossSite => "Cross-site request refused",
    NoItem => "Item not found",
    NoUser => "User not found",
    NoClaim => "Claim not found",
    AlreadyDecided => "Claim already decided",
    TooLarge => "Request body too large",
    TooManyRequests => "Too many requests from this address; see `Retry-After`",
    FailedLogins => "Too many failed logins; see `Retry-After`",
}

fn error_response(description: &str) -> RefOr<Response> {
    ResponseBuilder::new()
        .description(description)
        .content(
            "application/json",
            ContentBuilder::new()
                .schema(Some(Ref::from_schema_name("Error")))
                .build(),
        )
        .build()
        .into()
}

/// `304 Not Modified`: the `If-None-Match` ETag is current; no body.
pub struct NotModified;

impl<'r> ToResponse<'r> for NotModified {
    fn response() -> (&'r str, RefOr<Response>) {
        let response = ResponseBuilder::new()
            .description("Not modified (`If-None-Match`)")
            .build();
        ("NotModified", response.into())
    }
}

/// An item. Without `fields` an answer has exactly the first twelve keys; `fields` picks any
/// of all twenty-two, in the order named. Others than its reporter and staff see it in the
/// public view (unless the service keeps the full one): `storagePlace` and `createdBy` are
/// `null`, and so are `desc`, `imgData`, `photoUrl` and `thumbUrl` when its category is
/// sensitive.
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
    created_by: Option<Option<String>>,
    #[schema(inline)]
    kind: Option<KindSchema>,
    #[schema(rename = "photoUrl")]
    photo_url: Option<Option<String>>,
    #[schema(rename = "thumbUrl")]
    thumb_url: Option<Option<String>>,
    #[schema(rename = "returnedAt", format = DateTime)]
    returned_at: Option<Option<String>>,
    /// Where it was lost or found, in words (a building, a room, a desk); `q` searches it.
    #[schema(max_length = 200)]
    place: Option<Option<String>>,
    /// Who handed it in, `{ name, contact }`: answered to staff only, and left out for anyone
    /// else.
    #[schema(value_type = Option<Object>, nullable)]
    finder: Option<Option<()>>,
    /// What only its owner would know (contents, marks, the lock screen), to judge claims:
    /// answered to staff only, and left out for anyone else.
    #[schema(max_length = 1000)]
    verification: Option<Option<String>>,
    /// When it was lost or found, as its reporter knows it: between `happenedFrom` and
    /// `happenedUntil` (the same time for a moment); `null` when they did not say.
    #[schema(rename = "happenedFrom", format = DateTime)]
    happened_from: Option<Option<String>>,
    #[schema(rename = "happenedUntil", format = DateTime)]
    happened_until: Option<Option<String>>,
    /// Until when a found item is kept before it is due for disposal; `null` for lost reports.
    #[schema(rename = "holdUntil", format = DateTime)]
    hold_until: Option<Option<String>>,
    /// When a found item nobody claimed was disposed of, and `disposal`: `{ method, note }`.
    #[schema(rename = "disposedAt", format = DateTime)]
    disposed_at: Option<Option<String>>,
    #[schema(value_type = Option<Object>, nullable)]
    disposal: Option<Option<()>>,
    /// When its reporter or staff closed the report.
    #[schema(rename = "closedAt", format = DateTime)]
    closed_at: Option<Option<String>>,
    /// The site that holds it (see `GET /api/sites`).
    #[schema(rename = "siteId")]
    site_id: Option<Option<i64>>,
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

#[derive(ToSchema)]
#[schema(rename_all = "lowercase")]
enum SortSchema {
    Best,
    Newest,
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
    /// `data:image/(png|jpeg|gif|webp);base64,…`, at most 5 MiB decoded; `""` is none.
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
    #[schema(rename = "storagePlace", max_length = 200)]
    storage_place: Option<Option<String>>,
    /// Where it was lost or found, in words: a building, a room, a desk.
    #[schema(max_length = 200)]
    place: Option<Option<String>>,
    /// Staff only (ignored from anyone else): `approved` logs an item handed in at the desk.
    #[schema(inline)]
    status: Option<ItemStatusSchema>,
    /// Staff only (ignored from anyone else): who handed it in, `{ name, contact }`, each at
    /// most 200 characters.
    #[schema(value_type = Option<Object>, nullable)]
    finder: Option<Option<()>>,
    /// Staff only (ignored from anyone else): what only the owner would know (contents,
    /// marks, the lock screen), to judge claims; private like the finder.
    #[schema(max_length = 1000)]
    verification: Option<Option<String>>,
    /// Staff only (ignored from anyone else), on a lost report: the visitor without an account
    /// it is taken for at the desk, `{ name, email, phone? }`. The report is the account of
    /// that address (one is made, without a password, when there is none), and such a visitor
    /// is mailed a link to follow it (`POST /api/follow`).
    #[schema(value_type = Option<Object>, nullable)]
    visitor: Option<Option<()>>,
    /// When it was lost or found (RFC 3339, not in the future): a moment, or with
    /// `happenedUntil` a window of at most 31 days.
    #[schema(rename = "happenedFrom", format = DateTime)]
    happened_from: Option<Option<String>>,
    /// The end of the window (needs `happenedFrom`, not before it).
    #[schema(rename = "happenedUntil", format = DateTime)]
    happened_until: Option<Option<String>>,
}

/// `PATCH /api/items/:id/report`: at least one field; what is left out stays as it is.
#[derive(ToSchema)]
pub struct ReportEditBody {
    #[schema(min_length = 1, max_length = 200)]
    title: Option<String>,
    /// `null` clears it (likewise `cat` and `place`).
    #[schema(max_length = 5000)]
    desc: Option<Option<String>>,
    #[schema(max_length = 100)]
    cat: Option<Option<String>>,
    #[schema(max_length = 200)]
    place: Option<Option<String>>,
    /// With `lng`: the two go together.
    #[schema(minimum = -90, maximum = 90)]
    lat: Option<f64>,
    #[schema(minimum = -180, maximum = 180)]
    lng: Option<f64>,
    #[schema(minimum = 0, maximum = 100000)]
    radius: Option<f64>,
    /// A new photo, as a new report sends it; `null` or `""` removes the photo.
    #[schema(rename = "imgData")]
    img_data: Option<Option<String>>,
    /// Staff only (403 from the reporter): what only the owner would know; `null` clears it.
    #[schema(max_length = 1000)]
    verification: Option<Option<String>>,
    /// When it was lost or found, as a new report's; `happenedFrom: null` clears both.
    #[schema(rename = "happenedFrom", format = DateTime)]
    happened_from: Option<Option<String>>,
    #[schema(rename = "happenedUntil", format = DateTime)]
    happened_until: Option<Option<String>>,
}

/// `POST /api/items/:id/disposal`.
#[derive(ToSchema)]
pub struct DisposalBody {
    #[schema(pattern = "^(donated|auctioned|destroyed|returned-to-finder|transferred)$")]
    method: String,
    #[schema(max_length = 500)]
    note: Option<Option<String>>,
}

/// `POST /api/items/:id/close`.
#[derive(ToSchema)]
pub struct CloseBody {
    /// Why, e.g. "Found it myself".
    #[schema(max_length = 500)]
    reason: Option<Option<String>>,
}

/// A review action: at least one of the two.
#[derive(ToSchema)]
pub struct ItemPatch {
    #[schema(inline)]
    status: Option<ItemStatusSchema>,
    /// `null` or `""` clears it.
    #[schema(rename = "storagePlace", max_length = 200)]
    storage_place: Option<Option<String>>,
    /// With `status: "rejected"` only: why, told to the reporter.
    #[schema(max_length = 500)]
    reason: Option<String>,
}

#[derive(ToSchema)]
pub struct LoginBody {
    #[schema(min_length = 1)]
    id: String,
    #[schema(min_length = 1)]
    pw: String,
}

/// `POST /api/signup`.
#[derive(ToSchema)]
pub struct SignupBody {
    /// 1–64 letters, digits, `.`, `_`, `@` or `-`; ids are case-insensitive.
    #[schema(pattern = r"^[A-Za-z0-9._@-]{1,64}$")]
    id: String,
    #[schema(min_length = 1, max_length = 100)]
    name: String,
    #[schema(format = Email, max_length = 254)]
    email: String,
    #[schema(min_length = 8, max_length = 1024)]
    password: String,
}

/// The token of a mailed link.
#[derive(ToSchema)]
pub struct TokenBody {
    #[schema(min_length = 43, max_length = 43, pattern = r"^[A-Za-z0-9_-]{43}$")]
    token: String,
}

/// A new password, with the token of a mailed link.
#[derive(ToSchema)]
pub struct NewPasswordBody {
    #[schema(min_length = 43, max_length = 43, pattern = r"^[A-Za-z0-9_-]{43}$")]
    token: String,
    #[schema(min_length = 8, max_length = 1024)]
    password: String,
}

#[derive(ToSchema)]
pub struct EmailBody {
    /// `null` removes the address. Required unless `lang` is given.
    #[schema(format = Email, max_length = 254)]
    email: Option<Option<String>>,
    /// The language emails are written in.
    #[schema(pattern = "^(en|ko|es)$")]
    lang: Option<String>,
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
pub struct HandoverBody {
    /// The identity document checked ("student card", "passport ending 4821").
    #[schema(rename = "idChecked", min_length = 1, max_length = 200)]
    id_checked: String,
    /// Who collects on the claimant's behalf; absent, `null` or blank: the claimant.
    #[schema(rename = "collectedBy", max_length = 200)]
    collected_by: Option<Option<String>>,
}

#[derive(ToSchema)]
pub struct ReasonBody {
    /// Told to the claimant.
    #[schema(min_length = 1, max_length = 200)]
    reason: String,
}

/// `POST /api/claims/:cid/messages`.
#[derive(ToSchema)]
pub struct ClaimMessageBody {
    #[schema(min_length = 1, max_length = 2000)]
    text: String,
}

#[derive(ToSchema)]
pub struct AddressBody {
    /// Where to post it; lines kept.
    #[schema(min_length = 1, max_length = 500)]
    address: String,
}

#[derive(ToSchema)]
pub struct FeeBody {
    /// What posting costs, as the desk writes it ("4.50 EUR"); `null`: nothing. Required.
    #[schema(min_length = 1, max_length = 100)]
    fee: Option<String>,
}

#[derive(ToSchema)]
pub struct PaymentBody {
    /// How it was paid (the service takes no card data).
    #[schema(min_length = 1, max_length = 200)]
    note: String,
}

#[derive(ToSchema)]
pub struct ShipmentBody {
    #[schema(min_length = 1, max_length = 100)]
    carrier: String,
    #[schema(min_length = 1, max_length = 100)]
    tracking: String,
}

#[derive(ToSchema)]
pub struct MarkReadBody {
    #[schema(max_items = 1000)]
    ids: Vec<i64>,
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
    /// An administrator: runs the whole service.
    #[schema(rename = "isAdmin")]
    administrator: Option<bool>,
    #[schema(format = Email)]
    email: Option<String>,
}

/// A category's fields: `names` is required for a new one, and `key` only there (else the
/// English name in lower case); a change sends `names` (replacing them all), `holdDays`,
/// `sensitive`, or several.
#[derive(ToSchema)]
pub struct CategoryBody {
    /// What reports of it carry as `cat`; kept in lower case.
    #[schema(min_length = 1, max_length = 100)]
    key: Option<String>,
    names: Option<CategoryNamesBody>,
    /// How many days found items of it are kept at every site; `null`: the site's or the
    /// service's period.
    #[schema(rename = "holdDays", minimum = 0, maximum = 3650)]
    hold_days: Option<u32>,
    /// Whether the public sees its items without description and photo (a new one: not).
    sensitive: Option<bool>,
}

/// Confirms an erasure: the account's password, when it has one.
#[derive(ToSchema)]
pub struct EraseBody {
    current: Option<String>,
}

/// A named place: `name` and its point; `radius` (metres) when it covers an area.
#[derive(ToSchema)]
pub struct PlaceBody {
    #[schema(min_length = 1, max_length = 200)]
    name: String,
    #[schema(minimum = -90, maximum = 90)]
    lat: f64,
    #[schema(minimum = -180, maximum = 180)]
    lng: f64,
    #[schema(minimum = 0, maximum = 100000)]
    radius: Option<f64>,
}

/// A device's push subscription, as the browser's `PushSubscription.toJSON()` writes it.
#[derive(ToSchema)]
pub struct PushSubscriptionBody {
    /// The push service's URL for this device: `https`, not this machine.
    #[schema(max_length = 1000)]
    endpoint: String,
    keys: PushKeysBody,
}

/// The keys a push message to the device is encrypted to (RFC 8291), base64url.
#[derive(ToSchema)]
pub struct PushKeysBody {
    /// The device's P-256 public key, uncompressed (65 bytes).
    p256dh: String,
    /// The device's authentication secret (16 bytes).
    auth: String,
}

/// The device to stop pushing to.
#[derive(ToSchema)]
pub struct PushEndpointBody {
    #[schema(max_length = 1000)]
    endpoint: String,
}

/// A category's name in each language: `en` is required, each 1–100 characters.
#[derive(ToSchema)]
pub struct CategoryNamesBody {
    #[schema(min_length = 1, max_length = 100)]
    en: String,
    #[schema(min_length = 1, max_length = 100)]
    ko: Option<String>,
    #[schema(min_length = 1, max_length = 100)]
    es: Option<String>,
}

/// A site's fields: `name` is required for a new one; in a change, only what is sent changes
/// and `null` clears a field. `lat` and `lng` go together.
#[derive(ToSchema)]
pub struct SiteBody {
    #[schema(min_length = 1, max_length = 100)]
    name: Option<String>,
    #[schema(max_length = 200)]
    place: Option<String>,
    #[schema(minimum = -90, maximum = 90)]
    lat: Option<f64>,
    #[schema(minimum = -180, maximum = 180)]
    lng: Option<f64>,
    #[schema(max_length = 200)]
    hours: Option<String>,
    #[schema(max_length = 200)]
    contact: Option<String>,
    /// How to collect an item: what ID to bring.
    #[schema(max_length = 500)]
    collect: Option<String>,
    /// How many days it keeps found items (a category with a period of its own keeps it);
    /// `null`: the service's period.
    #[schema(rename = "holdDays", minimum = 0, maximum = 3650)]
    hold_days: Option<u32>,
}

/// At least one of these.
#[derive(ToSchema)]
pub struct AccountPatchBody {
    #[schema(min_length = 1, max_length = 100)]
    name: Option<String>,
    /// An administrator: runs the whole service.
    #[schema(rename = "isAdmin")]
    administrator: Option<bool>,
    /// `null` removes it.
    #[schema(format = Email)]
    email: Option<Option<String>>,
    disabled: Option<bool>,
    /// The ids of the sites the account works at from now on (`[]`: none); an account that
    /// is not an administrator and works at a site is staff there.
    sites: Option<Vec<i64>>,
}

/// A bin's fields: `code` is required for a new one (its `name` defaults to the code); a
/// change names at least one.
#[derive(ToSchema)]
pub struct BinBody {
    /// On the shelf: letters, digits and `-_./`.
    #[schema(min_length = 1, max_length = 32, example = "A-3-2")]
    code: Option<String>,
    /// What people read; the storage place of the items in it.
    #[schema(min_length = 1, max_length = 200, example = "Shelf A, row 3, box 2")]
    name: Option<String>,
}

/// Where an item is sent.
#[derive(ToSchema)]
pub struct TransferBody {
    /// The site's id.
    to: i64,
    #[schema(max_length = 500)]
    note: Option<String>,
}

/// Where a received item is put.
#[derive(ToSchema)]
pub struct ReceiveBody {
    /// A bin of the receiving site; none without it.
    #[schema(rename = "binId")]
    bin_id: Option<i64>,
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

/// The filters of `GET /api/items` and `GET /api/items.csv`; each parameter at most once, an
/// empty value is none.
#[derive(IntoParams)]
#[into_params(parameter_in = Query)]
pub struct FilterQuery {
    #[param(inline)]
    status: Option<ItemStatusSchema>,
    /// Words: each met by a word of the item (its start, its plural or stem, a typo or two,
    /// Korean with or without spaces; case and accents ignored), or the item close in meaning
    /// to them, in any language.
    q: Option<String>,
    /// With `q`: `best` (the default) answers the best match first, `newest` newest first.
    #[param(inline)]
    sort: Option<SortSchema>,
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
    /// Only the items one site holds (its id).
    #[param(minimum = 1)]
    site: Option<i64>,
    /// Only these items: 1–200 ids, comma-separated.
    #[param(pattern = r"^[1-9][0-9]{0,17}(,[1-9][0-9]{0,17}){0,199}$")]
    ids: Option<String>,
    /// `true`: only items neither returned, disposed nor closed.
    open: Option<bool>,
    /// `true` (staff only): found items past their `holdUntil`, not rejected, neither
    /// returned, disposed nor closed.
    due: Option<bool>,
}

/// Paging of `GET /api/items`.
#[derive(IntoParams)]
#[into_params(parameter_in = Query)]
pub struct PageQuery {
    /// 1–200: a page of at most that many, with `Link: rel="next"` when more follow.
    #[param(minimum = 1, maximum = 200)]
    limit: Option<u32>,
    /// Where the next page starts (from `Link`).
    cursor: Option<String>,
}

/// `?fields=`: which item keys the answer carries. Its pattern is made from the keys
/// themselves ([`ItemKey::every`]), so the document names every key the service accepts.
pub struct FieldsQuery;

impl IntoParams for FieldsQuery {
    fn into_params(_: impl Fn() -> Option<ParameterIn>) -> Vec<Parameter> {
        let key = ItemKey::every().map(ItemKey::name).collect::<Vec<_>>().join("|");
        let pattern = format!("^({key})(,({key}))*$");
        let fields = ParameterBuilder::new()
            .name("fields")
            .parameter_in(ParameterIn::Query)
            .required(Required::False)
            .description(Some("Comma-separated item keys, e.g. `id,title,kind`"))
            .schema(Some(
                ObjectBuilder::new().schema_type(Type::String).pattern(Some(pattern)),
            ))
            .build();
        vec![fields]
    }
}

/// Which reports count: those created in `[since, until)`; either bound may be left out.
#[derive(IntoParams)]
#[into_params(parameter_in = Query)]
pub struct StatsQuery {
    #[param(format = DateTime)]
    since: Option<String>,
    #[param(format = DateTime)]
    until: Option<String>,
    /// Only this site's reports.
    #[param(minimum = 1)]
    site: Option<i64>,
}
