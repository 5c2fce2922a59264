//! How the service's values look in API answers: the contract's JSON shapes and key names,
//! the extension keys, and `?fields=` selection.

use std::borrow::Cow;

use serde::{Serialize, Serializer, ser::SerializeMap};

use crate::{
    domain::{Account, Claim, Item, User},
    error::AppError,
    store::ChangeRecord,
    time::format_ms,
};

/// A key of an item in API answers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ItemKey {
    Id,
    Title,
    Desc,
    Cat,
    ImgData,
    Lat,
    Lng,
    Radius,
    Status,
    StoragePlace,
    CreatedAt,
    CreatedBy,
    Kind,
    PhotoUrl,
    ThumbUrl,
    ReturnedAt,
}

impl ItemKey {
    /// The contract's twelve keys, in the order answers carry them.
    pub const CONTRACT: [Self; 12] = [
        Self::Id,
        Self::Title,
        Self::Desc,
        Self::Cat,
        Self::ImgData,
        Self::Lat,
        Self::Lng,
        Self::Radius,
        Self::Status,
        Self::StoragePlace,
        Self::CreatedAt,
        Self::CreatedBy,
    ];
    /// The extension fields, which `fields` may name besides the contract's.
    const EXTENSIONS: [Self; 4] = [Self::Kind, Self::PhotoUrl, Self::ThumbUrl, Self::ReturnedAt];

    pub fn name(self) -> &'static str {
        match self {
            Self::Id => "id",
            Self::Title => "title",
            Self::Desc => "desc",
            Self::Cat => "cat",
            Self::ImgData => "imgData",
            Self::Lat => "lat",
            Self::Lng => "lng",
            Self::Radius => "radius",
            Self::Status => "status",
            Self::StoragePlace => "storagePlace",
            Self::CreatedAt => "created_at",
            Self::CreatedBy => "createdBy",
            Self::Kind => "kind",
            Self::PhotoUrl => "photoUrl",
            Self::ThumbUrl => "thumbUrl",
            Self::ReturnedAt => "returnedAt",
        }
    }
}

/// The keys an answer's items carry: the contract's twelve, or those `?fields=` names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ItemKeys(Cow<'static, [ItemKey]>);

impl ItemKeys {
    /// Reads `?fields=k1,k2,…`; without it, the contract's keys.
    pub fn parse(fields: Option<&str>) -> Result<Self, AppError> {
        let Some(fields) = fields else {
            return Ok(Self(Cow::Borrowed(&ItemKey::CONTRACT)));
        };
        let invalid = || AppError::invalid("Invalid fields");
        let mut keys = Vec::new();
        for name in fields.split(',').map(str::trim) {
            let key = ItemKey::CONTRACT
                .into_iter()
                .chain(ItemKey::EXTENSIONS)
                .find(|k| k.name() == name)
                .ok_or_else(invalid)?;
            if !keys.contains(&key) {
                keys.push(key);
            }
        }
        Ok(Self(Cow::Owned(keys)))
    }

    pub fn contains(&self, key: ItemKey) -> bool {
        self.0.contains(&key)
    }

    /// Names the selection in ETags: answers with other keys are other representations.
    pub fn tag(&self) -> String {
        self.0.iter().map(|k| k.name()).collect::<Vec<_>>().join(",")
    }
}

/// An item as an answer shows it: the selected keys, absent values `null`.
pub struct ItemJson<'a> {
    item: &'a Item,
    keys: &'a ItemKeys,
    /// The photo as a `data:` URL, when `imgData` is selected and the item has one.
    img_data: Option<&'a str>,
}

/// A claim as its claimant and administrators see it (nobody else ever does).
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ClaimJson {
    id: i64,
    item_id: i64,
    claimant: String,
    message: String,
    status: &'static str,
    #[serde(rename = "created_at")]
    created_at: String,
    #[serde(rename = "decided_at")]
    decided_at: Option<String>,
    decided_by: Option<String>,
}

impl From<Claim> for ClaimJson {
    fn from(claim: Claim) -> Self {
        Self {
            id: claim.id,
            item_id: claim.item_id.get(),
            claimant: claim.claimant,
            message: claim.message,
            status: claim.status.as_str(),
            created_at: format_ms(claim.created_at),
            decided_at: claim.decided_at.map(format_ms),
            decided_by: claim.decided_by,
        }
    }
}

/// One match of `GET /api/items/:id/matches`.
#[derive(Serialize)]
pub struct MatchJson<'a> {
    pub item: ItemJson<'a>,
    pub score: f64,
    pub distance: f64,
}

impl<'a> ItemJson<'a> {
    pub fn new(item: &'a Item, keys: &'a ItemKeys, img_data: Option<&'a str>) -> Self {
        Self { item, keys, img_data }
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
        let mut map = serializer.serialize_map(Some(self.keys.0.len()))?;
        for &key in self.keys.0.iter() {
            let name = key.name();
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
            }?;
        }
        map.end()
    }
}

/// An account as staff see it: `{ id, name, isAdmin, email, disabled, created_at }`.
#[derive(Serialize)]
pub struct AccountJson<'a> {
    #[serde(flatten)]
    user: UserJson<'a>,
    email: Option<&'a str>,
    disabled: bool,
    created_at: String,
}

impl<'a> From<&'a Account> for AccountJson<'a> {
    fn from(account: &'a Account) -> Self {
        Self {
            user: UserJson::from(&account.user),
            email: account.email.as_deref(),
            disabled: account.disabled,
            created_at: format_ms(account.created_at),
        }
    }
}

/// One entry of an item's change log: `{ by, at, change }`, `change` as recorded.
#[derive(Serialize)]
pub struct ChangeJson {
    by: String,
    at: String,
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

/// A user as the session endpoints show it: `{ id, name, isAdmin }`.
#[derive(Serialize)]
pub struct UserJson<'a> {
    id: &'a str,
    name: &'a str,
    #[serde(rename = "isAdmin")]
    is_admin: bool,
}

impl<'a> From<&'a User> for UserJson<'a> {
    fn from(user: &'a User) -> Self {
        Self {
            id: &user.id,
            name: &user.name,
            is_admin: user.is_admin,
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
            created_at: 1_737_109_800_007,
            created_by: "alice".into(),
            returned_at: None,
            version: 3,
        }
    }

    #[test]
    fn an_item_has_the_contracts_twelve_keys() {
        let keys = ItemKeys::parse(None).unwrap();
        assert_eq!(
            serde_json::to_value(ItemJson::new(&item(), &keys, Some("data:image/png;base64,AA=="))).unwrap(),
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
        let text = serde_json::to_string(&ItemJson::new(&item(), &keys, None)).unwrap();
        assert_eq!(
            text,
            r#"{"thumbUrl":"/api/items/7/thumb?v=abc","kind":"found","id":7,"returnedAt":null,"photoUrl":"/api/items/7/photo?v=abc"}"#
        );
        for bad in ["", "id,", "id,nope", "IMGDATA", " , "] {
            assert!(ItemKeys::parse(Some(bad)).is_err(), "{bad:?}");
        }
    }
}
