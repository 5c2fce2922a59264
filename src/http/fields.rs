//! Which keys an item answer carries (the contract's twelve, or those `?fields=` names), and
//! which of their values the reader is shown.

use std::borrow::Cow;

use crate::{domain::Item, error::AppError};

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
    Place,
    /// Private: answered to staff only.
    Finder,
    /// Private: answered to staff only.
    Verification,
    HappenedFrom,
    HappenedUntil,
    HoldUntil,
    DisposedAt,
    Disposal,
    ClosedAt,
    SiteId,
    /// Private: answered to staff only.
    BinId,
    TransitTo,
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
    const EXTENSIONS: [Self; 16] = [
        Self::Kind,
        Self::PhotoUrl,
        Self::ThumbUrl,
        Self::ReturnedAt,
        Self::Place,
        Self::Finder,
        Self::Verification,
        Self::HappenedFrom,
        Self::HappenedUntil,
        Self::HoldUntil,
        Self::DisposedAt,
        Self::Disposal,
        Self::ClosedAt,
        Self::SiteId,
        Self::BinId,
        Self::TransitTo,
    ];

    /// Every key `fields` may name: the contract's, then the extension fields.
    pub fn every() -> impl Iterator<Item = Self> {
        Self::CONTRACT.into_iter().chain(Self::EXTENSIONS)
    }

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
            Self::Place => "place",
            Self::Finder => "finder",
            Self::Verification => "verification",
            Self::HappenedFrom => "happenedFrom",
            Self::HappenedUntil => "happenedUntil",
            Self::HoldUntil => "holdUntil",
            Self::DisposedAt => "disposedAt",
            Self::Disposal => "disposal",
            Self::ClosedAt => "closedAt",
            Self::SiteId => "siteId",
            Self::BinId => "binId",
            Self::TransitTo => "transitTo",
        }
    }

    /// Whether only staff may read it: who handed an item in, what only its owner would know,
    /// and the bin it is kept in.
    fn private(self) -> bool {
        matches!(self, Self::Finder | Self::Verification | Self::BinId)
    }

    /// Whether the public view of `item` leaves it out (`null`): where it is kept and who
    /// reported it, always; its description and photo when its category is sensitive.
    fn withheld_from_public(self, item: &Item) -> bool {
        match self {
            Self::Desc | Self::ImgData | Self::PhotoUrl | Self::ThumbUrl => item.sensitive,
            key => key.withheld_in_public_view(),
        }
    }

    /// Whether the public view leaves it out of some items.
    fn withheld_in_public_view(self) -> bool {
        matches!(
            self,
            Self::StoragePlace | Self::CreatedBy | Self::Desc | Self::ImgData | Self::PhotoUrl | Self::ThumbUrl
        )
    }
}

/// Whose items a reader is shown whole.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Shown {
    /// Everyone's: staff, or every reader of a service that keeps the full view.
    Whole,
    /// Only their own reports (a visitor: none); the others in the public view.
    OwnWhole(Option<String>),
}

impl Shown {
    /// Whether `item` is shown in the public view, not whole.
    fn in_public_view(&self, item: &Item) -> bool {
        match self {
            Self::Whole => false,
            // Ids are ASCII and case-insensitive.
            Self::OwnWhole(viewer) => viewer
                .as_deref()
                .is_none_or(|viewer| !viewer.eq_ignore_ascii_case(&item.created_by)),
        }
    }

    /// Whether `key` of `item` is left out (`null`).
    pub fn withholds(&self, item: &Item, key: ItemKey) -> bool {
        key.withheld_from_public(item) && self.in_public_view(item)
    }
}

/// The keys an answer's items carry (the contract's twelve, or those `?fields=` names), and
/// whose items it shows whole.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ItemKeys {
    keys: Cow<'static, [ItemKey]>,
    shown: Shown,
}

impl ItemKeys {
    /// Reads `?fields=k1,k2,…`; without it, the contract's keys. Every item whole until
    /// [`ItemKeys::shown_to`] says otherwise.
    pub fn parse(fields: Option<&str>) -> Result<Self, AppError> {
        let Some(fields) = fields else {
            return Ok(Self::whole(Cow::Borrowed(&ItemKey::CONTRACT)));
        };
        let invalid = || AppError::invalid("Invalid fields");
        let mut keys = Vec::new();
        for name in fields.split(',').map(str::trim) {
            let key = ItemKey::every().find(|k| k.name() == name).ok_or_else(invalid)?;
            if !keys.contains(&key) {
                keys.push(key);
            }
        }
        Ok(Self::whole(Cow::Owned(keys)))
    }

    fn whole(keys: Cow<'static, [ItemKey]>) -> Self {
        Self {
            keys,
            shown: Shown::Whole,
        }
    }

    /// Every key but the photo's data (its address stands for it) and those only staff read:
    /// an item as its reporter has it in the copy of their data.
    pub fn readable_by_reporter() -> Self {
        Self::whole(
            ItemKey::every()
                .filter(|k| !k.private() && *k != ItemKey::ImgData)
                .collect(),
        )
    }

    /// The keys `viewer` may read: the private ones (the finder, verification, the bin) are for staff only,
    /// and left out for anyone else even when named.
    pub fn for_viewer(self, staff: bool) -> Self {
        if staff || !self.asks_private() {
            return self;
        }
        Self {
            keys: self.keys.iter().copied().filter(|k| !k.private()).collect(),
            ..self
        }
    }

    /// These keys, showing whole only the items `shown` says.
    pub fn shown_to(self, shown: Shown) -> Self {
        Self { shown, ..self }
    }

    /// Whether they name a key only staff may have: then who asks matters.
    pub fn asks_private(&self) -> bool {
        self.keys.iter().any(|k| k.private())
    }

    /// Whether they name a key the public view may leave out: then, in that view, who asks
    /// matters (a reporter sees their own reports whole).
    pub fn may_withhold(&self) -> bool {
        self.keys.iter().any(|k| k.withheld_in_public_view())
    }

    /// The keys, in the order answers carry them.
    pub fn iter(&self) -> impl Iterator<Item = ItemKey> + '_ {
        self.keys.iter().copied()
    }

    pub fn contains(&self, key: ItemKey) -> bool {
        self.keys.contains(&key)
    }

    /// Whether the answer leaves `key` of `item` out (`null`) for this reader.
    pub fn withholds(&self, item: &Item, key: ItemKey) -> bool {
        self.shown.withholds(item, key)
    }

    /// Names the selection of `item` in ETags: answers with other keys, or in the public view
    /// rather than whole (of a category marked sensitive or not: a mark changes no item's
    /// version), are other representations.
    pub fn tag(&self, item: &Item) -> String {
        let names = self.keys.iter().map(|k| k.name()).collect::<Vec<_>>().join(",");
        match (self.shown.in_public_view(item), item.sensitive) {
            (true, true) => format!("{names}~public~sensitive"),
            (true, false) => format!("{names}~public"),
            (false, _) => names,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_name_known_keys_once_in_the_order_given() {
        let keys = ItemKeys::parse(Some("thumbUrl, kind,id,kind")).unwrap();
        assert_eq!(
            keys.iter().collect::<Vec<_>>(),
            [ItemKey::ThumbUrl, ItemKey::Kind, ItemKey::Id]
        );
        for bad in ["", "id,", "id,nope", "IMGDATA", " , "] {
            assert!(ItemKeys::parse(Some(bad)).is_err(), "{bad:?}");
        }
        assert_eq!(ItemKeys::parse(None).unwrap().iter().count(), 12);
        let private = ItemKeys::parse(Some("id,finder,verification,binId")).unwrap();
        assert_eq!(private.clone().for_viewer(true), private);
        assert_eq!(private.for_viewer(false).iter().collect::<Vec<_>>(), [ItemKey::Id]);
    }
}
