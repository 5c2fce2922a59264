//! Words compared the way people write them: a plural or a simple ending ("wallets",
//! "carteras", "relojes"), a typo or two in a longer word ("walet", "calculater"), Korean
//! with or without spaces and with its particles ("지갑을", "검은색지갑"). Words reach here
//! folded (`search::folded_words`: lower case, no accents), so case and accents are already
//! the same.

use unicode_normalization::UnicodeNormalization;

use super::search::folded_words;

/// How two words are kin, closest first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Kinship {
    Same,
    /// The same stem, or one a stem that the other only lengthens ("bottl", "bottle").
    Stem,
    /// One Korean word written inside another ("지갑" in "검은색지갑").
    Within,
    /// One or two letters apart.
    Typo,
}

impl Kinship {
    /// How much a word met this way counts, against 1 for the same word.
    pub fn weight(self) -> f64 {
        match self {
            Self::Same => 1.0,
            Self::Stem | Self::Within => 0.9,
            Self::Typo => 0.75,
        }
    }
}

/// Words that say nothing about an object: articles, prepositions, "lost", "found" (every
/// report has them), in the three languages the service speaks.
const STOP_WORDS: &[&str] = &[
    // English
    "a",
    "an",
    "the",
    "and",
    "or",
    "of",
    "in",
    "on",
    "at",
    "to",
    "with",
    "for",
    "from",
    "by",
    "my",
    "me",
    "i",
    "it",
    "its",
    "is",
    "was",
    "has",
    "have",
    "had",
    "this",
    "that",
    "some",
    "one",
    "very",
    "near",
    "lost",
    "found",
    "left",
    "inside",
    "there",
    "here",
    "someone",
    "please",
    "maybe",
    "think",
    "probably",
    // Spanish
    "el",
    "la",
    "los",
    "las",
    "un",
    "una",
    "unos",
    "unas",
    "de",
    "del",
    "en",
    "con",
    "y",
    "o",
    "mi",
    "mis",
    "por",
    "para",
    "que",
    "se",
    "al",
    "su",
    "sus",
    "es",
    "muy",
    "perdi",
    "perdido",
    "perdida",
    "encontrado",
    "encontrada",
    "encontre",
    "dejado",
    "dentro",
    "cerca",
    // Korean
    "분실",
    "습득",
    "발견",
    "잃어버렸어요",
    "잃어버렸습니다",
    "찾았습니다",
    "있습니다",
    "있어요",
    "주세요",
];

/// Korean particles that follow a noun, longest first: "지갑을" is "지갑".
const PARTICLES: &[&str] = &[
    "에서", "으로", "에게", "까지", "부터", "처럼", "이랑", "하고", "을", "를", "이", "가", "은", "는", "의", "에",
    "로", "와", "과", "도", "만",
];

/// The folded words of `text`, Korean composed again into syllables (folding decomposes
/// them), so that particles and words within words are found by syllable.
pub fn composed_words(text: &str) -> impl Iterator<Item = String> + '_ {
    folded_words(text).map(|word| word.nfc().collect::<String>())
}

/// The words of `text` that can tell one object from another: folded, without stop words
/// and single letters.
pub fn telling_words(text: &str) -> impl Iterator<Item = String> + '_ {
    composed_words(text).filter(|word| is_telling(word))
}

/// Whether a folded word can tell one object from another: neither a stop word nor a single
/// letter.
pub fn is_telling(word: &str) -> bool {
    word.chars().count() > 1 && !STOP_WORDS.contains(&word)
}

fn is_hangul(word: &str) -> bool {
    word.chars().all(is_syllable)
}

/// Whether `c` is a Korean syllable (composed, as [`composed_words`] gives them).
pub fn is_syllable(c: char) -> bool {
    ('\u{AC00}'..='\u{D7A3}').contains(&c)
}

/// A word without its plural or simple ending, or its Korean particle. Over-stripping is
/// harmless ("bottles" → "bottl"): [`kinship`] lets a stem meet a word that lengthens it.
pub fn stem(word: &str) -> &str {
    if is_hangul(word) {
        for particle in PARTICLES {
            if let Some(noun) = word.strip_suffix(particle)
                && noun.chars().count() >= 2
            {
                return noun;
            }
        }
        return word;
    }
    let letters = word.chars().count();
    if letters >= 5
        && let Some(base) = word.strip_suffix("ies")
    {
        // "batteries" and "battery" meet as "batter" and "battery".
        return base;
    }
    if letters >= 5
        && let Some(base) = word.strip_suffix("es")
    {
        return base;
    }
    if letters >= 4
        && !word.ends_with("ss")
        && let Some(base) = word.strip_suffix('s')
    {
        return base;
    }
    word
}

/// Whether and how two folded words are kin.
pub fn kinship(a: &str, b: &str) -> Option<Kinship> {
    if a == b {
        return Some(Kinship::Same);
    }
    let (sa, sb) = (stem(a), stem(b));
    if sa == sb || lengthens(sa, sb) || lengthens(sb, sa) {
        return Some(Kinship::Stem);
    }
    if is_hangul(a) && is_hangul(b) {
        let (short, long) = if sa.len() <= sb.len() { (sa, sb) } else { (sb, sa) };
        if short.chars().count() >= 2 && long.contains(short) {
            return Some(Kinship::Within);
        }
        // Syllables, not letters: only longer words, or two syllables apart say little.
        return (short.chars().count() >= 3 && strsim::osa_distance(sa, sb) <= 1).then_some(Kinship::Typo);
    }
    let shorter = sa.chars().count().min(sb.chars().count());
    let allowed = match shorter {
        0..=4 => return None,
        5..=7 => 1,
        _ => 2,
    };
    (strsim::osa_distance(sa, sb) <= allowed).then_some(Kinship::Typo)
}

/// `long` is `short` and at most two letters more ("bottl" → "bottle", "llav" → "llave"):
/// what an over-stripped stem and its word look like. Longer additions are other words
/// ("card", "cardigan").
fn lengthens(short: &str, long: &str) -> bool {
    let (ls, ll) = (short.chars().count(), long.chars().count());
    ls >= 4 && ll > ls && ll - ls <= 2 && long.starts_with(short)
}

/// The words of `theirs` kin to a word of `ours`, each with its closest kinship, in the
/// order of `theirs`.
pub fn shared<'a>(ours: &[String], theirs: &'a [String]) -> Vec<(&'a str, Kinship)> {
    let mut shared: Vec<(&str, Kinship)> = Vec::new();
    for word in theirs {
        if shared.iter().any(|(seen, _)| seen == word) {
            continue;
        }
        if let Some(kin) = ours.iter().filter_map(|mine| kinship(mine, word)).min() {
            shared.push((word, kin));
        }
    }
    shared
}

/// How much of the shorter list of words the two share (0–1), each shared word counted by
/// its kinship; nothing shared when either has no words.
pub fn overlap(ours: &[String], theirs: &[String]) -> f64 {
    let shorter = distinct(ours).min(distinct(theirs));
    if shorter == 0 {
        return 0.0;
    }
    let met: f64 = shared(ours, theirs).iter().map(|(_, kin)| kin.weight()).sum();
    (met / shorter as f64).min(1.0)
}

fn distinct(words: &[String]) -> usize {
    let mut sorted: Vec<&String> = words.iter().collect();
    sorted.sort_unstable();
    sorted.dedup();
    sorted.len()
}

/// How well the words of a query are met by an item's words (0–1): each query word counts
/// by its closest kin among them.
pub fn coverage(query: &[String], words: &[String]) -> f64 {
    if query.is_empty() {
        return 0.0;
    }
    let met: f64 = query
        .iter()
        .filter_map(|q| words.iter().filter_map(|w| kinship(q, w)).min())
        .map(Kinship::weight)
        .sum();
    met / query.len() as f64
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(text: &str) -> Vec<String> {
        telling_words(text).collect()
    }

    #[test]
    fn plurals_and_endings_meet_their_word() {
        for (a, b) in [
            ("wallets", "wallet"),
            ("carteras", "cartera"),
            ("relojes", "reloj"),
            ("batteries", "battery"),
            ("boxes", "box"),
            ("bottles", "bottle"),
            ("llaves", "llave"),
            ("keys", "key"),
            ("지갑을", "지갑"),
            ("휴대폰이", "휴대폰"),
        ] {
            assert!(matches!(kinship(a, b), Some(Kinship::Same | Kinship::Stem)), "{a} {b}");
        }
    }

    #[test]
    fn a_typo_or_two_in_a_longer_word() {
        for (a, b) in [
            ("walet", "wallet"),
            ("calculater", "calculator"),
            ("umbrela", "umbrella"),
            ("headphnoes", "headphones"),
            ("해드폰을", "헤드폰"),
        ] {
            assert_eq!(kinship(a, b), Some(Kinship::Typo), "{a} {b}");
        }
        for (a, b) in [
            ("case", "cast"),
            ("card", "cardigan"),
            ("bag", "bat"),
            ("가방", "가위"),
            ("blue", "black"),
        ] {
            assert_eq!(kinship(a, b), None, "{a} {b}");
        }
    }

    #[test]
    fn korean_with_or_without_spaces() {
        assert_eq!(kinship("지갑", "검은색지갑"), Some(Kinship::Within));
        assert!(coverage(&words("검은색 지갑"), &words("검은색지갑")) >= 0.9);
    }

    #[test]
    fn stop_words_and_single_letters_tell_nothing() {
        assert_eq!(
            words("Lost my black wallet in the library, a K"),
            ["black", "wallet", "library"]
        );
        assert_eq!(words("Perdí mi cartera en la biblioteca"), ["cartera", "biblioteca"]);
    }

    #[test]
    fn shared_words_are_theirs_with_their_kinship() {
        let ours = words("Black walet, student ID");
        let theirs = words("Wallet, black leather, with student card");
        let shared = shared(&ours, &theirs);
        assert_eq!(
            shared,
            [
                ("wallet", Kinship::Typo),
                ("black", Kinship::Same),
                ("student", Kinship::Same)
            ]
        );
        let share = overlap(&ours, &theirs);
        assert!((share - (0.75 + 1.0 + 1.0) / 4.0).abs() < 1e-9, "{share}");
        assert_eq!(overlap(&[], &theirs), 0.0);
        assert!((coverage(&words("wallets"), &theirs) - 0.9).abs() < 1e-9);
    }
}
