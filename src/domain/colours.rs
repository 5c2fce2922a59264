//! Colours named in a report, in English, Spanish and Korean: the detail owners and offices
//! most often both write, and one the sentence encoder weighs little ("초록 목도리" and
//! "빨간 목도리", a green and a red scarf, mean nearly the same to it). Two reports that name
//! colours and share none are most likely two objects.

use super::words::composed_words;

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
    /// The colours `texts` name.
    pub fn of<'a>(texts: impl IntoIterator<Item = &'a str>) -> Self {
        let mut bits = 0u16;
        for word in texts.into_iter().flat_map(composed_words) {
            for (i, names) in COLOURS.iter().enumerate() {
                if names.iter().any(|name| names_colour(&word, name)) {
                    bits |= 1 << i;
                }
            }
        }
        Self(bits)
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

fn names_colour(word: &str, name: &str) -> bool {
    let korean = name
        .chars()
        .next()
        .is_some_and(|c| ('\u{AC00}'..='\u{D7A3}').contains(&c));
    if korean { word.starts_with(name) } else { word == name }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn of(text: &str) -> Colours {
        Colours::of([text])
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
}
