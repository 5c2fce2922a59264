//! SentencePiece's `nmt_nfkc` normaliser over the model's precompiled charsmap, and its
//! whitespace handling, as `pure_tokenizer.py` (`_Normalizer`) does them.
//!
//! The charsmap is a darts-clone double-array trie over UTF-8 bytes whose leaves point into a
//! table of NUL-terminated replacements. At each position the longest key that matches wins
//! and is replaced; where none does, one UTF-8 character is copied as it is. Then: leading
//! spaces are dropped, runs of spaces become one, trailing ones go, a space is put in front
//! (the dummy prefix) and every space is written as U+2581 ("▁").
//!
//! The trie is walked from the root of every position; every index read is checked against
//! the array (an index outside it ends the walk as a mismatch would), and `new` walks the whole
//! trie once so that a corrupt charsmap is refused at load instead of misread later.

/// U+2581 LOWER ONE EIGHTH BLOCK, which stands for a space in pieces.
pub(crate) const SPACE: &str = "\u{2581}";

pub(crate) struct Normalizer {
    /// The double array's units; empty when the model has no charsmap (no replacements).
    units: Vec<u32>,
    /// The replacements, NUL-terminated, that the trie's values point into.
    normalized: Vec<u8>,
}

/// Where a unit's children are, relative to it (darts-clone's `offset()`).
fn offset(unit: u32) -> usize {
    ((unit >> 10) << ((unit & 0x200) >> 6)) as usize
}

/// The label a unit was reached by; a value unit has bit 31 set, so it matches no byte.
fn label(unit: u32) -> u32 {
    unit & 0x8000_00ff
}

fn has_leaf(unit: u32) -> bool {
    unit & 0x100 != 0
}

impl Normalizer {
    /// Reads the charsmap: a little-endian `u32` trie size in bytes, the trie, then the
    /// replacements. The error says what is malformed.
    pub(crate) fn new(charsmap: Option<&[u8]>) -> Result<Normalizer, String> {
        let Some(charsmap) = charsmap.filter(|c| !c.is_empty()) else {
            return Ok(Normalizer {
                units: Vec::new(),
                normalized: Vec::new(),
            });
        };
        let size: [u8; 4] = charsmap
            .get(..4)
            .ok_or("charsmap is truncated")?
            .try_into()
            .expect("4 bytes");
        let size = u32::from_le_bytes(size) as usize;
        let trie = charsmap.get(4..4 + size).ok_or("charsmap's trie is truncated")?;
        if !size.is_multiple_of(4) {
            return Err("charsmap's trie is not a whole number of units".into());
        }
        let units = trie
            .chunks_exact(4)
            .map(|u| u32::from_le_bytes(u.try_into().expect("4 bytes")))
            .collect();
        let normalizer = Normalizer {
            units,
            normalized: charsmap[4 + size..].to_vec(),
        };
        normalizer.check()?;
        Ok(normalizer)
    }

    /// Walks every key of the trie: each child index is inside the array, and each value that
    /// the walk would use points at a NUL-terminated UTF-8 replacement. Values past the end of
    /// the replacements are allowed: the reference copies the input character for them.
    fn check(&self) -> Result<(), String> {
        let units = &self.units;
        let Some(&root) = units.first() else { return Ok(()) };
        // darts-clone builds the array from a DAWG: keys share their common tails, so a node
        // is reached by many paths. Each is checked once, which also ends a corrupt cycle.
        let mut seen = vec![false; units.len()];
        let mut stack = vec![offset(root)];
        while let Some(node) = stack.pop() {
            match seen.get_mut(node) {
                Some(seen) if !*seen => *seen = true,
                Some(_) => continue,
                None => return Err("charsmap's trie points outside itself".into()),
            }
            for c in 0..=255u32 {
                let pos = node ^ c as usize;
                let Some(&unit) = units.get(pos) else {
                    // Not on a well-formed trie (whole blocks of 256 units); the walk takes it
                    // for no match.
                    continue;
                };
                if label(unit) != c {
                    continue;
                }
                let child = pos ^ offset(unit);
                if has_leaf(unit) {
                    let value = units.get(child).ok_or("charsmap's trie points outside itself")? & 0x7fff_ffff;
                    if let Some(rest) = self.normalized.get(value as usize..) {
                        let end = rest
                            .iter()
                            .position(|&b| b == 0)
                            .ok_or("charsmap replacement without its NUL")?;
                        std::str::from_utf8(&rest[..end]).map_err(|_| "charsmap replacement is not UTF-8")?;
                    }
                }
                stack.push(child);
            }
        }
        Ok(())
    }

    /// What `data[pos..]` starts with, normalised, and how many bytes of it that consumed
    /// (at least 1 while `pos < data.len()`).
    fn normalize_prefix<'a>(&'a self, data: &'a [u8], pos: usize) -> (&'a [u8], usize) {
        let mut best_len = 0;
        let mut best_value = 0usize;
        if let Some(&root) = self.units.first() {
            let mut node = offset(root);
            for (i, &c) in data[pos..].iter().enumerate() {
                node ^= usize::from(c);
                let Some(&unit) = self.units.get(node) else { break };
                if label(unit) != u32::from(c) {
                    break;
                }
                node ^= offset(unit);
                if has_leaf(unit) {
                    best_len = i + 1;
                    best_value = self.units.get(node).map_or(usize::MAX, |&v| (v & 0x7fff_ffff) as usize);
                }
            }
        }
        if best_len == 0 || best_value >= self.normalized.len() {
            return (&data[pos..pos + utf8_len(&data[pos..])], utf8_len(&data[pos..]));
        }
        let rest = &self.normalized[best_value..];
        let end = rest.iter().position(|&b| b == 0).unwrap_or(rest.len());
        (&rest[..end], best_len)
    }

    /// The text normalised, with spaces as U+2581 and the dummy prefix; empty if the text is
    /// empty or only whitespace.
    pub(crate) fn normalize(&self, text: &str) -> String {
        let raw = text.as_bytes();
        let n = raw.len();
        let mut pos = 0;
        // remove_extra_whitespaces: leading spaces go.
        while pos < n {
            let (piece, consumed) = self.normalize_prefix(raw, pos);
            if piece != b" " {
                break;
            }
            pos += consumed;
        }
        if pos >= n {
            return String::new();
        }
        let mut out = Vec::with_capacity(n + 3);
        out.extend_from_slice(SPACE.as_bytes()); // add_dummy_prefix
        let mut prev_space = true;
        while pos < n {
            let (mut piece, consumed) = self.normalize_prefix(raw, pos);
            pos += consumed;
            // A run of spaces becomes one: a piece after a space loses its leading spaces.
            if prev_space {
                while let [b' ', rest @ ..] = piece {
                    piece = rest;
                }
            }
            if let Some(&last) = piece.last() {
                for &byte in piece {
                    if byte == b' ' {
                        out.extend_from_slice(SPACE.as_bytes());
                    } else {
                        out.push(byte);
                    }
                }
                prev_space = last == b' ';
            }
        }
        while out.ends_with(SPACE.as_bytes()) {
            out.truncate(out.len() - SPACE.len());
        }
        // Valid unless a replacement ends inside a character, which `check` does not rule out
        // (the reference would raise there).
        String::from_utf8(out).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
    }
}

/// The length of the UTF-8 character `data` starts with, 1 for a byte that starts none (as
/// sentencepiece and the reference count it).
fn utf8_len(data: &[u8]) -> usize {
    let len = match data[0] {
        b if b < 0x80 => 1,
        b if b >> 5 == 0x6 => 2,
        b if b >> 4 == 0xe => 3,
        b if b >> 3 == 0x1e => 4,
        _ => 1,
    };
    if len > data.len() || data[1..len].iter().any(|&b| b & 0xc0 != 0x80) {
        1
    } else {
        len
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn whitespace_without_a_charsmap() {
        let n = Normalizer::new(None).unwrap();
        assert_eq!(n.normalize(""), "");
        assert_eq!(n.normalize("   "), "");
        assert_eq!(n.normalize("a"), "▁a");
        assert_eq!(n.normalize("  black   wallet  "), "▁black▁wallet");
        assert_eq!(n.normalize("지갑\t분실"), "▁지갑\t분실");
    }

    #[test]
    fn utf8_lengths() {
        assert_eq!(utf8_len("a".as_bytes()), 1);
        assert_eq!(utf8_len("é".as_bytes()), 2);
        assert_eq!(utf8_len("갑".as_bytes()), 3);
        assert_eq!(utf8_len("👛".as_bytes()), 4);
        assert_eq!(utf8_len(&[0xe2, 0x96]), 1);
        assert_eq!(utf8_len(&[0x80, 0x80]), 1);
    }

    #[test]
    fn malformed_charsmaps() {
        assert_eq!(Normalizer::new(Some(&[1, 0])).err().unwrap(), "charsmap is truncated");
        assert_eq!(
            Normalizer::new(Some(&[8, 0, 0, 0, 1])).err().unwrap(),
            "charsmap's trie is truncated"
        );
        assert!(
            Normalizer::new(Some(&[3, 0, 0, 0, 1, 2, 3]))
                .err()
                .unwrap()
                .contains("whole number")
        );
    }
}
