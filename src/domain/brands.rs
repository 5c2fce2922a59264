//! Makers named in a report, in Latin letters or in Korean ("Sony", "소니"; "AirPods" and
//! "에어팟" are Apple's): the detail that most often tells two look-alikes apart (a Jabra and a
//! Sony pair of black earbuds, a Kia and a Hyundai car key), and one the sentence encoder
//! cannot weigh: to it two makers are as alike as one maker and its Korean spelling. Two
//! reports that name makers and share none are most likely two objects.

use std::{
    collections::{HashMap, HashSet},
    sync::LazyLock,
};

use super::words::{is_syllable, stem};

/// A set of makers, one bit each (the index in [`BRANDS`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Brands(u128);

/// Each maker's names and product lines, folded (lower case, no accents; words of several
/// are written with one space). A Korean name also names the maker at the start of a word
/// ("삼성노트북"), but one written after `=` only as a whole word, with or without a particle:
/// "현대" is also "modern" and "기아" "hunger" at the start of other words. Makers whose name is
/// an everyday word, a place or a person's name ("Coach", "Gap", "Columbia", "Stanley",
/// "Mercedes" alone) are left out: an owner's name is not a maker the office's report lacks.
const BRANDS: [&[&str]; 104] = [
    // Phones, computers, earbuds, headphones, watches, cameras, games.
    &[
        "apple",
        "iphone",
        "ipad",
        "airpods",
        "airpod",
        "macbook",
        "imac",
        "애플",
        "아이폰",
        "아이패드",
        "에어팟",
        "맥북",
    ],
    &["samsung", "galaxy", "삼성", "갤럭시"],
    &["lg", "엘지"],
    &[
        "sony",
        "xperia",
        "walkman",
        "playstation",
        "소니",
        "엑스페리아",
        "플레이스테이션",
    ],
    &["xiaomi", "redmi", "샤오미", "홍미"],
    &["huawei", "화웨이"],
    &["google", "pixel", "구글"],
    &["oneplus", "원플러스"],
    &["nokia", "노키아"],
    &["motorola", "모토로라"],
    &["oppo", "오포"],
    &["lenovo", "thinkpad", "레노버", "씽크패드"],
    &["dell", "=델"],
    &["hp", "hewlett packard"],
    &["asus", "에이수스", "아수스"],
    &["acer", "에이서"],
    &["microsoft", "마이크로소프트"],
    &["nintendo", "닌텐도"],
    &["logitech", "로지텍"],
    &["anker", "앤커"],
    &["bose", "=보스"],
    &["jbl", "제이비엘"],
    &["beats", "비츠"],
    &["sennheiser", "젠하이저"],
    &["marshall", "마샬"],
    &["jabra", "자브라"],
    &["qcy", "큐씨와이"],
    &["skullcandy", "스컬캔디"],
    &["audio technica", "오디오테크니카"],
    &["garmin", "가민"],
    &["fitbit", "핏빗"],
    &["casio", "g shock", "카시오", "지샥"],
    &["seiko", "세이코"],
    &["rolex", "롤렉스"],
    &["swatch", "스와치"],
    &["fossil", "파슬"],
    &["daniel wellington", "다니엘웰링턴"],
    &["canon", "캐논"],
    &["nikon", "니콘"],
    &["fujifilm", "instax", "후지필름", "인스탁스"],
    &["gopro", "고프로"],
    &["amazon", "kindle", "킨들"],
    // Clothes, shoes, caps.
    &["nike", "나이키"],
    &["adidas", "아디다스"],
    &["puma", "푸마"],
    &["new balance", "뉴발란스"],
    &["converse", "컨버스"],
    &["vans", "=반스"],
    &["new era", "뉴에라"],
    &["mlb", "엠엘비"],
    &["kangol", "캉골"],
    &["fila", "휠라"],
    &["under armour", "언더아머"],
    &["the north face", "north face", "노스페이스"],
    &["patagonia", "파타고니아"],
    &["arcteryx", "arc teryx", "아크테릭스"],
    &["uniqlo", "유니클로"],
    &["zara", "=자라"],
    &["muji", "무인양품"],
    &["levis", "리바이스"],
    &["ralph lauren", "랄프로렌"],
    &["tommy hilfiger", "타미힐피거"],
    &["lacoste", "라코스테"],
    &["carhartt", "칼하트"],
    &["stussy", "스투시"],
    &["descente", "데상트"],
    &["spao", "스파오"],
    // Bags, wallets, luxury.
    &["jansport", "잔스포츠"],
    &["herschel", "허쉘"],
    &["eastpak", "이스트팩"],
    &["fjallraven", "kanken", "피엘라벤", "칸켄"],
    &["kipling", "키플링"],
    &["samsonite", "쌤소나이트"],
    &["tumi", "투미"],
    &["gucci", "구찌"],
    &["prada", "프라다"],
    &["chanel", "샤넬"],
    &["louis vuitton", "루이비통"],
    &["hermes", "에르메스"],
    &["dior", "디올"],
    &["burberry", "버버리"],
    &["balenciaga", "발렌시아가"],
    &["michael kors", "마이클코어스"],
    &["longchamp", "롱샴"],
    &["mcm", "엠씨엠"],
    &["montblanc", "몽블랑"],
    // Bottles and tumblers.
    &["starbucks", "스타벅스", "스벅"],
    &["hydro flask", "hydroflask", "하이드로플라스크"],
    &["nalgene", "날진"],
    &["yeti", "예티"],
    &["thermos", "써모스"],
    &["locknlock", "lock lock", "락앤락"],
    &["tupperware", "타파웨어"],
    &["zojirushi", "조지루시"],
    &["camelbak", "카멜백"],
    // Cars (their keys).
    &["hyundai", "현대차", "현대자동차", "=현대"],
    &["kia", "기아차", "=기아"],
    &["genesis", "제네시스"],
    &["toyota", "도요타", "토요타"],
    &["honda", "혼다"],
    &["bmw", "비엠더블유"],
    &["mercedes benz", "benz", "벤츠"],
    &["volkswagen", "폭스바겐"],
    &["tesla", "테슬라"],
];

impl Brands {
    /// The makers a text's words (folded, as `words::composed_words` gives them, in order)
    /// name.
    pub fn of(words: &[String]) -> Self {
        let names = &*NAMES;
        let mut bits = 0u128;
        let mut mark = |maker: Option<&usize>| {
            if let Some(&i) = maker {
                bits |= 1 << i;
            }
        };
        for word in words {
            mark(names.whole.get(word.as_str()));
            if word.chars().next().is_some_and(is_syllable) {
                mark(names.whole.get(stem(word)));
                for (prefix, i) in &names.korean_starts {
                    if word.starts_with(prefix) {
                        mark(Some(i));
                    }
                }
            }
        }
        for len in 2..=MOST_WORDS {
            for run in words
                .windows(len)
                .filter(|run| names.run_starts.contains(run[0].as_str()))
            {
                mark(names.runs.get(run.join(" ").as_str()));
            }
        }
        Self(bits)
    }

    /// Whether two reports name makers and share none: most likely two objects. (One that
    /// names no maker says nothing either way, and sharing one is already shared words, or
    /// the same meaning in two scripts.)
    pub fn differ(self, other: Self) -> bool {
        self.0 != 0 && other.0 != 0 && self.0 & other.0 == 0
    }
}

// One bit a maker in a `Brands`.
const _: () = assert!(BRANDS.len() <= u128::BITS as usize);

/// The most words a maker's name has ("the north face").
const MOST_WORDS: usize = 3;

/// [`BRANDS`] as looked up, each name to its maker's index: a word that is a name (a Latin
/// one, a name of several words written together, or a Korean one that counts only whole,
/// particle aside), a run of words that is one, and the Korean names a word may start with.
struct Names {
    whole: HashMap<String, usize>,
    runs: HashMap<&'static str, usize>,
    /// The first words of [`Names::runs`]: only a run starting with one is looked up.
    run_starts: HashSet<&'static str>,
    korean_starts: Vec<(&'static str, usize)>,
}

static NAMES: LazyLock<Names> = LazyLock::new(|| {
    let mut names = Names {
        whole: HashMap::new(),
        runs: HashMap::new(),
        run_starts: HashSet::new(),
        korean_starts: Vec::new(),
    };
    for (i, maker) in BRANDS.iter().enumerate() {
        for &name in *maker {
            if let Some(whole) = name.strip_prefix('=') {
                names.whole.insert(whole.to_owned(), i);
            } else if name.chars().next().is_some_and(is_syllable) {
                names.korean_starts.push((name, i));
            } else if name.contains(' ') {
                debug_assert!(name.split(' ').count() <= MOST_WORDS, "{name}");
                names.runs.insert(name, i);
                names.run_starts.extend(name.split(' ').next());
                names.whole.insert(name.replace(' ', ""), i);
            } else {
                names.whole.insert(name.to_owned(), i);
            }
        }
    }
    names
});

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::words::composed_words;

    fn of(text: &str) -> Brands {
        Brands::of(&composed_words(text).collect::<Vec<_>>())
    }

    #[test]
    fn a_maker_is_the_same_in_either_script_and_by_its_products() {
        for (a, b) in [
            ("Black Sony earbuds", "소니 이어폰"),
            ("프라다 검정 장지갑이요", "Black Prada long wallet"),
            ("AirPods Pro case", "에어팟 케이스"),
            ("갤럭시 버즈", "Samsung earbuds"),
            ("삼성노트북들어있는검정색가방", "Samsung laptop"),
            ("Gorra New Era", "뉴에라 야구모자"),
            ("NewEra cap", "New Era"),
            ("현대차 열쇠", "Hyundai car key"),
            ("기아 자동차 키", "KIA key"),
        ] {
            assert_eq!(of(a), of(b), "{a} / {b}");
            assert_ne!(of(a), Brands::default(), "{a}");
        }
    }

    #[test]
    fn different_makers_differ_and_none_says_nothing() {
        assert!(of("Black earbuds, Jabra").differ(of("black Sony wireless earbuds")));
        assert!(of("흰색 헤드폰 (마샬)").differ(of("소니 헤드폰")));
        assert!(of("Kia car key").differ(of("Hyundai car key")));
        assert!(!of("Black umbrella").differ(of("Sony headphones")), "one names none");
        // A word that only starts like a maker's name of two syllables, a name of two words
        // out of order.
        assert_eq!(of("현대미술 교재"), Brands::default(), "현대미술 is modern art");
        assert_eq!(of("기아대책 팸플릿"), Brands::default());
        assert_eq!(of("Era, new"), Brands::default());
        // A person's name is not a maker.
        assert_eq!(of("Carné de Mercedes García, Stanley's laptop"), Brands::default());
        assert_eq!(of("Mercedes-Benz key"), of("벤츠 키"));
        // One shared maker is enough: a Samsung phone in an Apple case.
        assert!(!of("Samsung phone, Apple case").differ(of("Galaxy")));
    }
}
