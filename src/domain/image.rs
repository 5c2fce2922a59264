//! Validation of item photos sent as `data:image/...;base64,...` URLs.

use base64::{Engine, engine::general_purpose::STANDARD};

use super::ValidationError;

/// Largest accepted photo, decoded.
pub const MAX_IMAGE_BYTES: usize = 5 * 1024 * 1024;

const FIELD: &str = "imgData";

/// Accepts a data URL of a PNG, JPEG, GIF or WebP image whose bytes really are one,
/// of at most [`MAX_IMAGE_BYTES`] decoded.
pub fn check_image_data_url(url: &str) -> Result<(), ValidationError> {
    let invalid = |msg: &str| ValidationError::new(FIELD, msg.to_owned());
    let (mime, payload) = url
        .strip_prefix("data:")
        .and_then(|rest| rest.split_once(";base64,"))
        .ok_or_else(|| invalid("imgData must be a data URL (data:image/<type>;base64,<data>)"))?;
    let expected_magic: fn(&[u8]) -> bool = match mime.to_ascii_lowercase().as_str() {
        "image/png" => |b| b.starts_with(b"\x89PNG\r\n\x1a\n"),
        "image/jpeg" => |b| b.starts_with(b"\xff\xd8\xff"),
        "image/gif" => |b| b.starts_with(b"GIF87a") || b.starts_with(b"GIF89a"),
        "image/webp" => |b| b.len() >= 12 && &b[..4] == b"RIFF" && &b[8..12] == b"WEBP",
        _ => return Err(invalid("imgData must be a PNG, JPEG, GIF or WebP image")),
    };
    // Refuse before decoding anything that cannot fit.
    if payload.len() / 4 * 3 > MAX_IMAGE_BYTES + 3 {
        return Err(invalid("imgData must be at most 5 MiB"));
    }
    let bytes = STANDARD
        .decode(payload)
        .map_err(|_| invalid("imgData must be valid base64"))?;
    if bytes.len() > MAX_IMAGE_BYTES {
        return Err(invalid("imgData must be at most 5 MiB"));
    }
    if !expected_magic(&bytes) {
        return Err(invalid("imgData does not contain the image type it declares"));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    const PNG_1PX: &str =
        "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";

    fn message(url: &str) -> String {
        check_image_data_url(url).unwrap_err().message.into_owned()
    }

    #[test]
    fn accepts_a_real_png() {
        check_image_data_url(&format!("data:image/png;base64,{PNG_1PX}")).unwrap();
    }

    #[test]
    fn rejects_other_types_and_shapes() {
        assert!(message("data:text/plain;base64,aGVsbG8=").contains("PNG, JPEG"));
        assert!(message("image/png;base64,AAAA").contains("data URL"));
        assert!(message("data:image/png,rawdata").contains("data URL"));
    }

    #[test]
    fn rejects_broken_base64_and_mismatched_bytes() {
        assert!(message("data:image/png;base64,!!!!").contains("base64"));
        assert!(message("data:image/png;base64,aGVsbG8=").contains("declares"));
        assert!(message(&format!("data:image/jpeg;base64,{PNG_1PX}")).contains("declares"));
    }

    #[test]
    fn rejects_oversized_images_before_decoding() {
        let huge = format!("data:image/png;base64,{}", "A".repeat(MAX_IMAGE_BYTES / 3 * 4 + 16));
        assert!(message(&huge).contains("5 MiB"));
    }
}
