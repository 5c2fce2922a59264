//! What a report's title says the object is — a wallet, a phone, an umbrella — in English,
//! Spanish and Korean. Reporters choose categories their own way (a pair of earbuds and a phone
//! are both "electronics"; a wallet is "accessories" to one and "other" to another), so two
//! reports of one category are not therefore of one kind of thing: when both titles name what
//! the object is and they name nothing alike, their categories do not count as agreeing
//! (`matching::Report::likeness`). Only the title: a description names what an object holds
//! or comes with ("a wallet with my keys", "black book cover").
//!
//! A kind's names are folded (lower case, no accents). A Latin name is known in its plural and
//! simple forms (`words::stem`) and, from five letters, with two neighbouring letters swapped
//! or a doubled letter written once, as a colour is ("walet", "umbrela"). A Korean name of two
//! syllables or more is known inside a word too ("카드지갑", "검정색노트북가방"); one of a
//! single syllable only as a word of its own ("차 키"). A name may be of more than one kind.

use std::{collections::HashMap, sync::LazyLock};

use super::{
    colours::Names,
    words::{is_syllable, stem},
};

/// A set of kinds of things, one bit each (the index in [`THINGS`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Things(u32);

/// The kinds of things people lose most, each with its names. What reporters call one another
/// is one kind: a jacket, a hoodie and a cardigan (all worn on top), a bag and a laptop sleeve.
const THINGS: [&[&str]; 20] = [
    // Wallets and purses.
    &[
        "wallet",
        "purse",
        "billfold",
        "cardholder",
        "cartera",
        "billetera",
        "monedero",
        "tarjetero",
        "지갑",
    ],
    // Phones.
    &[
        "phone",
        "smartphone",
        "iphone",
        "cellphone",
        "mobile",
        "movil",
        "telefono",
        "celular",
        "핸드폰",
        "휴대폰",
        "스마트폰",
        "아이폰",
        "휴대전화",
    ],
    // Earphones and headphones.
    &[
        "earbuds",
        "earphones",
        "headphones",
        "airpods",
        "headset",
        "auriculares",
        "audifonos",
        "cascos",
        "이어폰",
        "헤드폰",
        "에어팟",
        "헤드셋",
    ],
    // Bags, and what carries a laptop.
    &[
        "bag",
        "backpack",
        "tote",
        "handbag",
        "duffel",
        "satchel",
        "pouch",
        "sleeve",
        "bolso",
        "bolsa",
        "mochila",
        "rinonera",
        "maleta",
        "가방",
        "백팩",
        "에코백",
        "파우치",
        "슬리브",
        "쇼핑백",
    ],
    // Bottles and flasks.
    &[
        "bottle",
        "tumbler",
        "flask",
        "thermos",
        "botella",
        "termo",
        "cantimplora",
        "물병",
        "텀블러",
        "보온병",
    ],
    &["umbrella", "paraguas", "sombrilla", "우산"],
    // Keys.
    &[
        "key",
        "keys",
        "keychain",
        "keyring",
        "llave",
        "llaves",
        "llavero",
        "열쇠",
        "스마트키",
        "키링",
        "키",
    ],
    // Glasses and sunglasses.
    &[
        "glasses",
        "eyeglasses",
        "spectacles",
        "specs",
        "sunglasses",
        "gafas",
        "lentes",
        "anteojos",
        "안경",
        "선글라스",
        "썬그라스",
    ],
    &["scarf", "scarves", "bufanda", "목도리", "머플러", "스카프"],
    // Laptops ("노트북" is one in Korean; an English notebook is of paper).
    &["laptop", "macbook", "portatil", "노트북", "랩탑", "맥북"],
    &["tablet", "ipad", "tableta", "태블릿", "아이패드"],
    // Cards and ids.
    &[
        "id",
        "card",
        "cardholder",
        "carne",
        "carnet",
        "credencial",
        "tarjeta",
        "tarjetero",
        "학생증",
        "신분증",
        "카드",
    ],
    // What is worn on top: jackets, coats, sweaters, hoodies.
    &[
        "jacket",
        "coat",
        "parka",
        "puffer",
        "anorak",
        "windbreaker",
        "sweater",
        "jumper",
        "hoodie",
        "sweatshirt",
        "cardigan",
        "pullover",
        "chaqueta",
        "abrigo",
        "chamarra",
        "cazadora",
        "sudadera",
        "sueter",
        "jersey",
        "buzo",
        "재킷",
        "자켓",
        "점퍼",
        "패딩",
        "코트",
        "바람막이",
        "후드티",
        "후드",
        "스웨터",
        "가디건",
        "카디건",
        "맨투맨",
        "니트",
    ],
    &["hat", "cap", "beanie", "gorra", "gorro", "sombrero", "모자", "비니"],
    &["watch", "smartwatch", "reloj", "시계", "스마트워치"],
    &["charger", "cable", "adapter", "cargador", "충전기", "케이블"],
    &["calculator", "calculadora", "계산기"],
    // Books and notebooks.
    &[
        "book",
        "textbook",
        "notebook",
        "diary",
        "planner",
        "libro",
        "cuaderno",
        "libreta",
        "공책",
        "전공책",
        "교재",
        "책",
    ],
    &["glove", "gloves", "guante", "guantes", "장갑"],
    // Jewellery.
    &[
        "ring",
        "earring",
        "necklace",
        "bracelet",
        "anillo",
        "pendiente",
        "arete",
        "collar",
        "pulsera",
        "반지",
        "귀걸이",
        "목걸이",
        "팔찌",
    ],
];

impl Things {
    /// The kinds a title's words (folded, as `words::composed_words` gives them) name.
    pub fn of(words: &[String]) -> Self {
        static NAMES: LazyLock<(Names, HashMap<&str, u32>)> = LazyLock::new(|| {
            let mut stems: HashMap<&str, u32> = HashMap::new();
            for (i, names) in THINGS.iter().enumerate() {
                for name in names.iter().filter(|name| !name.starts_with(is_syllable)) {
                    *stems.entry(stem(name)).or_default() |= 1 << i;
                }
            }
            (Names::of(&THINGS), stems)
        });
        let (names, stems) = &*NAMES;
        let korean = |word: &str, name: &str| {
            if name.chars().nth(1).is_some() {
                word.contains(name)
            } else {
                word == name
            }
        };
        let mut bits = names.named(words, korean);
        for word in words.iter().filter(|word| !word.starts_with(is_syllable)) {
            bits |= stems.get(stem(word)).copied().unwrap_or(0);
        }
        Self(bits)
    }

    /// Both name what the object is, and nothing alike.
    pub fn differ(self, other: Self) -> bool {
        self.0 != 0 && other.0 != 0 && self.0 & other.0 == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::words::composed_words;

    fn of(title: &str) -> Things {
        Things::of(&composed_words(title).collect::<Vec<_>>())
    }

    #[test]
    fn a_thing_is_the_same_in_every_language_form_and_spelling() {
        for (a, b) in [
            ("까만 지갑 잃어버렸어요", "Black Prada long wallet"),
            ("Cartera negra", "wallets"),
            ("lost walet", "Brown leather wallet"),
            ("Umbrela", "검정 접이식 우산"),
            ("paragua verde", "Paraguas verde oscuro"),
            ("Móvil perdido", "Teléfono Galaxy"),
            ("AirPods Pro case", "White wireless earbuds case"),
            ("초록 목도리", "Green scarf"),
            ("Botella rosa", "분홍색 텀블러"),
            ("Bolso de tela", "Tote bag de lona"),
            ("Navy jumper", "Dark blue sweater"),
            ("차 키 분실", "BMW 스마트키"),
            ("Llaves con llavero de Totoro", "Keys on a carabiner"),
            ("카드지갑", "Card holder, navy"),
            ("검정색노트북가방", "black laptop bag"),
        ] {
            assert!(!of(a).differ(of(b)), "{a} / {b}");
            assert_ne!(of(a), Things::default(), "{a} names a thing");
        }
    }

    #[test]
    fn different_things_differ_and_a_title_that_names_none_says_nothing() {
        assert!(of("Black earbuds").differ(of("Black phone")));
        assert!(of("물병 잃어버림").differ(of("검정 장우산")));
        assert!(of("Red scarf").differ(of("Red umbrella")));
        for (a, b) in [
            ("Samsung Galaxy Tab", "Tablet with my notes"),
            ("Gym clothes", "Black Adidas duffel bag"),
            ("키보드", "자동차 키"),
            ("Keyboard", "Keys"),
        ] {
            assert!(
                !of(a).differ(of(b)),
                "{a} / {b}: one of them names no thing of the other's"
            );
        }
        assert_eq!(of("키보드"), Things::default(), "a syllable alone is a word of its own");
        assert_eq!(of("Badminton racket"), Things::default(), "a jacket is not a typo away");
    }
}
