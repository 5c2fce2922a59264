//! The unigram tokenizer: normalise, then the best-scoring segmentation into pieces (Viterbi),
//! exactly as `pure_tokenizer.py` (`UsePureTokenizer`) does it, tie-breaking included.
//!
//! Where the reference parts from sentencepiece's C++, the port follows the reference, whose
//! vectors are the ones to match. Checked against the C++ library (its Python wheel, 0.2.x) on this model: a run of
//! unknown characters gives one UNK each, not one for the run; a text with nothing to encode
//! gives `[BOS, UNK, EOS]`, not `[BOS, EOS]`; and the texts of the control pieces (`<unk>`,
//! `<s>`, `</s>`) and user-defined ones (`extra_token_id_1..3`) match like any piece, with their
//! score of 0 ("tag <s>" gives BOS's id inside the text). Otherwise the ids are the same (30,000
//! random texts over the model's scripts agreed once runs of UNK were merged).

use yada::DoubleArray;
use yada::builder::DoubleArrayBuilder;

use crate::normalizer::Normalizer;
use crate::sentencepiece::{ModelProto, Pieces};

pub(crate) const UNK: u32 = 0;
pub(crate) const BOS: u32 = 1;
pub(crate) const EOS: u32 = 2;

/// The vocabulary and the lookup the segmentation needs: which pieces a text starts with.
///
/// The pieces' texts in a double-array trie (yada, the layout of darts-clone, which
/// sentencepiece itself uses): the pieces at a position are one walk down it, a step a byte.
/// It replaced two binary searches over the sorted pieces for each character, which were a
/// quarter of a text's encoding once the matrix products ran in eight bits.
struct Vocab {
    pieces: Pieces,
    trie: DoubleArray<Vec<u8>>,
}

impl Vocab {
    fn new(pieces: Pieces) -> Result<Vocab, String> {
        let mut vocab = Vocab {
            pieces,
            trie: DoubleArray::new(Vec::new()),
        };
        let mut keys: Vec<(&[u8], u32)> = (0..vocab.len() as u32)
            .map(|id| (vocab.piece(id), id))
            .filter(|(piece, _)| !piece.is_empty())
            .collect();
        if keys.iter().any(|(piece, _)| piece.contains(&0)) {
            return Err("a piece of the vocabulary holds a NUL byte".into());
        }
        // Were a text two pieces', the later id wins: the reference's dict keeps the last
        // piece written under a text.
        keys.sort_unstable_by(|a, b| a.0.cmp(b.0).then(b.1.cmp(&a.1)));
        keys.dedup_by_key(|(piece, _)| *piece);
        let trie = DoubleArrayBuilder::build(&keys).ok_or("the vocabulary does not fit a double-array trie")?;
        vocab.trie = DoubleArray::new(trie);
        Ok(vocab)
    }

    fn piece(&self, id: u32) -> &[u8] {
        let id = id as usize;
        let start = if id == 0 { 0 } else { self.pieces.ends[id - 1] as usize };
        &self.pieces.text[start..self.pieces.ends[id] as usize]
    }

    fn len(&self) -> usize {
        self.pieces.ends.len()
    }
}

pub(crate) struct Tokenizer {
    normalizer: Normalizer,
    vocab: Vocab,
    /// The score of an unknown character: the lowest piece score less 10, as sentencepiece.
    unk_score: f64,
}

impl Tokenizer {
    pub(crate) fn new(model: ModelProto<'_>) -> Result<Tokenizer, String> {
        let normalizer = Normalizer::new(model.charsmap)?;
        let min = model.pieces.scores.iter().copied().fold(f32::INFINITY, f32::min);
        let unk_score = f64::from(min) - 10.0;
        Ok(Tokenizer {
            normalizer,
            vocab: Vocab::new(model.pieces)?,
            unk_score,
        })
    }

    /// How many pieces the vocabulary has: ids are below it.
    pub(crate) fn vocab_len(&self) -> usize {
        self.vocab.len()
    }

    /// The text's piece ids between BOS and EOS; `[BOS, UNK, EOS]` for a text that normalises
    /// to nothing.
    pub(crate) fn encode(&self, text: &str) -> Vec<u32> {
        let normalized = self.normalizer.normalize(text);
        let mut ids = Vec::with_capacity(normalized.len() / 3 + 3);
        ids.push(BOS);
        if normalized.is_empty() {
            ids.push(UNK);
        } else {
            self.viterbi(&normalized, &mut ids);
        }
        ids.push(EOS);
        ids
    }

    /// The best segmentation of `text` (normalised, not empty), appended to `ids`.
    ///
    /// A left-to-right pass over the positions between characters (byte offsets): `best[p]` is
    /// the best score of a segmentation of the text before `p` and `(start_of[p], piece_of[p])`
    /// its last piece. Starts are taken in order, and a score must be strictly greater to
    /// replace one: on a tie the piece that starts earliest wins, as in sentencepiece's
    /// lattice. A position where no one-character piece matches gets an UNK piece of one
    /// character. Scores add up in `f64`, like the reference's Python floats.
    fn viterbi(&self, text: &str, ids: &mut Vec<u32>) {
        let bytes = text.as_bytes();
        let mut best = vec![-1e38f64; bytes.len() + 1];
        best[0] = 0.0;
        let mut start_of = vec![0usize; bytes.len() + 1];
        let mut piece_of = vec![UNK; bytes.len() + 1];
        // Where a walk from the current position ends: the next NUL, or the text's end. No
        // piece holds a NUL, and the trie's walk would take one for its own end of a key.
        let mut stop = 0;
        let mut chars = text.char_indices().map(|(i, _)| i).chain([text.len()]).peekable();
        while let (Some(i), Some(&next)) = (chars.next(), chars.peek()) {
            if stop <= i {
                stop = bytes[i..].iter().position(|&b| b == 0).map_or(bytes.len(), |at| i + at);
            }
            let base = best[i];
            let mut has_single = false;
            // Pieces are whole characters (valid UTF-8), so every match ends at one.
            for (id, len) in self.vocab.trie.common_prefix_search(&bytes[i..stop]) {
                let end = i + len;
                let score = base + f64::from(self.vocab.pieces.scores[id as usize]);
                if score > best[end] {
                    best[end] = score;
                    start_of[end] = i;
                    piece_of[end] = id;
                }
                has_single |= end == next;
            }
            if !has_single {
                let score = base + self.unk_score;
                if score > best[next] {
                    best[next] = score;
                    start_of[next] = i;
                    piece_of[next] = UNK;
                }
            }
        }
        let from = ids.len();
        let mut p = bytes.len();
        while p > 0 {
            ids.push(piece_of[p]);
            p = start_of[p];
        }
        ids[from..].reverse();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tokenizer(pieces: &[(&str, f32)]) -> Tokenizer {
        let mut packed = Pieces {
            text: Vec::new(),
            ends: Vec::new(),
            scores: Vec::new(),
        };
        for (text, score) in pieces {
            packed.text.extend_from_slice(text.as_bytes());
            packed.ends.push(packed.text.len() as u32);
            packed.scores.push(*score);
        }
        Tokenizer::new(ModelProto {
            pieces: packed,
            charsmap: None,
        })
        .unwrap()
    }

    #[test]
    fn best_segmentation_and_unknown_characters() {
        let t = tokenizer(&[
            ("<unk>", 0.0),
            ("<s>", 0.0),
            ("</s>", 0.0),
            ("▁", -2.0),
            ("▁ab", -3.0),
            ("a", -2.0),
            ("b", -2.0),
            ("c", -1.0),
            ("▁abc", -7.0),
        ]);
        assert_eq!(t.encode("ab"), [BOS, 4, EOS]);
        // ▁ab + c (-4) beats ▁abc (-7).
        assert_eq!(t.encode("abc"), [BOS, 4, 7, EOS]);
        // x is unknown: one UNK for it.
        assert_eq!(t.encode("xa"), [BOS, 3, UNK, 5, EOS]);
        assert_eq!(t.encode("  "), [BOS, UNK, EOS]);
    }

    #[test]
    fn ties_go_to_the_earliest_start() {
        // ▁a+b and ▁+ab both score -2: the last piece starting earliest (ab at 1) wins over
        // b at 2, so the second.
        let t = tokenizer(&[
            ("<unk>", 0.0),
            ("<s>", 0.0),
            ("</s>", 0.0),
            ("▁a", -1.0),
            ("b", -1.0),
            ("▁", -1.0),
            ("ab", -1.0),
        ]);
        assert_eq!(t.encode("ab"), [BOS, 5, 6, EOS]);
    }

    #[test]
    fn a_nul_in_the_text_is_an_unknown_character() {
        let t = tokenizer(&[("<unk>", 0.0), ("<s>", 0.0), ("</s>", 0.0), ("▁a", -1.0), ("b", -1.0)]);
        assert_eq!(t.encode("a\0b"), [BOS, 3, UNK, 4, EOS]);
    }

    #[test]
    fn of_two_pieces_with_one_text_the_later_is_taken() {
        let t = tokenizer(&[("<unk>", 0.0), ("<s>", 0.0), ("</s>", 0.0), ("▁a", -1.0), ("▁a", -1.0)]);
        assert_eq!(t.encode("a"), [BOS, 4, EOS]);
    }
}
