//! Items: the stored report, its id and states, a new report and an administrator's update.

use std::{fmt, str::FromStr};

use serde_json::{Map, Value, json};

use super::{
    Bin, ClaimId, Disposal, Fields, Finder, Happened, HoldPolicy, NewDisposal, NewPhoto, ReportEdit, UserId,
    ValidationError, Visitor, bounded_text,
};

/// The most a report may take as JSON: a photo of `MAX_PHOTO_BYTES` is about 6.7 MiB in
/// base64, and the other fields are small. What `POST /api/items` accepts, and what a line of
/// an items file may hold.
pub const MAX_REPORT_BYTES: usize = 8 * 1024 * 1024;
pub(super) const MAX_TITLE: usize = 200;
pub(super) const MAX_DESC: usize = 5_000;
pub(super) const MAX_CAT: usize = 100;
const MAX_STORAGE_PLACE: usize = super::MAX_BIN_NAME;
/// The longest verification details, in characters.
pub(super) const MAX_VERIFICATION: usize = 1_000;
pub(super) const MAX_PLACE: usize = 200;
/// Characters a rejection's reason may have.
const MAX_REASON: usize = 500;
pub(super) const MAX_RADIUS_M: f64 = 100_000.0;

/// An item's identifier: a positive 64-bit integer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ItemId(i64);

impl ItemId {
    /// The one rule for ids, wherever they come from.
    pub fn new(id: i64) -> Option<Self> {
        (id > 0).then_some(Self(id))
    }

    /// An `:id` path segment: decimal digits only, no sign or spaces.
    pub fn parse(raw: &str) -> Result<Self, ValidationError> {
        raw.bytes()
            .all(|b| b.is_ascii_digit())
            .then(|| raw.parse::<i64>().ok())
            .flatten()
            .and_then(Self::new)
            .ok_or_else(invalid_id)
    }

    pub fn get(self) -> i64 {
        self.0
    }
}

impl TryFrom<i64> for ItemId {
    type Error = ValidationError;

    fn try_from(id: i64) -> Result<Self, Self::Error> {
        Self::new(id).ok_or_else(invalid_id)
    }
}

fn invalid_id() -> ValidationError {
    ValidationError {
        message: "Invalid item ID".into(),
        field: None,
    }
}

impl fmt::Display for ItemId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

/// The answer when no item has the id asked for, over HTTP and in events alike.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("{}", Self::MESSAGE)]
pub struct ItemNotFound;

impl ItemNotFound {
    pub const MESSAGE: &str = "Item not found";
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ItemStatus {
    Pending,
    Approved,
    Rejected,
}

impl ItemStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Pending => "pending",
            Self::Approved => "approved",
            Self::Rejected => "rejected",
        }
    }
}

impl fmt::Display for ItemStatus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for ItemStatus {
    type Err = ValidationError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "pending" => Ok(Self::Pending),
            "approved" => Ok(Self::Approved),
            "rejected" => Ok(Self::Rejected),
            _ => Err(ValidationError::new("status", "Invalid status")),
        }
    }
}

impl TryFrom<String> for ItemStatus {
    type Error = ValidationError;

    fn try_from(s: String) -> Result<Self, Self::Error> {
        s.parse()
    }
}

/// Whether the reporter lost the item or found it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ItemKind {
    #[default]
    Lost,
    Found,
}

impl ItemKind {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Lost => "lost",
            Self::Found => "found",
        }
    }
}

impl FromStr for ItemKind {
    type Err = ValidationError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "lost" => Ok(Self::Lost),
            "found" => Ok(Self::Found),
            _ => Err(ValidationError::new("kind", "Invalid kind")),
        }
    }
}

impl TryFrom<String> for ItemKind {
    type Error = ValidationError;

    fn try_from(s: String) -> Result<Self, Self::Error> {
        s.parse()
    }
}

/// A stored report of a lost or found item.
#[derive(Debug, Clone, PartialEq)]
pub struct Item {
    pub id: ItemId,
    pub title: String,
    pub desc: Option<String>,
    pub cat: Option<String>,
    pub kind: ItemKind,
    /// The version of the item's photo (see [`super::Photo::version`]), if it has one.
    pub photo_version: Option<String>,
    pub lat: f64,
    pub lng: f64,
    /// Meters.
    pub radius: f64,
    pub status: ItemStatus,
    pub storage_place: Option<String>,
    /// Where it was lost or found, in words: a building, a room, a desk.
    pub place: Option<String>,
    /// Milliseconds since the Unix epoch.
    pub created_at: i64,
    /// The reporter's user id.
    pub created_by: String,
    /// When the item went back to its owner, in epoch milliseconds.
    pub returned_at: Option<i64>,
    /// Who handed it in at the desk (private: staff only).
    pub finder: Option<Finder>,
    /// What only its owner would know (contents, marks, the lock screen), recorded by staff to
    /// judge claims (private: staff only).
    pub verification: Option<String>,
    /// When it was lost or found, as its reporter knows it.
    pub happened: Option<Happened>,
    /// How long found items of its category are kept, when the category has a period of its
    /// own (administrators keep the categories).
    pub category_hold_days: Option<u32>,
    /// How long its site keeps found items, when the site says (else the service's period).
    pub site_hold_days: Option<u32>,
    /// Whether its category is marked sensitive: the public sees it without description and
    /// photo.
    pub sensitive: bool,
    /// What became of a found item nobody claimed.
    pub disposal: Option<Disposal>,
    /// When its reporter or staff closed the report, in epoch milliseconds.
    pub closed_at: Option<i64>,
    /// Grows with every change of the item; with the id it names one state of it.
    pub version: i64,
    /// The site that holds it (`None` only for an item a node of the previous release
    /// reported during a rolling upgrade, until the next start gives it one).
    pub site_id: Option<i64>,
    /// The bin of its site it is kept in; `storage_place` is then the bin's name.
    pub bin_id: Option<i64>,
    /// The site it is on its way to: it stays `site_id`'s until that site receives it.
    pub transit_to: Option<i64>,
}

impl Item {
    /// Until when a found item is kept (epoch ms) under `hold`, the service's period, and its
    /// category's and site's as read with it; lost reports are not in custody.
    pub fn hold_until(&self, hold: &HoldPolicy) -> Option<i64> {
        hold.hold_until(self.kind, self.category_hold_days, self.site_hold_days, self.created_at)
    }

    /// When it was lost or found: as its reporter said, else when they reported it.
    pub fn happened_or_reported(&self) -> Happened {
        Happened::or_reported(self.happened, self.created_at)
    }

    /// Neither returned, disposed nor closed: it may still match, be claimed or be closed.
    pub fn is_open(&self) -> bool {
        self.returned_at.is_none() && self.disposal.is_none() && self.closed_at.is_none()
    }

    /// The texts of its own a search's words are looked for in (as the store derives its
    /// search words: `store::derived`), beside where it is kept.
    pub fn searched_texts(&self) -> impl Iterator<Item = &str> {
        [
            Some(self.title.as_str()),
            self.desc.as_deref(),
            self.cat.as_deref(),
            self.place.as_deref(),
        ]
        .into_iter()
        .flatten()
    }
}

/// A checked report of a lost or found item, made only by [`NewItem::parse`].
#[derive(Debug, Clone, PartialEq)]
pub struct NewItem {
    title: String,
    desc: Option<String>,
    cat: Option<String>,
    kind: ItemKind,
    photo: Option<NewPhoto>,
    lat: f64,
    lng: f64,
    radius: f64,
    storage_place: Option<String>,
    place: Option<String>,
    /// `pending` unless staff log it at the desk.
    status: ItemStatus,
    finder: Option<Finder>,
    /// What only its owner would know, recorded at intake.
    verification: Option<String>,
    /// When it was lost or found.
    happened: Option<Happened>,
    /// The visitor without an account whose lost report staff take at the desk.
    visitor: Option<Visitor>,
    /// The site chosen for it (`siteId`): a found item's, by whoever hands it in. Without
    /// one, the nearest site takes it.
    site: Option<i64>,
    /// The bin staff put it in at intake (`binId`).
    bin: Option<i64>,
}

/// An item kept elsewhere before, brought in by `lostfound items import`: a report as staff
/// may log it, with who reported it and when.
pub struct ImportedItem {
    pub item: NewItem,
    pub created_by: String,
    /// Milliseconds since the Unix epoch.
    pub created_at: i64,
}

impl ImportedItem {
    /// One line of an import: the body staff may send to `POST /api/items` (`status`,
    /// `storagePlace`, `place`, `finder`, a photo as `imgData`, `happenedFrom`/`happenedUntil`),
    /// with `createdBy`, an account id, and `createdAt`, milliseconds since the Unix epoch, not
    /// in the future.
    pub fn parse(body: &Map<String, Value>, now: i64) -> Result<Self, ValidationError> {
        let f = Fields(body);
        let created_by = f
            .string("createdBy")?
            .ok_or_else(|| ValidationError::new("createdBy", "createdBy is required"))?;
        let created_by = UserId::parse(created_by)
            .map_err(|_| ValidationError::new("createdBy", "createdBy must be an account id"))?;
        let created_at = f
            .number_in("createdAt", 0.0, now as f64)?
            .filter(|at| at.fract() == 0.0)
            .ok_or_else(|| {
                ValidationError::new(
                    "createdAt",
                    "createdAt must be milliseconds since 1970, not in the future",
                )
            })?;
        let item = NewItem::parse_intake(body)?;
        // Imported as it was told: before it was reported.
        if let Some(happened) = item.happened {
            happened.not_after(created_at as i64)?;
        }
        Ok(Self {
            item,
            created_by: created_by.as_str().to_owned(),
            created_at: created_at as i64,
        })
    }
}

/// The photo a report's body sends as `imgData`, decoded (CPU-heavy). UniLost's page sends
/// `imgData: ""` when no photo is chosen: empty is none.
pub(super) fn photo_of(f: &Fields<'_>) -> Result<Option<NewPhoto>, ValidationError> {
    f.string("imgData")?
        .filter(|url| !url.trim().is_empty())
        .map(NewPhoto::from_data_url)
        .transpose()
}

impl NewItem {
    /// Checks the body of `POST /api/items`. Decodes the photo, if any: CPU-heavy. `status`
    /// and `finder` are not read: a report waits for review (the contract's assigned state).
    pub fn parse(body: &Map<String, Value>) -> Result<Self, ValidationError> {
        Self::parse_as(body, false)
    }

    /// Checks the body of `POST /api/items` sent by staff, who may log an item handed in at
    /// the desk: `status` (`approved` needs no review), its `finder` and its `verification`
    /// details; or take a lost report for a `visitor` without an account.
    pub fn parse_intake(body: &Map<String, Value>) -> Result<Self, ValidationError> {
        Self::parse_as(body, true)
    }

    fn parse_as(body: &Map<String, Value>, staff: bool) -> Result<Self, ValidationError> {
        let f = Fields(body);
        let missing = |field| ValidationError::new(field, "Required fields missing");
        let title = f.string("title")?;
        let lat = f.number_in("lat", -90.0, 90.0)?;
        let lng = f.number_in("lng", -180.0, 180.0)?;
        let title = bounded_text("title", title.unwrap_or(""), MAX_TITLE)?.ok_or_else(|| missing("title"))?;
        let photo = photo_of(&f)?;
        let kind = f.parsed("kind")?.unwrap_or_default();
        let visitor = if staff {
            Visitor::parse(body.get("visitor"))?
        } else {
            None
        };
        if visitor.is_some() && kind != ItemKind::Lost {
            return Err(ValidationError::new(
                "visitor",
                "Only a lost report is taken for a visitor",
            ));
        }
        Ok(Self {
            title,
            lat: lat.ok_or_else(|| missing("lat"))?,
            lng: lng.ok_or_else(|| missing("lng"))?,
            desc: f.text("desc", MAX_DESC)?,
            cat: f.text("cat", MAX_CAT)?,
            kind,
            photo,
            radius: f.number_in("radius", 0.0, MAX_RADIUS_M)?.unwrap_or(0.0),
            storage_place: f.text("storagePlace", MAX_STORAGE_PLACE)?,
            place: f.text("place", MAX_PLACE)?,
            status: if staff { f.parsed("status")? } else { None }.unwrap_or(ItemStatus::Pending),
            finder: if staff {
                Finder::parse(body.get("finder"))?
            } else {
                None
            },
            verification: if staff {
                f.text("verification", MAX_VERIFICATION)?
            } else {
                None
            },
            happened: Happened::parse(&f)?,
            visitor,
            site: f.record_id("siteId", "Invalid site")?,
            bin: if staff {
                f.record_id("binId", "Invalid bin")?
            } else {
                None
            },
        })
    }

    /// The site it goes to: the one chosen, else the nearest (`None`).
    pub fn site(&self) -> Option<i64> {
        self.site
    }

    /// Gives it to `site` (staff taking it in at a desk of theirs).
    pub fn at_site(self, site: i64) -> Self {
        Self {
            site: Some(site),
            ..self
        }
    }

    pub fn bin(&self) -> Option<i64> {
        self.bin
    }

    /// Kept in `bin`, found to be of its site: the bin's name is its storage place.
    pub fn in_bin(self, bin: &Bin) -> Self {
        Self {
            storage_place: Some(bin.name.clone()),
            ..self
        }
    }

    pub fn status(&self) -> ItemStatus {
        self.status
    }

    pub fn finder(&self) -> Option<&Finder> {
        self.finder.as_ref()
    }

    pub fn verification(&self) -> Option<&str> {
        self.verification.as_deref()
    }

    pub fn happened(&self) -> Option<Happened> {
        self.happened
    }

    pub fn visitor(&self) -> Option<&Visitor> {
        self.visitor.as_ref()
    }

    pub fn title(&self) -> &str {
        &self.title
    }

    pub fn desc(&self) -> Option<&str> {
        self.desc.as_deref()
    }

    pub fn cat(&self) -> Option<&str> {
        self.cat.as_deref()
    }

    pub fn kind(&self) -> ItemKind {
        self.kind
    }

    pub fn photo(&self) -> Option<&NewPhoto> {
        self.photo.as_ref()
    }

    pub fn lat(&self) -> f64 {
        self.lat
    }

    pub fn lng(&self) -> f64 {
        self.lng
    }

    pub fn radius(&self) -> f64 {
        self.radius
    }

    pub fn storage_place(&self) -> Option<&str> {
        self.storage_place.as_deref()
    }

    pub fn place(&self) -> Option<&str> {
        self.place.as_deref()
    }
}

/// A checked administrator update with at least one field set, made only by [`ItemPatch::parse`].
#[derive(Debug, Clone, PartialEq)]
pub struct ItemPatch {
    status: Option<ItemStatus>,
    /// `Some(None)` clears the storage place.
    storage_place: Option<Option<String>>,
    /// Why a report is rejected, told to its reporter.
    reason: Option<String>,
    /// Into which bin of its site it moves (`binId`); `Some(None)` takes it out of its bin.
    bin: Option<Option<i64>>,
}

impl ItemPatch {
    /// Checks the body of `PATCH /api/items/:id`.
    pub fn parse(body: &Map<String, Value>) -> Result<Self, ValidationError> {
        let f = Fields(body);
        let status = f.parsed::<ItemStatus>("status")?;
        let storage_place = if f.has("storagePlace") {
            Some(f.text("storagePlace", MAX_STORAGE_PLACE)?)
        } else {
            None
        };
        let bin = if f.has("binId") && body["binId"].is_null() {
            Some(None)
        } else {
            f.record_id("binId", "Invalid bin")?.map(Some)
        };
        // A bin names the storage place: the two together would say it twice.
        if bin.is_some() && storage_place.is_some() {
            return Err(ValidationError::new("binId", "Invalid bin"));
        }
        if status.is_none() && storage_place.is_none() && bin.is_none() {
            return Err(ValidationError {
                message: "No fields to update".into(),
                field: None,
            });
        }
        // A reason goes with a rejection only.
        let reason = f.text("reason", MAX_REASON)?;
        if reason.is_some() && status != Some(ItemStatus::Rejected) {
            return Err(ValidationError::new("reason", "Invalid reason"));
        }
        Ok(Self {
            status,
            storage_place,
            reason,
            bin,
        })
    }

    /// `None`: unchanged; `Some(None)`: out of its bin.
    pub fn bin(&self) -> Option<Option<i64>> {
        self.bin
    }

    /// The move into `bin` (found to be of the item's site), or out of its bin: the bin's
    /// name becomes the storage place, or none.
    pub fn into_bin(self, bin: Option<&Bin>) -> Self {
        Self {
            storage_place: Some(bin.map(|bin| bin.name.clone())),
            ..self
        }
    }

    /// Why the report is rejected, when the patch rejects it with a reason.
    pub fn reason(&self) -> Option<&str> {
        self.reason.as_deref()
    }

    pub fn status(&self) -> Option<ItemStatus> {
        self.status
    }

    /// `None`: unchanged; `Some(None)`: cleared.
    pub fn storage_place(&self) -> Option<Option<&str>> {
        self.storage_place.as_ref().map(Option::as_deref)
    }
}

/// What an administrator did to an item, as its change log records it.
#[derive(Debug, Clone, Copy)]
pub enum ItemChange<'a> {
    Updated(&'a ItemPatch),
    /// Corrected by its reporter or its site's staff.
    Edited(&'a ReportEdit),
    /// Promised to the claimant of an accepted claim: ready for pickup.
    Promised {
        claim: ClaimId,
        to: &'a str,
    },
    /// Handed over to the claimant of an accepted claim, or to `proxy` on their behalf.
    HandedOver {
        claim: ClaimId,
        to: &'a str,
        proxy: Option<&'a str>,
    },
    /// Posted to the claimant of an accepted claim.
    Posted {
        claim: ClaimId,
        to: &'a str,
        carrier: &'a str,
        tracking: &'a str,
    },
    /// The pickup of an accepted claim called off.
    PickupCancelled {
        claim: ClaimId,
        reason: &'a str,
    },
    Disposed(&'a NewDisposal),
    Closed {
        reason: Option<&'a str>,
    },
    /// Sent from one site to another: in transit until received.
    Sent {
        from: i64,
        to: i64,
        note: Option<&'a str>,
    },
    /// Received by the site it was sent to, into a bin there or none.
    Received {
        from: i64,
        at: i64,
        bin: Option<i64>,
    },
    Deleted,
}

impl ItemChange<'_> {
    /// The log entry: a JSON object of the API's field names and their new values
    /// (`null` for a cleared storage place), `{"promised":{"claim":3,"to":"alice"}}`,
    /// `{"handedOver":{"claim":3,"to":"alice"}}` (with `collectedBy` when someone collected it
    /// for them), `{"posted":{"claim":3,"to":"alice","carrier":"…","tracking":"…"}}`,
    /// `{"pickupCancelled":{"claim":3,"reason":"…"}}` or
    /// `{"disposal":{"method":"donated","note":null}}`, `{"closed":{"reason":"…"}}`,
    /// `{"sent":{"from":1,"to":2,"note":null}}`, `{"received":{"from":1,"at":2,"binId":null}}`
    /// or `{"deleted":true}`.
    pub fn to_json(self) -> String {
        let entry = match self {
            Self::Updated(patch) => {
                let mut entry = Map::new();
                if let Some(status) = patch.status {
                    entry.insert("status".into(), json!(status.as_str()));
                }
                if let Some(place) = &patch.storage_place {
                    entry.insert("storagePlace".into(), json!(place));
                }
                if let Some(bin) = patch.bin {
                    entry.insert("binId".into(), json!(bin));
                }
                if let Some(reason) = &patch.reason {
                    entry.insert("reason".into(), json!(reason));
                }
                Value::Object(entry)
            }
            Self::Edited(edit) => edit.to_json(),
            Self::Promised { claim, to } => json!({ "promised": { "claim": claim.get(), "to": to } }),
            Self::HandedOver { claim, to, proxy: None } => json!({ "handedOver": { "claim": claim.get(), "to": to } }),
            Self::HandedOver { claim, to, proxy } => {
                json!({ "handedOver": { "claim": claim.get(), "to": to, "collectedBy": proxy } })
            }
            Self::Posted {
                claim,
                to,
                carrier,
                tracking,
            } => json!({ "posted": { "claim": claim.get(), "to": to, "carrier": carrier, "tracking": tracking } }),
            Self::PickupCancelled { claim, reason } => {
                json!({ "pickupCancelled": { "claim": claim.get(), "reason": reason } })
            }
            Self::Disposed(disposal) => {
                json!({ "disposal": { "method": disposal.method.as_str(), "note": disposal.note } })
            }
            Self::Closed { reason } => json!({ "closed": { "reason": reason } }),
            Self::Sent { from, to, note } => json!({ "sent": { "from": from, "to": to, "note": note } }),
            Self::Received { from, at, bin } => json!({ "received": { "from": from, "at": at, "binId": bin } }),
            Self::Deleted => json!({ "deleted": true }),
        };
        entry.to_string()
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn new_item(v: Value) -> Result<NewItem, ValidationError> {
        NewItem::parse(v.as_object().unwrap())
    }

    fn patch(v: Value) -> Result<ItemPatch, ValidationError> {
        ItemPatch::parse(v.as_object().unwrap())
    }

    #[test]
    fn minimal_item_gets_defaults() {
        let item = new_item(json!({"title": "  Umbrella ", "lat": 1.5, "lng": -2})).unwrap();
        assert_eq!(item.title, "Umbrella");
        assert_eq!((item.lat, item.lng, item.radius), (1.5, -2.0, 0.0));
        assert_eq!(
            (item.desc, item.cat, item.photo, item.storage_place),
            (None, None, None, None)
        );
        assert_eq!(item.kind, ItemKind::Lost);
    }

    #[test]
    fn an_empty_photo_is_no_photo() {
        for empty in [json!(""), json!("  "), json!(null)] {
            let item = new_item(json!({"title": "x", "lat": 0, "lng": 0, "imgData": empty})).unwrap();
            assert_eq!(item.photo, None);
        }
        assert!(new_item(json!({"title": "x", "lat": 0, "lng": 0, "imgData": "data:"})).is_err());
    }

    #[test]
    fn only_staff_log_an_item_at_the_desk() {
        let body = json!({"title": "x", "lat": 0, "lng": 0, "status": "approved", "finder": {"name": "Ann"}});
        let report = NewItem::parse(body.as_object().unwrap()).unwrap();
        assert_eq!((report.status, report.finder), (ItemStatus::Pending, None));
        let intake = NewItem::parse_intake(body.as_object().unwrap()).unwrap();
        assert_eq!(intake.status, ItemStatus::Approved);
        assert_eq!(intake.finder.unwrap().name.as_deref(), Some("Ann"));
    }

    #[test]
    fn kinds() {
        let base = |kind: Value| new_item(json!({"title": "x", "lat": 0, "lng": 0, "kind": kind}));
        assert_eq!(base(json!("found")).unwrap().kind, ItemKind::Found);
        assert_eq!(base(json!(null)).unwrap().kind, ItemKind::Lost);
        for bad in [json!("stolen"), json!(1), json!("Found")] {
            assert_eq!(base(bad).unwrap_err().message, "Invalid kind");
        }
    }

    #[test]
    fn missing_or_blank_required_fields() {
        for body in [
            json!({"lat": 1, "lng": 1}),
            json!({"title": "   ", "lat": 1, "lng": 1}),
            json!({"title": "x", "lng": 1}),
            json!({"title": "x", "lat": 1, "lng": null}),
        ] {
            assert_eq!(new_item(body).unwrap_err().message, "Required fields missing");
        }
    }

    #[test]
    fn wrong_types_name_the_field() {
        let err = new_item(json!({"title": 5, "lat": 1, "lng": 1})).unwrap_err();
        assert_eq!(
            (err.field, err.message.as_ref()),
            (Some("title"), "title must be a string")
        );
        let err = new_item(json!({"title": "x", "lat": "1", "lng": 1})).unwrap_err();
        assert_eq!(err.field, Some("lat"));
        let err = new_item(json!({"title": "x", "lat": 1, "lng": 1, "desc": []})).unwrap_err();
        assert_eq!(err.field, Some("desc"));
    }

    #[test]
    fn bounds() {
        let base = |k: &str, v: Value| {
            let mut b = json!({"title": "x", "lat": 0, "lng": 0});
            b[k] = v;
            new_item(b)
        };
        assert!(base("lat", json!(90)).is_ok());
        assert!(base("lat", json!(90.0001)).is_err());
        assert!(base("lng", json!(-180.5)).is_err());
        assert!(base("radius", json!(-1)).is_err());
        assert!(base("radius", json!(100_000)).is_ok());
        assert!(base("radius", json!(100_001)).is_err());
        assert!(base("title", json!("t".repeat(200))).is_ok());
        assert!(base("title", json!("t".repeat(201))).is_err());
        assert!(base("desc", json!("é".repeat(5_000))).is_ok());
        assert!(base("desc", json!("d".repeat(5_001))).is_err());
        assert!(base("cat", json!("c".repeat(101))).is_err());
        assert!(base("storagePlace", json!("s".repeat(201))).is_err());
        assert!(base("place", json!("p".repeat(200))).is_ok());
        assert!(base("place", json!("p".repeat(201))).is_err());
        assert!(base("desc", json!("nul\0byte")).is_err());
    }

    #[test]
    fn patch_rules() {
        assert_eq!(patch(json!({})).unwrap_err().message, "No fields to update");
        assert_eq!(patch(json!({"status": "lost"})).unwrap_err().message, "Invalid status");
        assert_eq!(patch(json!({"status": 3})).unwrap_err().message, "Invalid status");
        let p = patch(json!({"status": "approved", "storagePlace": ""})).unwrap();
        assert_eq!((p.status, p.storage_place), (Some(ItemStatus::Approved), Some(None)));
        let p = patch(json!({"storagePlace": null})).unwrap();
        assert_eq!((p.status, p.storage_place), (None, Some(None)));
        let p = patch(json!({"storagePlace": " Desk B "})).unwrap();
        assert_eq!(p.storage_place, Some(Some("Desk B".to_owned())));
    }

    #[test]
    fn item_ids() {
        assert_eq!(ItemId::parse("42").unwrap().get(), 42);
        assert_eq!(ItemId::parse("9223372036854775807").unwrap().get(), i64::MAX);
        for bad in ["0", "-1", "+1", "1.5", "abc", "", "9223372036854775808", " 1"] {
            assert_eq!(ItemId::parse(bad).unwrap_err().message, "Invalid item ID", "{bad:?}");
        }
        assert_eq!(ItemId::new(0), None);
        assert_eq!(ItemId::new(-5), None);
    }

    #[test]
    fn change_log_entries() {
        let p = patch(json!({"status": "approved", "storagePlace": ""})).unwrap();
        assert_eq!(
            serde_json::from_str::<Value>(&ItemChange::Updated(&p).to_json()).unwrap(),
            json!({"status": "approved", "storagePlace": null})
        );
        let p = patch(json!({"storagePlace": "Shelf"})).unwrap();
        assert_eq!(ItemChange::Updated(&p).to_json(), r#"{"storagePlace":"Shelf"}"#);
        assert_eq!(ItemChange::Deleted.to_json(), r#"{"deleted":true}"#);
        let claim = ClaimId::new(3).unwrap();
        let handed_over = ItemChange::HandedOver {
            claim,
            to: "alice",
            proxy: None,
        };
        assert_eq!(handed_over.to_json(), r#"{"handedOver":{"claim":3,"to":"alice"}}"#);
        let for_her = ItemChange::HandedOver {
            claim,
            to: "alice",
            proxy: Some("Bo Kim"),
        };
        assert_eq!(
            for_her.to_json(),
            r#"{"handedOver":{"claim":3,"collectedBy":"Bo Kim","to":"alice"}}"#
        );
    }
}
