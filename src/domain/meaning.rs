//! What a report means, as the sentence encoder puts it: a unit vector, stored as one signed
//! byte per dimension with a scale (a quarter of the floats' size; cosines move by less
//! than 0.002, see the test), and compared by cosine.

/// Dimensions of a meaning (the encoder's output).
pub const DIM: usize = 512;

/// A unit vector in the encoder's space.
#[derive(Debug, Clone, PartialEq)]
pub struct Meaning(Box<[f32]>);

impl Meaning {
    /// A meaning from the encoder's output (already of unit length).
    pub fn new(values: &[f32]) -> Self {
        debug_assert_eq!(values.len(), DIM);
        Self(values.into())
    }

    /// Cosine of the angle between two meanings (both of unit length): 1 the same, about 0
    /// unrelated.
    pub fn cosine(&self, other: &Self) -> f64 {
        let dot: f32 = self.0.iter().zip(other.0.iter()).map(|(a, b)| a * b).sum();
        f64::from(dot)
    }

    pub fn values(&self) -> &[f32] {
        &self.0
    }

    /// As stored: the scale (f32, little-endian), then one signed byte per dimension.
    pub fn to_bytes(&self) -> Vec<u8> {
        let largest = self.0.iter().fold(0f32, |max, v| max.max(v.abs()));
        let scale = if largest > 0.0 { largest / 127.0 } else { 1.0 };
        let mut bytes = Vec::with_capacity(4 + DIM);
        bytes.extend_from_slice(&scale.to_le_bytes());
        bytes.extend(
            self.0
                .iter()
                .map(|v| (v / scale).round().clamp(-127.0, 127.0) as i8 as u8),
        );
        bytes
    }

    /// A stored meaning; `None` if the bytes are not one.
    pub fn from_bytes(bytes: &[u8]) -> Option<Self> {
        let (scale, values) = bytes.split_first_chunk::<4>()?;
        if values.len() != DIM {
            return None;
        }
        let scale = f32::from_le_bytes(*scale);
        let mut meaning: Box<[f32]> = values.iter().map(|&b| f32::from(b as i8) * scale).collect();
        // Back to unit length, which rounding moved a little.
        let norm = meaning.iter().map(|v| v * v).sum::<f32>().sqrt();
        if !norm.is_normal() {
            return None;
        }
        meaning.iter_mut().for_each(|v| *v /= norm);
        Some(Self(meaning))
    }
}

/// Whether a text says enough to be given a meaning: two letters at least. Emoji alone, one
/// letter or digits only say nothing the encoder could place; such reports match on their
/// words and place alone.
pub fn says_something(text: &str) -> bool {
    text.chars().filter(|c| c.is_alphabetic()).take(2).count() == 2
}

#[cfg(test)]
mod tests {
    use super::*;

    fn unit(seed: u32) -> Meaning {
        // A deterministic spread of values, like an encoder's (mostly small, some large).
        let raw: Vec<f32> = (0..DIM as u32)
            .map(|i| ((i.wrapping_mul(2_654_435_761) ^ seed.wrapping_mul(40_503)) % 2001) as f32 / 1000.0 - 1.0)
            .map(|v| v * v * v)
            .collect();
        let norm = raw.iter().map(|v| v * v).sum::<f32>().sqrt();
        Meaning::new(&raw.iter().map(|v| v / norm).collect::<Vec<_>>())
    }

    #[test]
    fn stored_bytes_keep_the_cosines() {
        let (a, b) = (unit(1), unit(2));
        let (qa, qb) = (
            Meaning::from_bytes(&a.to_bytes()).unwrap(),
            Meaning::from_bytes(&b.to_bytes()).unwrap(),
        );
        assert_eq!(a.to_bytes().len(), 4 + DIM);
        assert!(qa.cosine(&a) > 0.999, "{}", qa.cosine(&a));
        assert!((qa.cosine(&qb) - a.cosine(&b)).abs() < 0.002);
        assert!(Meaning::from_bytes(&[0; 10]).is_none());
        assert!(
            Meaning::from_bytes(&[0; 4 + DIM]).is_none(),
            "all zeros has no direction"
        );
    }

    #[test]
    fn texts_that_say_nothing() {
        for text in ["", "a", "🙂🙂🙂", "1234", "?!"] {
            assert!(!says_something(text), "{text}");
        }
        for text in ["ab", "지갑", "Keys"] {
            assert!(says_something(text), "{text}");
        }
    }
}
