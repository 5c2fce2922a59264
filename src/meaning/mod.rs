//! Understanding what people write: the multilingual sentence encoder (crate
//! `lostfound-meaning`, in-process and offline) run on blocking threads of its own, this node's index
//! of the items' meanings and lexicon of their words, and the background work that gives
//! every item its meaning and keeps both up to date ([`fill`]). Matching ([`matches`]) and
//! search ([`search`]) build on it.

mod fill;
mod index;
mod lexicon;
pub mod matches;
pub mod search;

use std::{
    path::{Path, PathBuf},
    sync::{Arc, LazyLock, Mutex},
};

use lostfound_meaning::Encoder;
use tokio::sync::Notify;

use self::{index::Index, lexicon::Lexicon};

use crate::{
    cpu::CpuWork,
    domain::{Item, Meaning, says_something, search::folded_words},
};

/// How far back (in item ids, or in the meanings' write sequence) a catch-up reads again when
/// it looks back: on PostgreSQL an id or a sequence number is taken before its transaction
/// commits, so a write may become visible after a later one was read.
const LOOKBACK: i64 = 1_000;
/// Rows read per statement when the index or the lexicon catches up: few enough to be read
/// in place on an async thread (about a millisecond, `Store::point_rows`), which yields
/// before it reads the next.
const CATCH_UP_BATCH: u32 = 1_000;

/// Where a catch-up that last read up to `last` reads from: [`LOOKBACK`] before it to
/// `look_back`, else right after it.
fn read_from(last: i64, look_back: bool) -> i64 {
    if look_back { (last - LOOKBACK).max(0) } else { last }
}

/// Where the model is looked for when `LOSTFOUND_MODEL` is not set, first found first: the
/// working directory (a checkout), beside the binary, a checkout's `target/*/` binary, and
/// where packages install it.
const MODEL_DIRS: &[&str] = &["model/usem3", "../../model/usem3", "/usr/share/lostfound/model/usem3"];

/// The encoder, this node's index and lexicon, and the means to encode off the async threads.
#[derive(Clone)]
pub struct Meanings {
    encoder: Arc<Encoder>,
    index: Arc<Index>,
    lexicon: Arc<Lexicon>,
    /// Rung when an item was created or its text changed: [`fill`] encodes it.
    wanted: Arc<Notify>,
    /// Encodes on [`ENCODING`]'s threads, one batch per core at once.
    cpu: CpuWork,
}

/// The threads the encoder runs on, named `lf-meaning`: what giving items their meanings costs
/// shows apart from answering requests (`scripts/bench` reports it beside each create's CPU).
static ENCODING: LazyLock<tokio::runtime::Runtime> = LazyLock::new(|| {
    tokio::runtime::Builder::new_current_thread()
        .thread_name("lf-meaning")
        .build()
        .expect("a runtime for the encoder's threads")
});

/// Models loaded by this process, by directory: a test process starts many servers, and the
/// model loads once.
static LOADED: Mutex<Vec<(PathBuf, Arc<Encoder>)>> = Mutex::new(Vec::new());

impl Meanings {
    /// Loads the model from `dir`, or from the first of [`MODEL_DIRS`] that exists. An error
    /// is one line naming the file.
    pub async fn load(dir: Option<&Path>) -> anyhow::Result<Self> {
        let dir = match dir {
            Some(dir) => dir.to_owned(),
            None => default_dir(),
        };
        let encoder = {
            let loaded = LOADED.lock().expect("the loaded models are never left half-written");
            loaded
                .iter()
                .find(|(path, _)| *path == dir)
                .map(|(_, encoder)| encoder.clone())
        };
        let encoder = match encoder {
            Some(encoder) => encoder,
            None => {
                let path = dir.clone();
                let encoder = Arc::new(tokio::task::spawn_blocking(move || Encoder::load(&path)).await??);
                LOADED
                    .lock()
                    .expect("the loaded models are never left half-written")
                    .push((dir, encoder.clone()));
                encoder
            }
        };
        Ok(Self {
            encoder,
            index: Arc::default(),
            lexicon: Arc::default(),
            wanted: Arc::default(),
            cpu: CpuWork::on_threads_of(&ENCODING),
        })
    }

    /// The model's version, stored beside each meaning.
    pub fn model(&self) -> &'static str {
        self.encoder.version()
    }

    /// An item was created or its text changed: its words are known to searches at once, and
    /// it is to be encoded.
    pub fn item_changed(&self, item: &Item) {
        self.lexicon.add_words(item.searched_texts().flat_map(folded_words));
        self.wanted.notify_one();
    }

    /// The meaning of each text (`None` for one that says nothing), made on the blocking
    /// threads: one batch per core at most, so many texts use every core.
    pub async fn encode(&self, texts: Vec<String>) -> anyhow::Result<Vec<Option<Meaning>>> {
        let mut meanings: Vec<Option<Meaning>> = vec![None; texts.len()];
        let telling: Vec<(usize, String)> = texts
            .into_iter()
            .enumerate()
            .filter(|(_, text)| says_something(text))
            .collect();
        if telling.is_empty() {
            return Ok(meanings);
        }
        let encoder = self.encoder.clone();
        let encoded = self
            .cpu
            .across_cores(telling, move |run: Vec<(usize, String)>| {
                let texts: Vec<&str> = run.iter().map(|(_, text)| text.as_str()).collect();
                let vectors = encoder.encode(&texts);
                run.iter().map(|(i, _)| *i).zip(vectors).collect::<Vec<_>>()
            })
            .await?;
        for (i, vector) in encoded {
            meanings[i] = Some(Meaning::new(&vector));
        }
        Ok(meanings)
    }

    /// Grows whenever what a search finds may change without an item changing: a meaning
    /// arrived in the index, or a word in the lexicon. Part of a search's cache key.
    pub fn generation(&self) -> u64 {
        self.index.changes() + self.lexicon.word_count() as u64
    }

    /// The meaning of one text, if it says something.
    pub async fn encode_one(&self, text: String) -> anyhow::Result<Option<Meaning>> {
        Ok(self.encode(vec![text]).await?.pop().flatten())
    }
}

fn default_dir() -> PathBuf {
    let beside_binary = std::env::current_exe()
        .ok()
        .and_then(|exe| exe.parent().map(Path::to_owned));
    for dir in MODEL_DIRS {
        let candidates = [
            Some(PathBuf::from(dir)),
            beside_binary.as_ref().map(|bin| bin.join(dir)),
        ];
        if let Some(found) = candidates.into_iter().flatten().find(|path| path.is_dir()) {
            return found;
        }
    }
    // None there: the load names the first place looked at.
    PathBuf::from(MODEL_DIRS[0])
}
