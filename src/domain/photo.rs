//! Item photos: an upload (a `data:` URL) is checked by decoding it as the type it declares,
//! and a thumbnail is made from it once. The bytes are kept exactly as uploaded.

use std::io::Cursor;

use base64::{Engine, engine::general_purpose::STANDARD};
use image::{DynamicImage, ImageFormat, ImageReader, Limits, codecs::jpeg::JpegEncoder};
use sha2::{Digest, Sha256};

use super::ValidationError;

/// Largest accepted photo, decoded from base64.
pub const MAX_PHOTO_BYTES: usize = 5 * 1024 * 1024;
/// Largest accepted image, in pixels: checked from the header, before any pixel is decoded
/// (a 48-megapixel PNG of zeros is only 150 KB).
pub const MAX_PIXELS: u64 = 40_000_000;
/// The longest side of a thumbnail.
pub const THUMB_SIDE: u32 = 320;
/// Thumbnails are JPEG: small, and every browser shows them.
pub const THUMB_TYPE: &str = "image/jpeg";
const THUMB_QUALITY: u8 = 80;

const FIELD: &str = "imgData";

/// A stored photo: the type it was declared as (`image/png`, …) and its bytes as uploaded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Photo {
    pub mime: String,
    pub bytes: Vec<u8>,
}

impl Photo {
    /// A photo stored as a `data:` URL by a release before photos were checked by decoding.
    pub fn from_stored_data_url(url: &str) -> Option<Self> {
        let (mime, payload) = url.strip_prefix("data:")?.split_once(";base64,")?;
        Some(Self {
            mime: mime.to_owned(),
            bytes: STANDARD.decode(payload).ok()?,
        })
    }

    /// The `data:` URL the photo was uploaded as, byte for byte.
    pub fn data_url(&self) -> String {
        let mut url = String::with_capacity(self.bytes.len() * 4 / 3 + self.mime.len() + 16);
        url.push_str("data:");
        url.push_str(&self.mime);
        url.push_str(";base64,");
        STANDARD.encode_string(&self.bytes, &mut url);
        url
    }

    /// The `Content-Type` it is served with.
    pub fn content_type(&self) -> String {
        self.mime.to_ascii_lowercase()
    }

    /// A short digest of the bytes: the photo's version in its URLs and its ETag.
    pub fn version(&self) -> String {
        let digest = Sha256::digest(&self.bytes);
        digest[..8].iter().map(|b| format!("{b:02x}")).collect()
    }
}

/// A checked upload: the photo and its thumbnail (JPEG, longest side at most [`THUMB_SIDE`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewPhoto {
    pub photo: Photo,
    pub thumb: Vec<u8>,
}

impl NewPhoto {
    /// Checks a `data:image/(png|jpeg|gif|webp);base64,…` URL: at most [`MAX_PHOTO_BYTES`],
    /// at most [`MAX_PIXELS`], and decodable as the type it declares. CPU-heavy for big photos.
    pub fn from_data_url(url: &str) -> Result<Self, ValidationError> {
        let invalid = |msg: &str| ValidationError::new(FIELD, msg.to_owned());
        let (mime, payload) = url
            .strip_prefix("data:")
            .and_then(|rest| rest.split_once(";base64,"))
            .ok_or_else(|| invalid("imgData must be a data URL (data:image/<type>;base64,<data>)"))?;
        let format = format_of(mime).ok_or_else(|| invalid("imgData must be a PNG, JPEG, GIF or WebP image"))?;
        // Refuse before decoding anything that cannot fit.
        if payload.len() / 4 * 3 > MAX_PHOTO_BYTES + 3 {
            return Err(invalid("imgData must be at most 5 MiB"));
        }
        let bytes = STANDARD
            .decode(payload)
            .map_err(|_| invalid("imgData must be valid base64"))?;
        if bytes.len() > MAX_PHOTO_BYTES {
            return Err(invalid("imgData must be at most 5 MiB"));
        }
        let image = decode(format, &bytes)?;
        Ok(Self {
            thumb: thumbnail(&image),
            photo: Photo {
                mime: mime.to_owned(),
                bytes,
            },
        })
    }
}

/// Makes a thumbnail of a photo stored before photos were checked; `None` when it does not
/// decode (such a photo is kept, and served as its own thumbnail).
pub fn thumbnail_of_stored(photo: &Photo) -> Option<Vec<u8>> {
    let format = format_of(&photo.mime)?;
    decode(format, &photo.bytes).ok().map(|image| thumbnail(&image))
}

fn format_of(mime: &str) -> Option<ImageFormat> {
    match mime.to_ascii_lowercase().as_str() {
        "image/png" => Some(ImageFormat::Png),
        "image/jpeg" => Some(ImageFormat::Jpeg),
        "image/gif" => Some(ImageFormat::Gif),
        "image/webp" => Some(ImageFormat::WebP),
        _ => None,
    }
}

/// Decodes `bytes` as `format`, refusing an image of more than [`MAX_PIXELS`] from its header.
fn decode(format: ImageFormat, bytes: &[u8]) -> Result<DynamicImage, ValidationError> {
    let not_an_image = || ValidationError::new(FIELD, "imgData is not a valid image");
    let reader = || {
        let mut reader = ImageReader::with_format(Cursor::new(bytes), format);
        let mut limits = Limits::default();
        // Room for the largest accepted image at 16 bits per channel with alpha.
        limits.max_alloc = Some(MAX_PIXELS * 8 + (64 << 20));
        reader.limits(limits);
        reader
    };
    let (width, height) = reader().into_dimensions().map_err(|_| not_an_image())?;
    if u64::from(width) * u64::from(height) > MAX_PIXELS {
        return Err(ValidationError::new(FIELD, "Image too large"));
    }
    // The JPEG decoder makes the best of a cut-off file; a whole one ends its last scan with
    // an end-of-image marker (entropy-coded data never holds one).
    if format == ImageFormat::Jpeg && !ends_its_last_scan(bytes) {
        return Err(not_an_image());
    }
    reader().decode().map_err(|_| not_an_image())
}

/// Whether a JPEG has an end-of-image marker (FF D9) after its last start-of-scan (FF DA).
fn ends_its_last_scan(bytes: &[u8]) -> bool {
    let last_scan = bytes.windows(2).rposition(|w| w == [0xFF, 0xDA]);
    last_scan.is_some_and(|at| bytes[at..].windows(2).any(|w| w == [0xFF, 0xD9]))
}

/// A JPEG of the image scaled to fit [`THUMB_SIDE`] (never enlarged), transparent parts on white.
fn thumbnail(image: &DynamicImage) -> Vec<u8> {
    let (width, height) = (image.width(), image.height());
    let scale = f64::from(THUMB_SIDE) / f64::from(width.max(height));
    let small = if scale < 1.0 {
        let fit = |side: u32| ((f64::from(side) * scale).round() as u32).max(1);
        image.thumbnail_exact(fit(width), fit(height))
    } else {
        image.clone()
    };
    let rgb = if small.color().has_alpha() {
        let mut rgba = small.to_rgba8();
        for pixel in rgba.pixels_mut() {
            let alpha = u16::from(pixel[3]);
            for channel in &mut pixel.0[..3] {
                *channel = ((u16::from(*channel) * alpha + 255 * (255 - alpha)) / 255) as u8;
            }
        }
        DynamicImage::ImageRgba8(rgba).to_rgb8()
    } else {
        small.to_rgb8()
    };
    let mut jpeg = Vec::new();
    JpegEncoder::new_with_quality(&mut jpeg, THUMB_QUALITY)
        .encode_image(&rgb)
        .expect("an RGB image encodes as JPEG in memory");
    jpeg
}

#[cfg(test)]
mod tests {
    use image::{ImageEncoder, Rgba, RgbaImage, codecs::png::PngEncoder};

    use super::*;

    const PNG_1PX: &str =
        "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";

    fn message(url: &str) -> String {
        NewPhoto::from_data_url(url).unwrap_err().message.into_owned()
    }

    fn encoded(image: &DynamicImage, format: ImageFormat) -> Vec<u8> {
        let mut bytes = Vec::new();
        image.write_to(&mut Cursor::new(&mut bytes), format).unwrap();
        bytes
    }

    fn data_url(mime: &str, bytes: &[u8]) -> String {
        format!("data:{mime};base64,{}", STANDARD.encode(bytes))
    }

    fn gradient(width: u32, height: u32) -> DynamicImage {
        DynamicImage::ImageRgba8(RgbaImage::from_fn(width, height, |x, y| {
            Rgba([(x % 256) as u8, (y % 256) as u8, 128, 255])
        }))
    }

    #[test]
    fn accepts_real_images_and_keeps_their_bytes() {
        let url = format!("data:image/png;base64,{PNG_1PX}");
        let upload = NewPhoto::from_data_url(&url).unwrap();
        assert_eq!(upload.photo.data_url(), url);
        let image = gradient(40, 30);
        for (mime, format) in [
            ("image/jpeg", ImageFormat::Jpeg),
            ("image/gif", ImageFormat::Gif),
            ("image/webp", ImageFormat::WebP),
            ("IMAGE/PNG", ImageFormat::Png),
        ] {
            let image = if format == ImageFormat::Jpeg {
                DynamicImage::ImageRgb8(image.to_rgb8())
            } else {
                image.clone()
            };
            let url = data_url(mime, &encoded(&image, format));
            let upload = NewPhoto::from_data_url(&url).unwrap_or_else(|e| panic!("{mime}: {e}"));
            assert_eq!(upload.photo.data_url(), url, "{mime}");
            assert_eq!(upload.photo.content_type(), mime.to_ascii_lowercase());
        }
    }

    #[test]
    fn thumbnails_fit_320_keep_the_aspect_ratio_and_never_grow() {
        for ((width, height), expected) in [
            ((1000, 500), (320, 160)),
            ((300, 900), (107, 320)),
            ((64, 48), (64, 48)),
        ] {
            let url = data_url("image/png", &encoded(&gradient(width, height), ImageFormat::Png));
            let thumb = NewPhoto::from_data_url(&url).unwrap().thumb;
            let decoded = image::load_from_memory_with_format(&thumb, ImageFormat::Jpeg).unwrap();
            assert_eq!((decoded.width(), decoded.height()), expected);
        }
    }

    #[test]
    fn transparent_parts_become_white_in_thumbnails() {
        let clear = DynamicImage::ImageRgba8(RgbaImage::from_pixel(8, 8, Rgba([0, 0, 0, 0])));
        let url = data_url("image/png", &encoded(&clear, ImageFormat::Png));
        let thumb = NewPhoto::from_data_url(&url).unwrap().thumb;
        let pixel = image::load_from_memory(&thumb).unwrap().to_rgb8()[(4, 4)];
        assert!(pixel.0.iter().all(|&c| c > 245), "{pixel:?}");
    }

    #[test]
    fn refuses_other_types_and_shapes() {
        assert!(message("data:text/plain;base64,aGVsbG8=").contains("PNG, JPEG"));
        assert!(message("image/png;base64,AAAA").contains("data URL"));
        assert!(message("data:image/png,rawdata").contains("data URL"));
        assert!(message("data:image/png;base64,!!!!").contains("base64"));
    }

    #[test]
    fn refuses_what_does_not_decode_as_its_declared_type() {
        let png = encoded(&gradient(40, 30), ImageFormat::Png);
        let jpeg = encoded(&DynamicImage::ImageRgb8(gradient(40, 30).to_rgb8()), ImageFormat::Jpeg);
        for url in [
            "data:image/png;base64,aGVsbG8=".to_owned(),
            data_url("image/jpeg", &png),
            data_url("image/webp", &png),
            data_url("image/png", &png[..png.len() - 20]),
            data_url("image/jpeg", &jpeg[..jpeg.len() * 2 / 3]),
        ] {
            assert_eq!(message(&url), "imgData is not a valid image", "{}", &url[..30]);
        }
    }

    #[test]
    fn refuses_images_over_40_megapixels_before_decoding_them() {
        // 8,000 × 6,000 pixels of zeros: 48 megapixels in a few hundred kilobytes.
        let mut png = Vec::new();
        let zeros = vec![0u8; 8_000 * 6_000];
        PngEncoder::new(&mut png)
            .write_image(&zeros, 8_000, 6_000, image::ExtendedColorType::L8)
            .unwrap();
        assert!(png.len() < 1_000_000, "{}", png.len());
        assert_eq!(message(&data_url("image/png", &png)), "Image too large");
    }

    #[test]
    fn refuses_oversized_uploads_before_decoding() {
        let huge = format!("data:image/png;base64,{}", "A".repeat(MAX_PHOTO_BYTES / 3 * 4 + 16));
        assert!(message(&huge).contains("5 MiB"));
    }

    #[test]
    fn versions_follow_the_bytes() {
        let a = Photo {
            mime: "image/png".into(),
            bytes: vec![1, 2, 3],
        };
        let b = Photo {
            bytes: vec![1, 2, 4],
            ..a.clone()
        };
        assert_eq!(a.version().len(), 16);
        assert_ne!(a.version(), b.version());
    }
}
