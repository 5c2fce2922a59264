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

use std::cmp::Reverse;
use std::collections::HashMap;

use crate::normalizer::Normalizer;
use crate::sentencepiece::{ModelProto, Pieces};

pub(crate) const UNK: u32 = 0;
pub(crate) const BOS: u32 = 1;
pub(crate) const EOS: u32 = 2;

/// The vocabulary and the lookup the segmentation needs: which pieces a text starts with.
///
/// Instead of a trie (or the reference's dict of every prefix of every piece), the piece ids
/// sorted by their bytes: the pieces that start with some text are a contiguous run of that
/// order, and each character more narrows the run with two binary searches. The piece equal to
/// the text, if any, is the run's first. Memory: the packed texts (1.1 MB for this model), their
/// ends, scores and the sorted ids (0.5 MB each): about 2.6 MB in all.
struct Vocab {
    pieces: Pieces,
    sorted: Vec<u32>,
    /// The run of `sorted` whose pieces start with a character (by `char_key`): the first and
    /// widest narrowing, looked up instead of searched (it was a sixth of a batch's time).
    by_first_char: HashMap<u32, (usize, usize)>,
    /// The longest piece, in characters: no match is looked for past it.
    max_chars: usize,
}

/// The first UTF-8 character of `bytes` (not empty) as a number: its bytes, as many as its
/// first byte says (fewer if `bytes` ends first).
fn char_key(bytes: &[u8]) -> u32 {
    let len = match bytes[0] {
        0..0xc0 => 1,
        0xc0..0xe0 => 2,
        0xe0..0xf0 => 3,
        _ => 4,
    };
    bytes[..len.min(bytes.len())]
        .iter()
        .fold(0, |key, &b| key << 8 | u32::from(b))
}

impl Vocab {
    fn new(pieces: Pieces) -> Vocab {
        let mut vocab = Vocab {
            pieces,
            sorted: Vec::new(),
            by_first_char: HashMap::new(),
            max_chars: 0,
        };
        let count = vocab.pieces.ends.len() as u32;
        let mut sorted: Vec<u32> = (0..count).collect();
        // Were a text two pieces', the later id would come first: the reference's dict keeps
        // the last piece written under a text.
        sorted.sort_unstable_by_key(|&id| (vocab.piece(id), Reverse(id)));
        for (at, &id) in sorted.iter().enumerate() {
            let piece = vocab.piece(id);
            if !piece.is_empty() {
                vocab.by_first_char.entry(char_key(piece)).or_insert((at, at)).1 = at + 1;
            }
        }
        vocab.sorted = sorted;
        vocab.max_chars = (0..count).map(|id| vocab.chars(id)).max().unwrap_or(0);
        vocab
    }

    fn piece(&self, id: u32) -> &[u8] {
        let id = id as usize;
        let start = if id == 0 { 0 } else { self.pieces.ends[id - 1] as usize };
        &self.pieces.text[start..self.pieces.ends[id] as usize]
    }

    /// The run of `sorted` whose pieces start with `c`, one character's bytes.
    fn starting_with(&self, c: &[u8]) -> (usize, usize) {
        self.by_first_char.get(&char_key(c)).copied().unwrap_or((0, 0))
    }

    fn chars(&self, id: u32) -> usize {
        self.piece(id).iter().filter(|&&b| b & 0xc0 != 0x80).count()
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
            vocab: Vocab::new(model.pieces),
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
    /// A left-to-right pass over character positions: `best[p]` is the best score of a
    /// segmentation of the first `p` characters and `(start_of[p], piece_of[p])` its last
    /// piece. Pieces starting at `i` are tried shortest first, positions in order, and a score
    /// must be strictly greater to replace one: on a tie the piece that starts earliest wins,
    /// as in sentencepiece's lattice. A position where no one-character piece matches gets an
    /// UNK piece of one character. Scores add up in `f64`, like the reference's Python floats.
    fn viterbi(&self, text: &str, ids: &mut Vec<u32>) {
        let bytes = text.as_bytes();
        let bounds: Vec<usize> = text.char_indices().map(|(i, _)| i).chain([text.len()]).collect();
        let chars = bounds.len() - 1;
        let mut best = vec![-1e38f64; chars + 1];
        best[0] = 0.0;
        let mut start_of = vec![0usize; chars + 1];
        let mut piece_of = vec![UNK; chars + 1];
        let sorted = &self.vocab.sorted[..];
        for i in 0..chars {
            let base = best[i];
            let stop = chars.min(i + self.vocab.max_chars);
            let mut has_single = false;
            // The run of sorted ids whose pieces start with text[bounds[i]..bounds[j - 1]].
            let (mut lo, mut hi) = (0, sorted.len());
            for j in i + 1..=stop {
                let done = bounds[j - 1] - bounds[i];
                let next = &bytes[bounds[j - 1]..bounds[j]];
                (lo, hi) = if j == i + 1 {
                    self.vocab.starting_with(next)
                } else {
                    let run = &sorted[lo..hi];
                    let first = run.partition_point(|&id| &self.vocab.piece(id)[done..] < next);
                    let past =
                        first + run[first..].partition_point(|&id| self.vocab.piece(id)[done..].starts_with(next));
                    (lo + first, lo + past)
                };
                if lo == hi {
                    break;
                }
                let id = sorted[lo];
                if self.vocab.piece(id).len() == done + next.len() {
                    let score = base + f64::from(self.vocab.pieces.scores[id as usize]);
                    if score > best[j] {
                        best[j] = score;
                        start_of[j] = i;
                        piece_of[j] = id;
                    }
                    has_single |= j == i + 1;
                }
            }
            if !has_single {
                let score = base + self.unk_score;
                if score > best[i + 1] {
                    best[i + 1] = score;
                    start_of[i + 1] = i;
                    piece_of[i + 1] = UNK;
                }
            }
        }
        let from = ids.len();
        let mut p = chars;
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
}
