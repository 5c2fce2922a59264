//! Korean particles after a word known only once a phrase is filled in (a title, a name): the
//! catalog writes both forms, "{title}이(가)", and the word's last sound picks one — 이, 을,
//! 은, 과, 으로 after a final consonant; 가, 를, 는, 와, 로 after a vowel (and 로 after ㄹ).
//! The web app chooses its own messages' particles the same way (web/src/particles.js).

/// Each way the catalog writes a particle: the form after a consonant, the form after a vowel.
const PARTICLES: [(&str, &str, &str); 6] = [
    ("이(가)", "이", "가"),
    ("을(를)", "을", "를"),
    ("은(는)", "은", "는"),
    ("과(와)", "과", "와"),
    ("와(과)", "과", "와"),
    ("(으)로", "으로", "로"),
];

/// What may stand between a word and its particle: closing quotes and brackets.
const CLOSERS: &str = "\"'”’」』)]";

/// How a word ends when read aloud.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Sound {
    Vowel,
    /// ㄹ, after which (으)로 is 로.
    Rieul,
    Consonant,
}

/// How digits are read (영, 일, 이, 삼, 사, 오, 육, 칠, 팔, 구).
const DIGITS: [Sound; 10] = [
    Sound::Consonant,
    Sound::Rieul,
    Sound::Vowel,
    Sound::Consonant,
    Sound::Vowel,
    Sound::Vowel,
    Sound::Consonant,
    Sound::Rieul,
    Sound::Rieul,
    Sound::Vowel,
];

/// The sound `text` ends with, or `None` when it cannot be told (a symbol, an emoji). A Latin
/// word ends with a consonant after b, c, d, g, k, m, n, p or t (Tab → 탭), with ㄹ after l
/// (Bell → 벨), with a vowel otherwise (Galaxy → 갤럭시) — but for a silent e after l, m or n,
/// read as that letter (Apple → 애플, Phone → 폰).
fn final_sound(text: &str) -> Option<Sound> {
    let mut chars = text
        .chars()
        .rev()
        .skip_while(|c| c.is_whitespace() || CLOSERS.contains(*c));
    let last = chars.next()?;
    if ('\u{AC00}'..='\u{D7A3}').contains(&last) {
        return Some(match (u32::from(last) - 0xAC00) % 28 {
            0 => Sound::Vowel,
            8 => Sound::Rieul,
            _ => Sound::Consonant,
        });
    }
    if let Some(digit) = last.to_digit(10) {
        return Some(DIGITS[digit as usize]);
    }
    let last = last.to_ascii_lowercase();
    let silent_e_after = chars
        .next()
        .map(|c| c.to_ascii_lowercase())
        .filter(|c| last == 'e' && "lmn".contains(*c));
    match silent_e_after.unwrap_or(last) {
        'l' => Some(Sound::Rieul),
        'b' | 'c' | 'd' | 'g' | 'k' | 'm' | 'n' | 'p' | 't' => Some(Sound::Consonant),
        'a'..='z' => Some(Sound::Vowel),
        _ => None,
    }
}

/// `text` with each particle written both ways chosen by the word before it; left as written
/// where the word's sound cannot be told.
pub fn choose_particles(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some((at, (written, after_consonant, after_vowel))) = PARTICLES
        .iter()
        .filter_map(|particle| rest.find(particle.0).map(|at| (at, *particle)))
        .min_by_key(|(at, _)| *at)
    {
        out.push_str(&rest[..at]);
        let chosen = match final_sound(&out) {
            None => written,
            Some(Sound::Vowel) => after_vowel,
            Some(Sound::Rieul) if written == "(으)로" => after_vowel,
            Some(_) => after_consonant,
        };
        out.push_str(chosen);
        rest = &rest[at + written.len()..];
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_particle_follows_the_words_last_sound() {
        for (written, chosen) in [
            ("“지갑”이(가) 게시되었습니다", "“지갑”이 게시되었습니다"),
            ("“우산”을(를) 저장했습니다", "“우산”을 저장했습니다"),
            ("“가방”은(는)", "“가방”은"),
            ("“모자”이(가) 게시되었습니다", "“모자”가 게시되었습니다"),
            ("“모자”을(를)", "“모자”를"),
            ("서울(으)로", "서울로"),
            ("부산(으)로", "부산으로"),
            ("학교(으)로", "학교로"),
            ("ann@uni.example(으)로", "ann@uni.example로"),
            ("Samsung와(과)", "Samsung과"),
            ("Sony와(과)", "Sony와"),
            ("“Apple”을(를)", "“Apple”을"),
            ("“Phone”이(가)", "“Phone”이"),
            ("“Galaxy”이(가)", "“Galaxy”가"),
            ("물품 #12(으)로", "물품 #12로"),
            ("물품 #13(으)로", "물품 #13으로"),
            ("“🙂”이(가)", "“🙂”이(가)"),
            ("“모자”이(가) “지갑”을(를)", "“모자”가 “지갑”을"),
            ("이(가)", "이(가)"),
        ] {
            assert_eq!(choose_particles(written), chosen, "{written}");
        }
    }
}
