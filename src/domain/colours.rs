//! Colours named in a report, in English, Spanish and Korean: the detail owners and offices
//! most often both write, and one the sentence encoder weighs little ("초록 목도리" and
//! "빨간 목도리", a green and a red scarf, mean nearly the same to it). Two reports that name
//! colours and share none are most likely two objects. A Latin name of five letters or more
//! is also known with two neighbouring letters swapped or a doubled letter written once
//! ("brwon", "yelow", "amarilo"): the typos that make no other word, unlike a letter dropped
//! or changed ("blanco" → "banco", a bench; "white" → "write").

use std::{collections::HashMap, sync::LazyLock};

use super::words::is_syllable;

/// A set of colours, one bit each (the index in [`COLOURS`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Colours(u16);

/// Each colour's names, folded (lower case, no accents). A Korean name is a stem: it names
/// the colour at the start of a word too ("검정색노트북가방", "빨간색"). Navy is a blue:
/// owners and offices call the same bag either.
const COLOURS: [&[&str]; 15] = [
    &[
        "black", "negro", "negra", "negros", "negras", "검정", "검은", "까만", "블랙",
    ],
    &[
        "white",
        "blanco",
        "blanca",
        "blancos",
        "blancas",
        "흰",
        "하얀",
        "화이트",
    ],
    &["grey", "gray", "gris", "grises", "회색", "그레이"],
    &["red", "rojo", "roja", "rojos", "rojas", "빨간", "빨강", "레드"],
    &[
        "blue",
        "navy",
        "azul",
        "azules",
        "marino",
        "파란",
        "파랑",
        "블루",
        "남색",
        "네이비",
        "하늘색",
    ],
    &["green", "verde", "verdes", "초록", "녹색", "그린"],
    &["yellow", "amarillo", "amarilla", "노란", "노랑"],
    &["orange", "naranja", "주황", "오렌지"],
    &["pink", "rosa", "rosado", "rosada", "분홍", "핑크"],
    &["purple", "morado", "morada", "violeta", "보라", "퍼플"],
    &["brown", "marron", "cafe", "갈색", "브라운"],
    &["beige", "베이지"],
    &["silver", "plateado", "plateada", "은색", "실버"],
    &["gold", "golden", "dorado", "dorada", "금색", "골드"],
    &["clear", "transparent", "transparente", "투명"],
];

impl Colours {
    /// The colours a text's words (folded, as `words::composed_words` gives them) name.
    pub fn of(words: &[String]) -> Self {
        static NAMES: LazyLock<Names> = LazyLock::new(|| Names::of(&COLOURS));
        Self(NAMES.named(words, |word, name| word.starts_with(name)) as u16)
    }

    /// How well two reports' colours agree: 1 when they share one, 0 when both name colours
    /// and share none, ½ when either names none (nothing is known).
    pub fn agree(self, other: Self) -> f64 {
        if self.0 == 0 || other.0 == 0 {
            0.5
        } else if self.0 & other.0 != 0 {
            1.0
        } else {
            0.0
        }
    }
}

/// The names of groups (the colours, the kinds of things), indexed for reading words: each
/// Latin name as written and in its typos, and each Korean one, with the bit of its group.
pub(super) struct Names {
    latin: HashMap<String, u32>,
    korean: Vec<(&'static str, u32)>,
}

impl Names {
    /// `groups`, at most 32, each a list of folded names.
    pub(super) fn of(groups: &[&[&'static str]]) -> Self {
        let mut names = Self {
            latin: HashMap::new(),
            korean: Vec::new(),
        };
        for (i, group) in groups.iter().enumerate() {
            let bit = 1 << i;
            for &name in *group {
                if name.starts_with(is_syllable) {
                    names.korean.push((name, bit));
                } else {
                    for known in std::iter::once(name.to_owned()).chain(typos(name)) {
                        *names.latin.entry(known).or_default() |= bit;
                    }
                }
            }
        }
        names
    }

    /// The groups `words` name, a bit each: a Latin word by being a name or a typo of one, a
    /// Korean word as `korean(word, name)` says.
    pub(super) fn named(&self, words: &[String], korean: impl Fn(&str, &str) -> bool) -> u32 {
        let mut bits = 0;
        for word in words {
            if word.starts_with(is_syllable) {
                for &(name, bit) in &self.korean {
                    if korean(word, name) {
                        bits |= bit;
                    }
                }
            } else {
                bits |= self.latin.get(word.as_str()).copied().unwrap_or(0);
            }
        }
        bits
    }
}

/// Letters a Latin name has from which a typo of it is still read as the name: shorter names
/// ("red", "gris", "rosa") are a typo away from too many words.
const TYPO_FROM: usize = 5;

/// The typos a Latin `name` (folded) is also known through, from [`TYPO_FROM`] letters on:
/// two neighbouring letters swapped ("brwon", "balck") or a doubled letter written once
/// ("yelow", "amarilo", "maron"). Not a letter dropped or changed: those make other words.
fn typos(name: &str) -> Vec<String> {
    let n = name.as_bytes();
    if n.len() < TYPO_FROM || !name.is_ascii() {
        return Vec::new();
    }
    (0..n.len() - 1)
        .map(|i| {
            if n[i] == n[i + 1] {
                format!("{}{}", &name[..i], &name[i + 1..])
            } else {
                let mut swapped = n.to_vec();
                swapped.swap(i, i + 1);
                String::from_utf8(swapped).expect("a name in ASCII stays ASCII")
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::words::composed_words;

    fn of(text: &str) -> Colours {
        Colours::of(&composed_words(text).collect::<Vec<_>>())
    }

    #[test]
    fn a_colour_is_the_same_in_every_language_and_spelling() {
        for (a, b) in [
            ("Black wallet", "검은색 지갑"),
            ("Cartera NEGRA", "까만 지갑"),
            ("Gorra azul marino", "남색 모자 (나이키)"),
            ("Green scarf", "초록 목도리"),
            ("Cartera marrón", "Brown wallet"),
            ("검정색노트북가방", "black laptop bag"),
            ("Botella rosa", "분홍색 텀블러"),
        ] {
            assert_eq!(of(a).agree(of(b)), 1.0, "{a} / {b}");
        }
    }

    #[test]
    fn different_colours_disagree_and_none_says_nothing() {
        assert_eq!(of("초록 목도리").agree(of("빨간 목도리")), 0.0);
        assert_eq!(of("Red umbrella").agree(of("Blue umbrella")), 0.0);
        assert_eq!(of("Umbrella").agree(of("Blue umbrella")), 0.5);
        assert_eq!(of("흰 지갑").agree(of("White wallet")), 1.0, "a colour of one syllable");
        assert_eq!(
            of("노트북").agree(of("노트북")),
            0.5,
            "a word that only starts like a colour"
        );
        // One shared colour is enough: a two-tone bag.
        assert_eq!(of("Black and red backpack").agree(of("Red backpack")), 1.0);
    }

    #[test]
    fn a_longer_name_is_known_through_a_swap_or_a_doubled_letter_written_once() {
        for (typo, colour) in [
            ("brwon lether walet", "Brown leather wallet"),
            ("balck umbrella", "Black umbrella"),
            ("yelow raincoat", "Yellow raincoat"),
            ("Cartera amarila", "amarillo"),
            ("mochila maron", "Brown backpack"),
        ] {
            assert_eq!(of(typo).agree(of(colour)), 1.0, "{typo} / {colour}");
        }
        // Other typos make other words, and short names are a typo from many.
        for (text, colour) in [
            ("Mochila en el banco", "blanco"),
            ("write your name", "white"),
            ("range of keys", "orange"),
            ("gris", "rsig"),
            ("red", "erd"),
        ] {
            assert_eq!(of(text).agree(of(colour)), 0.5, "{text} names no colour of {colour}");
        }
    }
}
