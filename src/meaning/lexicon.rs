//! The words the items use, for a search's forgiving forms: a query word one or two letters
//! off a word of the items ("walet", "wallet"), or written inside one (Korean without spaces:
//! "지갑" in "검은색지갑"), is searched as that word too. It follows the items by id, so other
//! nodes' items arrive within a refresh, and those that committed after a later one
//! (PostgreSQL) at the next look back (`fill`).

use std::{
    collections::BTreeMap,
    ops::Bound::{Excluded, Unbounded},
    sync::RwLock,
};

use unicode_normalization::UnicodeNormalization;

use super::{CATCH_UP_BATCH, read_from};
use crate::{
    domain::words::{Kinship, kinship, stem},
    store::{Store, StoreError},
};

/// Forms of one query word searched at most.
const MAX_FORMS: usize = 12;

#[derive(Default)]
pub struct Lexicon {
    inner: RwLock<Inner>,
}

#[derive(Default)]
struct Inner {
    /// The last item id read.
    after: i64,
    /// Each word as the search index holds it (folded: Korean decomposed), and as it is
    /// compared (Korean composed again), when that differs. In order: the words a word
    /// starts come right after it, and a word's forms are the same on every node.
    words: BTreeMap<Box<str>, Option<Box<str>>>,
}

impl Lexicon {
    /// Reads the words of the items created since the last catch-up (and, to `look_back`, of
    /// the last [`super::LOOKBACK`] before it again); how many items.
    pub async fn catch_up(&self, store: &Store, look_back: bool) -> Result<usize, StoreError> {
        let mut from = read_from(self.inner.read().expect("never left half-written").after, look_back);
        let mut read = 0;
        loop {
            let rows = store.words_after(from, CATCH_UP_BATCH).await?;
            let Some((last, _)) = rows.last() else { break };
            from = *last;
            read += rows.len();
            {
                let mut inner = self.inner.write().expect("never left half-written");
                inner.after = inner.after.max(from);
                for word in rows
                    .iter()
                    .filter_map(|(_, words)| words.as_deref())
                    .flat_map(str::split_whitespace)
                {
                    inner.add(word);
                }
            }
            if rows.len() < CATCH_UP_BATCH as usize {
                break;
            }
            tokio::task::yield_now().await;
        }
        Ok(read)
    }

    /// Adds words (folded) of an item this node just wrote, before the next catch-up reads
    /// them: a search right after knows them.
    pub fn add_words(&self, words: impl Iterator<Item = String>) {
        let mut inner = self.inner.write().expect("never left half-written");
        words.for_each(|word| inner.add(&word));
    }

    /// How many words it holds: it only grows, so a search's answer is kept only as long as
    /// this stays the same.
    pub fn word_count(&self) -> usize {
        self.inner.read().expect("never left half-written").words.len()
    }

    /// Whether a folded query word is only the start of the items' words ("librar", "umbr"):
    /// what someone types on the way to a word, whose meaning says nothing yet.
    pub fn is_fragment(&self, word: &str) -> bool {
        let inner = self.inner.read().expect("never left half-written");
        !inner.words.contains_key(word)
            && inner
                .words
                .range::<str, _>((Excluded(word), Unbounded))
                .next()
                .is_some_and(|(known, _)| known.starts_with(word))
    }

    /// The forms a folded query word is searched by: itself, its stem, and the items' words
    /// it is a typo of or written inside (at most [`MAX_FORMS`] in all).
    pub fn forms(&self, word: &str) -> Vec<String> {
        let mut forms = vec![word.to_owned()];
        let composed: String = word.nfc().collect();
        let stemmed = stem(&composed);
        if stemmed != composed && stemmed.chars().count() >= 2 {
            forms.push(stemmed.nfd().collect());
        }
        let inner = self.inner.read().expect("never left half-written");
        let letters = composed.chars().count();
        for (stored, compared) in &inner.words {
            if forms.len() >= MAX_FORMS {
                break;
            }
            let compared = compared.as_deref().unwrap_or(stored);
            let other = compared.chars().count();
            // A typo is one or two letters more or fewer; a Korean word may hold the other.
            let within = compared.contains(composed.as_str()) || composed.contains(compared);
            if other.abs_diff(letters) > 2 && !within {
                continue;
            }
            if matches!(kinship(&composed, compared), Some(Kinship::Typo | Kinship::Within))
                && !forms.iter().any(|f| f.as_str() == &**stored)
            {
                forms.push(stored.to_string());
            }
        }
        forms
    }
}

impl Inner {
    /// A word as the search index holds it.
    fn add(&mut self, word: &str) {
        if !self.words.contains_key(word) {
            let composed: String = word.nfc().collect();
            let compared = (composed != word).then(|| composed.into_boxed_str());
            self.words.insert(word.into(), compared);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::search::folded_words;

    fn lexicon(text: &str) -> Lexicon {
        let lexicon = Lexicon::default();
        lexicon.add_words(folded_words(text));
        lexicon
    }

    #[test]
    fn a_word_is_searched_as_its_stem_its_typos_and_the_korean_words_it_is_inside() {
        let lexicon = lexicon("Black wallet, calculator, umbrella; 검은색지갑 우산");
        let forms = |word: &str| lexicon.forms(&folded_words(word).next().unwrap());
        assert_eq!(forms("wallets"), ["wallets", "wallet"]);
        assert_eq!(forms("walet"), ["walet", "wallet"]);
        assert_eq!(forms("calculater"), ["calculater", "calculator"]);
        let korean: Vec<String> = forms("지갑").iter().map(|f| f.nfc().collect()).collect();
        assert_eq!(korean, ["지갑", "검은색지갑"]);
        assert_eq!(forms("phone"), ["phone"], "nothing near it");
    }

    #[test]
    fn the_start_of_a_known_word_is_a_fragment_a_word_is_not() {
        let lexicon = lexicon("Main library, wooden handle");
        assert!(lexicon.is_fragment("librar"));
        assert!(lexicon.is_fragment("wood"));
        assert!(!lexicon.is_fragment("library"));
        assert!(!lexicon.is_fragment("cartera"));
    }
}
