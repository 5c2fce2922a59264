//! The service's own types: what the store keeps (items, users, messages) and the checked
//! inputs that change it. Every input is parsed into one of these before it reaches the store.

pub mod access;
mod account;
mod bin;
pub mod brands;
mod category;
mod claim;
pub mod colours;
mod custody;
mod edit;
mod event;
mod fields;
pub mod geo;
mod happened;
mod item;
pub mod label;
mod listing;
pub mod matching;
mod meaning;
mod message;
mod named_place;
mod notification;
mod particles;
mod photo;
mod phrases;
mod push;
pub mod receipt;
pub mod search;
mod signup;
mod site;
mod sso;
mod stats;
pub mod things;
mod user;
mod visitor;
pub mod words;

use std::borrow::Cow;

pub use account::{
    Account, AccountPatch, AccountQuery, AccountSort, EmailChange, ImportedAccount, NewAccount, PasswordChange,
    PasswordReset, ProfileChange, current_password,
};
pub use bin::{Bin, BinFields, MAX_BIN_NAME};
pub use category::{Category, CategoryFields, CategoryNames};
pub use claim::{
    Claim, ClaimId, ClaimMessage, ClaimRefusal, ClaimStatus, Contact, Fee, Handover, MOST_CLAIM_MESSAGES, Payment,
    PostRequest, Settled, Settlement, parse_address, parse_cancellation, parse_claim_message, parse_decision,
    parse_fee, parse_handover, parse_message, parse_payment, parse_shipment,
};
pub use custody::{
    CustodyRefusal, Disposal, DisposalMethod, Finder, HoldPolicy, MAX_HOLD_DAYS, NewDisposal, days_ms,
    parse_close_reason, parse_hold_days_by_category,
};
pub use edit::ReportEdit;
pub use event::{Committed, DeletedMessage, Event, Reviewed};
pub use fields::{Fields, query_flag, query_record_id};
pub use happened::Happened;
pub use item::{
    ImportedItem, Item, ItemChange, ItemId, ItemKind, ItemNotFound, ItemPatch, ItemStatus, MAX_REPORT_BYTES, NewItem,
};
pub use listing::{BestCursor, Cursor, Due, ItemFilter, ListRequest, MAX_LIMIT, Near, Sort, Visibility, parse_limit};
pub use meaning::{DIM as MEANING_DIM, Meaning, says_something};
pub use message::{ChatInput, Message, MessageId, ThreadInput, ThreadRef, WrittenMessage, check_join_payload};
pub use named_place::{NamedPlace, NewPlace};
pub use notification::{
    COUNT_MARK, MAX_IDS as MAX_NOTIFICATION_IDS, Notice, NoticeKind, Notification, NotificationIds, NotificationPage,
    review_phrase,
};
pub use photo::{NewPhoto, Photo, THUMB_TYPE, thumbnail_of_stored};
pub use phrases::{Lang, Phrase, say};
pub use push::PushSubscription;
pub use signup::{AccountMailKind, BAD_LINK, LinkPurpose, LinkToken, NewPasswordByLink, ResetRequest, Signup};
pub use site::{Site, SiteFields, nearest as nearest_site};
pub use sso::{SsoClaims, SsoIdentity};
pub use stats::{Stats, StatsWindow};
pub use user::{Credentials, DisplayName, Email, Password, User, UserId};
pub use visitor::Visitor;

/// A rejected input: the message clients see and the field it concerns.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct ValidationError {
    pub message: Cow<'static, str>,
    pub field: Option<&'static str>,
}

impl ValidationError {
    pub fn new(field: &'static str, message: impl Into<Cow<'static, str>>) -> Self {
        Self {
            message: message.into(),
            field: Some(field),
        }
    }
}

/// Checks a piece of free text: at most `max` characters and no NUL (which PostgreSQL
/// cannot store), returned trimmed of whitespace and invisible characters; `None` when
/// nothing is left.
fn bounded_text(field: &'static str, value: &str, max: usize) -> Result<Option<String>, ValidationError> {
    let value = trim_blank(value);
    if value.contains('\0') {
        return Err(ValidationError::new(
            field,
            format!("{field} must not contain NUL characters"),
        ));
    }
    if value.chars().count() > max {
        return Err(ValidationError::new(
            field,
            format!("{field} must be at most {max} characters"),
        ));
    }
    Ok((!value.is_empty()).then(|| value.to_owned()))
}

/// Refuses `text` when a character in it overrides, embeds or isolates a text direction
/// (U+202A–U+202E, U+2066–U+2069): they reorder what follows, so a name "Front \u{202E}kseD"
/// shows as "Front Desk". (Marks such as U+200F, which reorder nothing, stay.)
fn refuse_direction_overrides(field: &'static str, text: &str) -> Result<(), ValidationError> {
    if text.contains(|c| matches!(c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')) {
        return Err(ValidationError::new(
            field,
            format!("{field} must not contain characters that override the text direction"),
        ));
    }
    Ok(())
}

/// `text` without leading and trailing whitespace and invisible characters: a title of
/// zero-width spaces is as blank as one of spaces.
pub(crate) fn trim_blank(text: &str) -> &str {
    text.trim_matches(|c: char| c.is_whitespace() || is_invisible(c))
}

/// Characters that show nothing and take no room: zero-width spaces and joiners, direction
/// marks, word joiners and invisible operators, the BOM, variation selectors, Hangul fillers,
/// the blank Braille pattern, tags.
fn is_invisible(c: char) -> bool {
    matches!(
        c,
        '\u{00AD}'
            | '\u{034F}'
            | '\u{061C}'
            | '\u{115F}'..='\u{1160}'
            | '\u{17B4}'..='\u{17B5}'
            | '\u{180B}'..='\u{180F}'
            | '\u{200B}'..='\u{200F}'
            | '\u{202A}'..='\u{202E}'
            | '\u{2060}'..='\u{206F}'
            | '\u{2800}'
            | '\u{3164}'
            | '\u{FE00}'..='\u{FE0F}'
            | '\u{FEFF}'
            | '\u{FFA0}'
            | '\u{1BCA0}'..='\u{1BCA3}'
            | '\u{1D173}'..='\u{1D17A}'
            | '\u{E0000}'..='\u{E0FFF}'
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn invisible_text_is_blank() {
        for blank in [
            "\u{200B}\u{200B}",
            " \u{FEFF} ",
            "\u{2060}\u{200D}\t",
            "\u{3164}",
            "\u{2800}",
            "\u{115F}\u{1160}",
            "\u{FFA0}",
        ] {
            assert_eq!(bounded_text("title", blank, 10).unwrap(), None, "{blank:?}");
        }
        assert_eq!(
            bounded_text("title", "\u{200B} Umbrella\u{200D} ", 10)
                .unwrap()
                .as_deref(),
            Some("Umbrella")
        );
        // Joiners inside text (emoji sequences) stay.
        assert_eq!(trim_blank("👩\u{200D}💻"), "👩\u{200D}💻");
    }
}
