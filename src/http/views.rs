//! How the service's values look in API answers: the contract's JSON shapes and key names,
//! and the extension keys. Each answer type describes itself in the API document.

use serde::{Serialize, Serializer, ser::SerializeMap};
use utoipa::ToSchema;

use super::{
    fields::{ItemKey, ItemKeys},
    schemas,
};
use crate::{
    domain::{
        Account, Claim, ClaimMessage, ClaimStatus, Disposal, Finder, Handover, HoldPolicy, Item, Lang, Settled,
        Settlement, User, matching::Why,
    },
    json::UserJson,
    store::{ChangeRecord, EmailState},
    time::format_ms,
};

/// An item as an answer shows it: the selected keys, absent values and those withheld from
/// the reader `null`.
pub struct ItemJson<'a> {
    item: &'a Item,
    keys: &'a ItemKeys,
    /// The holding periods its `holdUntil` follows.
    hold: &'a HoldPolicy,
    /// The photo as a `data:` URL, when `imgData` is selected and the item has one.
    img_data: Option<&'a str>,
}

/// A claim as its claimant and administrators see it (nobody else ever does).
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = Claim)]
pub struct ClaimJson {
    id: i64,
    item_id: i64,
    claimant: String,
    /// Private: only the claimant and administrators get it.
    message: String,
    status: ClaimStatusJson,
    #[serde(rename = "created_at")]
    #[schema(format = DateTime)]
    created_at: String,
    #[serde(rename = "decided_at")]
    #[schema(format = DateTime)]
    decided_at: Option<String>,
    decided_by: Option<String>,
    /// A `collected` claim: who handed the item over, when, to whom and on which ID
    /// (extension).
    #[serde(skip_serializing_if = "Option::is_none")]
    handover: Option<HandoverJson>,
    /// A `cancelled` claim: who called the pickup off, when and why (extension).
    #[serde(skip_serializing_if = "Option::is_none")]
    cancellation: Option<CancellationJson>,
    /// The claimant's request to have the item posted, and how far it went (extension).
    #[serde(skip_serializing_if = "Option::is_none")]
    post: Option<PostJson>,
    /// How to reach the claimant: their account's name and email address, for staff who ask
    /// (`?contact=true`; extension).
    #[serde(skip_serializing_if = "Option::is_none")]
    contact: Option<ContactJson>,
}

#[derive(Serialize, ToSchema)]
#[schema(as = ClaimContact)]
pub struct ContactJson {
    name: String,
    email: Option<String>,
}

/// A message of a claim's conversation, between its claimant and the desk (extension).
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = ClaimMessage)]
pub struct ClaimMessageJson {
    id: i64,
    claim_id: i64,
    /// Who wrote it (a user id).
    author: String,
    /// Whether the desk wrote it (anyone but the claimant).
    from_desk: bool,
    text: String,
    #[schema(format = DateTime)]
    created_at: String,
}

impl ClaimMessageJson {
    /// `message`, written in `claim`'s conversation.
    pub fn new(message: &ClaimMessage, claim: &Claim) -> Self {
        Self {
            id: message.id,
            claim_id: message.claim.get(),
            author: message.author.clone(),
            from_desk: message.author != claim.claimant,
            text: message.text.clone(),
            created_at: format_ms(message.created_at),
        }
    }
}

/// A request to post a claimed item: the address (the claimant's and the desk's to see only),
/// the postage staff set and its payment, and the parcel once sent.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = Post)]
pub struct PostJson {
    address: String,
    #[schema(format = DateTime)]
    requested_at: String,
    /// `null` until staff set it.
    fee: Option<FeeJson>,
    /// `null` until staff record it.
    payment: Option<PaymentJson>,
    /// `null` until it leaves (the claim is then `posted`).
    sent: Option<SentJson>,
}

#[derive(Serialize, ToSchema)]
#[schema(as = Fee)]
pub struct FeeJson {
    /// What it costs, as the desk writes it; `null`: nothing.
    amount: Option<String>,
    #[schema(format = DateTime)]
    at: String,
}

#[derive(Serialize, ToSchema)]
#[schema(as = Payment)]
pub struct PaymentJson {
    /// How it was paid.
    note: String,
    #[schema(format = DateTime)]
    at: String,
    by: String,
}

#[derive(Serialize, ToSchema)]
#[schema(as = Sent)]
pub struct SentJson {
    #[schema(format = DateTime)]
    at: String,
    by: String,
    carrier: String,
    tracking: String,
}

/// The handover of a collected claim's item at the desk.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = Handover)]
pub struct HandoverJson {
    #[schema(format = DateTime)]
    at: String,
    /// The staff member who handed it over.
    by: String,
    /// Who collected it on the claimant's behalf; `null`: the claimant.
    collected_by: Option<String>,
    /// The identity document checked; `null` for a handover recorded before pickups were.
    id_checked: Option<String>,
}

/// A pickup called off.
#[derive(Serialize, ToSchema)]
#[schema(as = Cancellation)]
pub struct CancellationJson {
    #[schema(format = DateTime)]
    at: String,
    by: String,
    reason: String,
}

impl From<Claim> for ClaimJson {
    fn from(claim: Claim) -> Self {
        let (mut handover, mut cancellation, mut sent) = (None, None, None);
        if let Some(Settled { at, by, how }) = claim.settled {
            let at = format_ms(at);
            match how {
                Settlement::HandedOver(Handover { proxy, id_checked }) => {
                    handover = Some(HandoverJson {
                        at,
                        by,
                        collected_by: proxy,
                        id_checked,
                    });
                }
                Settlement::Posted { carrier, tracking } => {
                    sent = Some(SentJson {
                        at,
                        by,
                        carrier,
                        tracking,
                    });
                }
                Settlement::Cancelled { reason } => cancellation = Some(CancellationJson { at, by, reason }),
            }
        }
        let post = claim.post.map(|post| PostJson {
            address: post.address,
            requested_at: format_ms(post.requested_at),
            fee: post.fee.map(|fee| FeeJson {
                amount: fee.amount,
                at: format_ms(fee.at),
            }),
            payment: post.payment.map(|payment| PaymentJson {
                note: payment.note,
                at: format_ms(payment.at),
                by: payment.by,
            }),
            sent,
        });
        Self {
            id: claim.id.get(),
            item_id: claim.item_id.get(),
            claimant: claim.claimant,
            message: claim.message,
            status: claim.status.into(),
            created_at: format_ms(claim.created_at),
            decided_at: claim.decided_at.map(format_ms),
            decided_by: claim.decided_by,
            handover,
            cancellation,
            post,
            contact: None,
        }
    }
}

impl ClaimJson {
    /// `claim` with how to reach its claimant, for the desk judging it.
    pub fn with_contact(claim: Claim) -> Self {
        let contact = ContactJson {
            name: claim.contact.name.clone(),
            email: claim.contact.email.clone(),
        };
        Self {
            contact: Some(contact),
            ..Self::from(claim)
        }
    }
}

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "lowercase")]
#[schema(as = ClaimStatus)]
pub enum ClaimStatusJson {
    Open,
    Accepted,
    Rejected,
    Withdrawn,
    Collected,
    Posted,
    Cancelled,
}

impl From<ClaimStatus> for ClaimStatusJson {
    fn from(status: ClaimStatus) -> Self {
        match status {
            ClaimStatus::Open => Self::Open,
            ClaimStatus::Accepted => Self::Accepted,
            ClaimStatus::Rejected => Self::Rejected,
            ClaimStatus::Withdrawn => Self::Withdrawn,
            ClaimStatus::Collected => Self::Collected,
            ClaimStatus::Posted => Self::Posted,
            ClaimStatus::Cancelled => Self::Cancelled,
        }
    }
}

/// An item of the other kind that may be the same object (`GET /api/items/:id/matches`).
#[derive(Serialize, ToSchema)]
#[schema(as = Match)]
pub struct MatchJson<'a> {
    #[schema(value_type = schemas::Item)]
    pub item: ItemJson<'a>,
    /// How likely, 0–1.
    #[schema(minimum = 0, maximum = 1)]
    pub score: f64,
    /// Meters between the two centres.
    #[schema(minimum = 0)]
    pub distance: f64,
    /// Whether the score is one from which owners are told (extension).
    pub likely: bool,
    /// What each signal added to the score, and the words the two share (extension).
    pub why: WhyJson,
}

/// Why a match scored what it did: the parts of its score from meaning, place, time,
/// category, colour and makers (the rest is from the shared words, listed).
#[derive(Serialize, ToSchema)]
pub struct WhyJson {
    pub meaning: f64,
    pub words: Vec<String>,
    pub place: f64,
    pub time: f64,
    pub category: f64,
    pub colour: f64,
    /// What naming different makers took away: negative, or 0.
    pub brand: f64,
}

impl From<&Why> for WhyJson {
    fn from(why: &Why) -> Self {
        Self {
            meaning: why.meaning,
            words: why.words.clone(),
            place: why.place,
            time: why.time,
            category: why.category,
            colour: why.colour,
            brand: why.brand,
        }
    }
}

impl<'a> ItemJson<'a> {
    /// `item` with `keys`, its `holdUntil` by `hold`.
    pub fn new(item: &'a Item, keys: &'a ItemKeys, hold: &'a HoldPolicy, img_data: Option<&'a str>) -> Self {
        Self {
            item,
            keys,
            hold,
            img_data,
        }
    }
}

impl Serialize for ItemJson<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let item = self.item;
        let photo_url = |kind: &str| {
            item.photo_version
                .as_ref()
                .map(|v| format!("/api/items/{}/{kind}?v={v}", item.id))
        };
        let mut map = serializer.serialize_map(None)?;
        for key in self.keys.iter() {
            let name = key.name();
            if self.keys.withholds(item, key) {
                map.serialize_entry(name, &())?;
                continue;
            }
            match key {
                ItemKey::Id => map.serialize_entry(name, &item.id.get()),
                ItemKey::Title => map.serialize_entry(name, &item.title),
                ItemKey::Desc => map.serialize_entry(name, &item.desc),
                ItemKey::Cat => map.serialize_entry(name, &item.cat),
                ItemKey::ImgData => map.serialize_entry(name, &self.img_data),
                ItemKey::Lat => map.serialize_entry(name, &item.lat),
                ItemKey::Lng => map.serialize_entry(name, &item.lng),
                ItemKey::Radius => map.serialize_entry(name, &item.radius),
                ItemKey::Status => map.serialize_entry(name, item.status.as_str()),
                ItemKey::StoragePlace => map.serialize_entry(name, &item.storage_place),
                ItemKey::CreatedAt => map.serialize_entry(name, &format_ms(item.created_at)),
                ItemKey::CreatedBy => map.serialize_entry(name, &item.created_by),
                ItemKey::Kind => map.serialize_entry(name, item.kind.as_str()),
                ItemKey::PhotoUrl => map.serialize_entry(name, &photo_url("photo")),
                ItemKey::ThumbUrl => map.serialize_entry(name, &photo_url("thumb")),
                ItemKey::ReturnedAt => map.serialize_entry(name, &item.returned_at.map(format_ms)),
                ItemKey::Place => map.serialize_entry(name, &item.place),
                ItemKey::Finder => map.serialize_entry(name, &item.finder.as_ref().map(FinderJson::from)),
                ItemKey::Verification => map.serialize_entry(name, &item.verification),
                ItemKey::HappenedFrom => map.serialize_entry(name, &item.happened.map(|h| format_ms(h.from))),
                ItemKey::HappenedUntil => map.serialize_entry(name, &item.happened.map(|h| format_ms(h.until))),
                ItemKey::HoldUntil => map.serialize_entry(name, &item.hold_until(self.hold).map(format_ms)),
                ItemKey::DisposedAt => map.serialize_entry(name, &item.disposal.as_ref().map(|d| format_ms(d.at))),
                ItemKey::Disposal => map.serialize_entry(name, &item.disposal.as_ref().map(DisposalJson::from)),
                ItemKey::ClosedAt => map.serialize_entry(name, &item.closed_at.map(format_ms)),
                ItemKey::SiteId => map.serialize_entry(name, &item.site_id),
                ItemKey::BinId => map.serialize_entry(name, &item.bin_id),
                ItemKey::TransitTo => map.serialize_entry(name, &item.transit_to),
            }?;
        }
        map.end()
    }
}

/// Who handed an item in: `{ name, contact }` (staff only).
#[derive(Serialize, ToSchema)]
#[schema(as = Finder)]
pub struct FinderJson<'a> {
    name: Option<&'a str>,
    contact: Option<&'a str>,
}

impl<'a> From<&'a Finder> for FinderJson<'a> {
    fn from(finder: &'a Finder) -> Self {
        Self {
            name: finder.name.as_deref(),
            contact: finder.contact.as_deref(),
        }
    }
}

/// What became of a found item nobody claimed: `{ method, note }`.
#[derive(Serialize, ToSchema)]
#[schema(as = Disposal)]
pub struct DisposalJson<'a> {
    #[schema(value_type = String, pattern = "^(donated|auctioned|destroyed|returned-to-finder|transferred)$")]
    method: &'static str,
    note: Option<&'a str>,
}

impl<'a> From<&'a Disposal> for DisposalJson<'a> {
    fn from(disposal: &'a Disposal) -> Self {
        Self {
            method: disposal.method.as_str(),
            note: disposal.note.as_deref(),
        }
    }
}

/// An account as administrators see it: `{ id, name, isAdmin, role, sites, email, disabled,
/// verified, created_at }`.
#[derive(Serialize, ToSchema)]
#[schema(as = Account)]
pub struct AccountJson<'a> {
    #[serde(flatten)]
    user: UserJson<'a>,
    #[serde(flatten)]
    access: AccessJson<'a>,
    #[schema(format = Email)]
    email: Option<&'a str>,
    disabled: bool,
    /// False for a sign-up whose address is not verified yet: it cannot log in.
    verified: bool,
    #[schema(format = DateTime)]
    created_at: String,
    /// In lists: whether failed logins lock it now (what unlocking forgets).
    #[serde(skip_serializing_if = "Option::is_none")]
    locked: Option<bool>,
    /// Only `true`, and only then: the account was made for a visitor whose lost report
    /// staff took at the desk.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    visitor: bool,
    /// The phone number a visitor gave the desk, when they gave one.
    #[serde(skip_serializing_if = "Option::is_none")]
    phone: Option<&'a str>,
}

impl AccountJson<'_> {
    /// With whether failed logins lock it now.
    pub fn locked(self, locked: bool) -> Self {
        Self {
            locked: Some(locked),
            ..self
        }
    }
}

impl<'a> From<&'a Account> for AccountJson<'a> {
    fn from(account: &'a Account) -> Self {
        Self {
            user: UserJson::from(&account.user),
            access: AccessJson::from(&account.user),
            email: account.email.as_deref(),
            disabled: account.disabled,
            verified: account.verified,
            created_at: format_ms(account.created_at),
            locked: None,
            visitor: account.visitor,
            phone: account.phone.as_deref(),
        }
    }
}

/// What an account is to the service: `{ role, sites }` (`GET /api/me/access`, and in
/// accounts).
#[derive(Serialize, ToSchema)]
#[schema(as = Access)]
pub struct AccessJson<'a> {
    /// `member`, `staff` (works at `sites`) or `administrator`.
    #[schema(value_type = String, example = "staff")]
    role: &'static str,
    /// The ids of the sites the account works at.
    sites: &'a [i64],
}

impl<'a> From<&'a User> for AccessJson<'a> {
    fn from(user: &'a User) -> Self {
        Self {
            role: user.role.name(),
            sites: &user.sites,
        }
    }
}

/// One entry of an item's change log: `{ by, at, change }`, `change` as recorded.
#[derive(Serialize, ToSchema)]
#[schema(as = Change)]
pub struct ChangeJson {
    /// Who: an administrator's user id.
    by: String,
    #[schema(format = DateTime)]
    at: String,
    /// What changed, e.g. `{ "status": "approved" }`, `{ "deleted": true }`,
    /// `{ "handedOver": { "claim": 3, "to": "alice" } }`, `{ "disposal": { "method", "note" } }`,
    /// `{ "closed": { "reason" } }`.
    #[schema(value_type = Object)]
    change: serde_json::Value,
}

impl From<ChangeRecord> for ChangeJson {
    fn from(record: ChangeRecord) -> Self {
        Self {
            by: record.changed_by,
            at: format_ms(record.changed_at),
            // Written by the service as JSON; anything else is shown as the text it is.
            change: serde_json::from_str(&record.change).unwrap_or(serde_json::Value::String(record.change)),
        }
    }
}

/// `{ ok: true }`: done.
#[derive(Serialize, ToSchema)]
#[schema(as = Ok)]
pub struct OkJson {
    #[schema(value_type = bool, example = true)]
    ok: bool,
}

impl OkJson {
    pub const DONE: Self = Self { ok: true };
}

/// `GET /api/me`: the user, or `null`.
#[derive(Serialize, ToSchema)]
#[schema(as = Me)]
pub struct MeJson<'a> {
    pub user: Option<UserJson<'a>>,
}

/// `POST /api/login`: `{ ok: true, user }`.
#[derive(Serialize, ToSchema)]
#[schema(as = LoggedIn)]
pub struct LoginJson<'a> {
    #[schema(value_type = bool, example = true)]
    ok: bool,
    user: UserJson<'a>,
}

impl<'a> LoginJson<'a> {
    pub fn new(user: &'a User) -> Self {
        Self {
            ok: true,
            user: user.into(),
        }
    }
}

/// `GET /api/me/email`: `{ email, pending }`: the address in use and the one waiting for its
/// verification, each `null` when there is none.
#[derive(Serialize, ToSchema)]
#[schema(as = Email)]
pub struct EmailJson<'a> {
    #[schema(format = Email)]
    email: Option<&'a str>,
    #[schema(format = Email)]
    pending: Option<&'a str>,
}

impl<'a> From<&'a EmailState> for EmailJson<'a> {
    fn from(state: &'a EmailState) -> Self {
        Self {
            email: state.email.as_deref(),
            pending: state.pending.as_deref(),
        }
    }
}

/// `PATCH /api/me`: `{ ok: true, email, pending, lang }`.
#[derive(Serialize, ToSchema)]
#[schema(as = EmailSaved)]
pub struct EmailSavedJson<'a> {
    #[schema(value_type = bool, example = true)]
    ok: bool,
    #[serde(flatten)]
    addresses: EmailJson<'a>,
    /// The language emails are written in: `en`, `ko` or `es`; `null` until chosen (English).
    #[schema(value_type = Option<String>)]
    lang: Option<&'static str>,
}

impl<'a> EmailSavedJson<'a> {
    pub fn new(state: &'a EmailState, lang: Option<Lang>) -> Self {
        Self {
            ok: true,
            addresses: state.into(),
            lang: lang.map(Lang::as_str),
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::domain::{ItemId, ItemKind, ItemStatus};

    fn item() -> Item {
        Item {
            id: ItemId::new(7).unwrap(),
            title: "Umbrella".into(),
            desc: None,
            cat: Some("bags".into()),
            kind: ItemKind::Found,
            photo_version: Some("abc".into()),
            lat: 51.5,
            lng: -0.1,
            radius: 0.0,
            status: ItemStatus::Approved,
            storage_place: None,
            place: None,
            created_at: 1_737_109_800_007,
            created_by: "alice".into(),
            returned_at: None,
            finder: None,
            verification: None,
            happened: None,
            category_hold_days: None,
            site_hold_days: None,
            sensitive: false,
            disposal: None,
            closed_at: None,
            version: 3,
            site_id: Some(1),
            bin_id: None,
            transit_to: None,
        }
    }

    #[test]
    fn an_item_has_the_contracts_twelve_keys() {
        let keys = ItemKeys::parse(None).unwrap();
        assert_eq!(
            serde_json::to_value(ItemJson::new(
                &item(),
                &keys,
                &HoldPolicy::default(),
                Some("data:image/png;base64,AA==")
            ))
            .unwrap(),
            json!({
                "id": 7, "title": "Umbrella", "desc": null, "cat": "bags", "imgData": "data:image/png;base64,AA==",
                "lat": 51.5, "lng": -0.1, "radius": 0.0, "status": "approved", "storagePlace": null,
                "created_at": "2025-01-17T10:30:00.007Z", "createdBy": "alice"
            })
        );
    }

    #[test]
    fn fields_select_keys_in_the_order_named() {
        let keys = ItemKeys::parse(Some("thumbUrl, kind,id,kind,returnedAt,photoUrl")).unwrap();
        let text = serde_json::to_string(&ItemJson::new(&item(), &keys, &HoldPolicy::default(), None)).unwrap();
        assert_eq!(
            text,
            r#"{"thumbUrl":"/api/items/7/thumb?v=abc","kind":"found","id":7,"returnedAt":null,"photoUrl":"/api/items/7/photo?v=abc"}"#
        );
    }
}
