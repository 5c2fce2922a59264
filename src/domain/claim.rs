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
    /// How an accepted claim ended: its handover or its cancellation.
    pub settled: Option<Settled>,
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
    /// Handed over or cancelled when it is not waiting for pickup.
    NotAccepted,
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
}
