//! Claims: someone says a found item is theirs, with a private message that proves it; the
//! item's staff accept it (the item waits for its claimant at the desk) or reject it; the
//! claimant may withdraw an open claim. An accepted claim ends at the desk: handed over, with
//! the ID checked, or cancelled with a reason.

use std::str::FromStr;

use serde_json::{Map, Value};

use super::{ItemId, ValidationError, bounded_text, fields::Fields};

/// The longest message, in characters.
pub const MAX_MESSAGE: usize = 2_000;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ClaimStatus {
    Open,
    /// Ready for pickup: the item waits at its site for the claimant.
    Accepted,
    Rejected,
    Withdrawn,
    /// Handed over at the desk: the item is returned.
    Collected,
    /// Sent to the claimant by post: the item is returned.
    Posted,
    /// Accepted, then called off before the handover.
    Cancelled,
}

impl ClaimStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Open => "open",
            Self::Accepted => "accepted",
            Self::Rejected => "rejected",
            Self::Withdrawn => "withdrawn",
            Self::Collected => "collected",
            Self::Posted => "posted",
            Self::Cancelled => "cancelled",
        }
    }
}

impl FromStr for ClaimStatus {
    type Err = ValidationError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "open" => Ok(Self::Open),
            "accepted" => Ok(Self::Accepted),
            "rejected" => Ok(Self::Rejected),
            "withdrawn" => Ok(Self::Withdrawn),
            "collected" => Ok(Self::Collected),
            "posted" => Ok(Self::Posted),
            "cancelled" => Ok(Self::Cancelled),
            _ => Err(ValidationError::new("status", "Invalid status")),
        }
    }
}

/// A claim's identifier: a positive 64-bit integer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ClaimId(i64);

impl ClaimId {
    pub fn new(id: i64) -> Option<Self> {
        (id > 0).then_some(Self(id))
    }

    /// A `:cid` path segment: decimal digits only. What is not a claim id names no claim.
    pub fn parse(raw: &str) -> Result<Self, ClaimRefusal> {
        ItemId::parse(raw)
            .ok()
            .and_then(|id| Self::new(id.get()))
            .ok_or(ClaimRefusal::NoClaim)
    }

    pub fn get(self) -> i64 {
        self.0
    }
}

impl TryFrom<i64> for ClaimId {
    type Error = ValidationError;

    fn try_from(id: i64) -> Result<Self, Self::Error> {
        Self::new(id).ok_or_else(|| ValidationError::new("id", "Invalid claim ID"))
    }
}

impl TryFrom<String> for ClaimStatus {
    type Error = ValidationError;

    fn try_from(s: String) -> Result<Self, Self::Error> {
        s.parse()
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct Claim {
    pub id: ClaimId,
    pub item_id: ItemId,
    /// The claimant's user id.
    pub claimant: String,
    /// Private: only the claimant and administrators ever see it.
    pub message: String,
    pub status: ClaimStatus,
    /// Epoch milliseconds.
    pub created_at: i64,
    pub decided_at: Option<i64>,
    /// Who accepted or rejected it (for a withdrawn claim, the claimant).
    pub decided_by: Option<String>,
    /// How an accepted claim ended: its handover, its posting or its cancellation.
    pub settled: Option<Settled>,
    /// The claimant's request to have the item posted, once made.
    pub post: Option<PostRequest>,
    /// How to reach the claimant: their account's name and address.
    pub contact: Contact,
}

/// How to reach a claimant: what their account says.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Contact {
    pub name: String,
    pub email: Option<String>,
}

/// A request to have an accepted claim's item posted. The address is personal data: only the
/// claimant and the item's staff ever see it.
#[derive(Debug, Clone, PartialEq)]
pub struct PostRequest {
    pub address: String,
    /// Epoch milliseconds.
    pub requested_at: i64,
    /// The postage staff set, once they have.
    pub fee: Option<Fee>,
    /// How the fee was paid, once staff recorded it (the service takes no card data).
    pub payment: Option<Payment>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Fee {
    /// What it costs, as the office writes it ("4.50 EUR"); `None`: nothing.
    pub amount: Option<String>,
    pub at: i64,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Payment {
    /// How it was paid ("cash at the desk", "bank transfer 2024-118").
    pub note: String,
    pub at: i64,
    pub by: String,
}

impl Claim {
    /// Whether its claimant may ask for the item to be posted: accepted, not asked yet.
    pub fn may_request_post(&self) -> Result<(), ClaimRefusal> {
        self.may_settle()?;
        match self.post {
            Some(_) => Err(ClaimRefusal::PostRequested),
            None => Ok(()),
        }
    }

    /// Whether staff may set (or change) the postage: asked for, not paid yet.
    pub fn may_set_fee(&self) -> Result<(), ClaimRefusal> {
        match self.post_request()? {
            PostRequest { payment: Some(_), .. } => Err(ClaimRefusal::AlreadyPaid),
            _ => Ok(()),
        }
    }

    /// Whether staff may record the payment: a fee set that is not nothing, not paid yet.
    pub fn may_record_payment(&self) -> Result<(), ClaimRefusal> {
        match self.post_request()? {
            PostRequest { fee: None, .. } => Err(ClaimRefusal::FeeNotSet),
            PostRequest { payment: Some(_), .. } => Err(ClaimRefusal::AlreadyPaid),
            PostRequest {
                fee: Some(Fee { amount: None, .. }),
                ..
            } => Err(ClaimRefusal::NothingToPay),
            _ => Ok(()),
        }
    }

    /// Whether staff may send it: the fee set, and paid unless it is nothing.
    pub fn may_send(&self) -> Result<(), ClaimRefusal> {
        match self.post_request()? {
            PostRequest { fee: None, .. } => Err(ClaimRefusal::FeeNotSet),
            PostRequest {
                fee: Some(Fee { amount: Some(_), .. }),
                payment: None,
                ..
            } => Err(ClaimRefusal::NotPaid),
            _ => Ok(()),
        }
    }

    /// Whether its claimant and the item's staff may still write in its conversation: until
    /// it is decided against or settled. What was written stays readable.
    pub fn may_talk(&self) -> Result<(), ClaimRefusal> {
        match self.status {
            ClaimStatus::Open | ClaimStatus::Accepted => Ok(()),
            _ => Err(ClaimRefusal::Closed),
        }
    }

    /// Whether staff may settle it at the desk (hand it over, post it or call it off): it
    /// waits for pickup.
    pub fn may_settle(&self) -> Result<(), ClaimRefusal> {
        match self.status {
            ClaimStatus::Accepted => Ok(()),
            _ => Err(ClaimRefusal::NotAccepted),
        }
    }

    fn post_request(&self) -> Result<&PostRequest, ClaimRefusal> {
        self.may_settle()?;
        self.post.as_ref().ok_or(ClaimRefusal::NoPostRequest)
    }
}

/// The end of an accepted claim, at the desk.
#[derive(Debug, Clone, PartialEq)]
pub struct Settled {
    /// Epoch milliseconds.
    pub at: i64,
    /// The staff member who handed the item over or called the pickup off.
    pub by: String,
    pub how: Settlement,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Settlement {
    HandedOver(Handover),
    Posted { carrier: String, tracking: String },
    Cancelled { reason: String },
}

/// What staff record when the item leaves the desk with its owner.
#[derive(Debug, Clone, PartialEq)]
pub struct Handover {
    /// Who collected it on the claimant's behalf; `None`: the claimant.
    pub proxy: Option<String>,
    /// The identity document checked ("student card", "passport ending 4821"); `None` for a
    /// handover of the release before pickups, which recorded none.
    pub id_checked: Option<String>,
}

/// The longest proxy's name, ID description or cancellation reason, in characters.
pub const MAX_DESK_NOTE: usize = 200;

/// Why a claim cannot be made, decided or withdrawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ClaimRefusal {
    NoItem,
    NoClaim,
    /// The claimant reported the item.
    OwnItem,
    /// Lost, not approved, or no longer in custody (returned, disposed or closed).
    NotClaimable,
    /// The claimant has an open claim on the item already.
    AlreadyOpen,
    /// Accepted, rejected or withdrawn already.
    NotOpen,
    /// Only the claimant may withdraw a claim.
    NotClaimant,
    /// Handed over, posted or cancelled when it is not waiting for pickup.
    NotAccepted,
    /// Its item's posting was asked for already.
    PostRequested,
    /// Nobody asked for its item to be posted.
    NoPostRequest,
    /// Paid, or sent, before staff set the postage.
    FeeNotSet,
    /// Sent before the postage was paid.
    NotPaid,
    /// A payment recorded for postage that costs nothing.
    NothingToPay,
    /// The postage changed or paid again once paid.
    AlreadyPaid,
    /// Written to when it no longer waits for a decision or a pickup.
    Closed,
    /// Its conversation holds [`MOST_CLAIM_MESSAGES`] already.
    ConversationFull,
}

/// A message of a claim's own conversation: between its claimant and the staff of the
/// item's site, private to them, never in the item's public thread.
#[derive(Debug, Clone, PartialEq)]
pub struct ClaimMessage {
    pub id: i64,
    pub claim: ClaimId,
    /// Who wrote it: the claimant or a staff member.
    pub author: String,
    pub text: String,
    /// Epoch milliseconds.
    pub created_at: i64,
}

/// The most messages a claim's conversation keeps: bounds what one claim may store.
pub const MOST_CLAIM_MESSAGES: i64 = 200;

/// The body of `POST /api/claims/:cid/messages`: its `text`, 1–2,000 characters.
pub fn parse_claim_message(body: &Map<String, Value>) -> Result<String, ValidationError> {
    let f = Fields(body);
    bounded_text("text", f.string("text")?.unwrap_or(""), MAX_MESSAGE)?
        .ok_or_else(|| ValidationError::new("text", "text is required"))
}

/// The body of `POST /api/items/:id/claims`: the message, 1–2,000 characters.
pub fn parse_message(body: &Map<String, Value>) -> Result<String, ValidationError> {
    let f = Fields(body);
    f.string("message")?
        .map(|text| bounded_text("message", text, MAX_MESSAGE))
        .transpose()?
        .flatten()
        .ok_or_else(|| ValidationError::new("message", "message is required"))
}

/// The body of `PATCH /api/claims/:cid`: `accepted` (true) or `rejected` (false).
pub fn parse_decision(body: &Map<String, Value>) -> Result<bool, ValidationError> {
    match Fields(body).parsed::<ClaimStatus>("status")? {
        Some(ClaimStatus::Accepted) => Ok(true),
        Some(ClaimStatus::Rejected) => Ok(false),
        _ => Err(ValidationError::new("status", "Invalid status")),
    }
}

/// The body of `POST /api/claims/:cid/handover`: `{ idChecked, collectedBy? }` — the ID
/// shown (required), and the name of whoever collects on the claimant's behalf (absent, `null`
/// or blank: the claimant), each at most 200 characters.
pub fn parse_handover(body: &Map<String, Value>) -> Result<Handover, ValidationError> {
    let f = Fields(body);
    let id_checked = f
        .text("idChecked", MAX_DESK_NOTE)?
        .ok_or_else(|| ValidationError::new("idChecked", "idChecked is required"))?;
    let proxy = f.text("collectedBy", MAX_DESK_NOTE)?;
    Ok(Handover {
        proxy,
        id_checked: Some(id_checked),
    })
}

/// The longest postal address, in characters.
pub const MAX_ADDRESS: usize = 500;
/// The longest fee, carrier or tracking number, in characters.
pub const MAX_POST_NOTE: usize = 100;

/// The body of `POST /api/claims/:cid/post`: `{ address }`, 1–500 characters (lines kept).
pub fn parse_address(body: &Map<String, Value>) -> Result<String, ValidationError> {
    Fields(body)
        .text("address", MAX_ADDRESS)?
        .ok_or_else(|| ValidationError::new("address", "address is required"))
}

/// The body of `POST /api/claims/:cid/post/fee`: `{ fee }`, what posting costs (1–100
/// characters), or `null` for nothing; the key is required.
pub fn parse_fee(body: &Map<String, Value>) -> Result<Option<String>, ValidationError> {
    let f = Fields(body);
    if !f.has("fee") {
        return Err(ValidationError::new("fee", "fee is required (null for none)"));
    }
    f.text("fee", MAX_POST_NOTE)
}

/// The body of `POST /api/claims/:cid/post/payment`: `{ note }`, how it was paid, 1–200
/// characters.
pub fn parse_payment(body: &Map<String, Value>) -> Result<String, ValidationError> {
    Fields(body)
        .text("note", MAX_DESK_NOTE)?
        .ok_or_else(|| ValidationError::new("note", "note is required"))
}

/// The body of `POST /api/claims/:cid/post/sent`: `{ carrier, tracking }`, each 1–100
/// characters.
pub fn parse_shipment(body: &Map<String, Value>) -> Result<(String, String), ValidationError> {
    let f = Fields(body);
    let required = |key: &'static str| {
        f.text(key, MAX_POST_NOTE)?
            .ok_or_else(|| ValidationError::new(key, format!("{key} is required")))
    };
    Ok((required("carrier")?, required("tracking")?))
}

/// The body of `POST /api/claims/:cid/cancel`: `{ reason }`, 1–200 characters.
pub fn parse_cancellation(body: &Map<String, Value>) -> Result<String, ValidationError> {
    Fields(body)
        .text("reason", MAX_DESK_NOTE)?
        .ok_or_else(|| ValidationError::new("reason", "reason is required"))
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn object(v: Value) -> Map<String, Value> {
        v.as_object().unwrap().clone()
    }

    #[test]
    fn a_message_is_one_to_two_thousand_characters_trimmed() {
        assert_eq!(
            parse_message(&object(json!({ "message": "  Mine: initials J.K.  " }))).unwrap(),
            "Mine: initials J.K."
        );
        assert_eq!(
            parse_message(&object(json!({ "message": "é".repeat(2_000) })))
                .unwrap()
                .chars()
                .count(),
            2_000
        );
        for bad in [
            json!({}),
            json!({ "message": "   " }),
            json!({ "message": 3 }),
            json!({ "message": "x".repeat(2_001) }),
        ] {
            assert!(parse_message(&object(bad.clone())).is_err(), "{bad}");
        }
    }

    #[test]
    fn claim_ids() {
        assert_eq!(ClaimId::parse("12").unwrap().get(), 12);
        for bad in ["0", "-3", "x", ""] {
            assert_eq!(ClaimId::parse(bad), Err(ClaimRefusal::NoClaim), "{bad:?}");
        }
    }

    #[test]
    fn a_decision_is_accepted_or_rejected() {
        assert!(parse_decision(&object(json!({ "status": "accepted" }))).unwrap());
        assert!(!parse_decision(&object(json!({ "status": "rejected" }))).unwrap());
        for bad in [
            json!({}),
            json!({ "status": "open" }),
            json!({ "status": "withdrawn" }),
            json!({ "status": 1 }),
        ] {
            assert_eq!(parse_decision(&object(bad)).unwrap_err().message, "Invalid status");
        }
    }

    #[test]
    fn a_handover_names_the_id_checked_and_who_collected() {
        let claimant = parse_handover(&object(json!({ "idChecked": " Student card " }))).unwrap();
        assert_eq!(
            claimant,
            Handover {
                proxy: None,
                id_checked: Some("Student card".into())
            }
        );
        let proxy = parse_handover(&object(json!({ "idChecked": "Passport", "collectedBy": "Ana Ruiz" }))).unwrap();
        assert_eq!(proxy.proxy.as_deref(), Some("Ana Ruiz"));
        assert_eq!(
            parse_handover(&object(json!({ "idChecked": "Passport", "collectedBy": "  " })))
                .unwrap()
                .proxy,
            None
        );
        for bad in [
            json!({}),
            json!({ "idChecked": "" }),
            json!({ "idChecked": 7 }),
            json!({ "idChecked": "x".repeat(201) }),
            json!({ "idChecked": "Passport", "collectedBy": 3 }),
            json!({ "idChecked": "Passport", "collectedBy": "x".repeat(201) }),
        ] {
            assert!(parse_handover(&object(bad.clone())).is_err(), "{bad}");
        }
    }

    #[test]
    fn a_cancellation_gives_its_reason() {
        assert_eq!(
            parse_cancellation(&object(json!({ "reason": "Owner found it was not theirs" }))).unwrap(),
            "Owner found it was not theirs"
        );
        for bad in [
            json!({}),
            json!({ "reason": " " }),
            json!({ "reason": "x".repeat(201) }),
        ] {
            assert_eq!(parse_cancellation(&object(bad)).unwrap_err().field, Some("reason"));
        }
    }

    fn accepted(post: Option<PostRequest>) -> Claim {
        Claim {
            id: ClaimId::new(1).unwrap(),
            item_id: ItemId::new(2).unwrap(),
            claimant: "vera".into(),
            message: "Mine".into(),
            status: ClaimStatus::Accepted,
            created_at: 0,
            decided_at: Some(1),
            decided_by: Some("desk".into()),
            settled: None,
            post,
            contact: Contact::default(),
        }
    }

    fn asked(fee: Option<Option<&str>>, paid: bool) -> Option<PostRequest> {
        Some(PostRequest {
            address: "1 Main St".into(),
            requested_at: 2,
            fee: fee.map(|amount| Fee {
                amount: amount.map(str::to_owned),
                at: 3,
            }),
            payment: paid.then(|| Payment {
                note: "cash".into(),
                at: 4,
                by: "desk".into(),
            }),
        })
    }

    #[test]
    fn a_post_is_asked_for_priced_paid_then_sent() {
        let waiting = accepted(None);
        assert_eq!(waiting.may_request_post(), Ok(()));
        assert_eq!(waiting.may_set_fee(), Err(ClaimRefusal::NoPostRequest));
        assert_eq!(waiting.may_send(), Err(ClaimRefusal::NoPostRequest));

        let unpriced = accepted(asked(None, false));
        assert_eq!(unpriced.may_request_post(), Err(ClaimRefusal::PostRequested));
        assert_eq!(unpriced.may_set_fee(), Ok(()));
        assert_eq!(unpriced.may_record_payment(), Err(ClaimRefusal::FeeNotSet));
        assert_eq!(unpriced.may_send(), Err(ClaimRefusal::FeeNotSet));

        let priced = accepted(asked(Some(Some("4.50 EUR")), false));
        assert_eq!(priced.may_record_payment(), Ok(()));
        assert_eq!(priced.may_send(), Err(ClaimRefusal::NotPaid));

        let free = accepted(asked(Some(None), false));
        assert_eq!(free.may_record_payment(), Err(ClaimRefusal::NothingToPay));
        assert_eq!(free.may_send(), Ok(()));

        let paid = accepted(asked(Some(Some("4.50 EUR")), true));
        assert_eq!(paid.may_set_fee(), Err(ClaimRefusal::AlreadyPaid));
        assert_eq!(paid.may_record_payment(), Err(ClaimRefusal::AlreadyPaid));
        assert_eq!(paid.may_send(), Ok(()));

        let mut collected = accepted(asked(Some(None), false));
        collected.status = ClaimStatus::Collected;
        assert_eq!(collected.may_send(), Err(ClaimRefusal::NotAccepted));
    }

    #[test]
    fn post_bodies() {
        assert_eq!(
            parse_address(&object(json!({ "address": " 1 Main St\nSpringfield " }))).unwrap(),
            "1 Main St\nSpringfield"
        );
        assert!(parse_address(&object(json!({ "address": "x".repeat(501) }))).is_err());
        assert_eq!(parse_fee(&object(json!({ "fee": null }))).unwrap(), None);
        assert_eq!(
            parse_fee(&object(json!({ "fee": "4.50 EUR" }))).unwrap().as_deref(),
            Some("4.50 EUR")
        );
        assert!(parse_fee(&object(json!({}))).is_err());
        assert!(parse_payment(&object(json!({ "note": "" }))).is_err());
        assert_eq!(
            parse_shipment(&object(json!({ "carrier": "DHL", "tracking": "JD0146" }))).unwrap(),
            ("DHL".to_owned(), "JD0146".to_owned())
        );
        assert_eq!(
            parse_shipment(&object(json!({ "carrier": "DHL" })))
                .unwrap_err()
                .message,
            "tracking is required"
        );
    }
}
