// Korean particles after a word known only once the message is filled in (a title, a name):
// the catalog writes both forms, "{title}이(가)", and the word's last sound picks one —
// 이/을/은/과/으로 after a final consonant, 가/를/는/와/로 after a vowel (and 로 after ㄹ).
// The service chooses the particles of its notices and emails the same way
// (src/domain/particles.rs).

/** Each way the catalog writes a particle: the form after a consonant, the form after a vowel. */
const PARTICLES = {
  "이(가)": ["이", "가"],
  "을(를)": ["을", "를"],
  "은(는)": ["은", "는"],
  "과(와)": ["과", "와"],
  "와(과)": ["과", "와"],
  "(으)로": ["으로", "로"],
};
const WRITTEN = /이\(가\)|을\(를\)|은\(는\)|과\(와\)|와\(과\)|\(으\)로/g;
/** What may stand between a word and its particle: closing quotes and brackets. */
const CLOSERS = /[\s"'”’」』)\]]/;
/** How digits are read (영, 일, 이, 삼, 사, 오, 육, 칠, 팔, 구): their final consonant, if any. */
const DIGIT_ENDS = ["ㅇ", "ㄹ", "", "ㅁ", "", "", "ㄱ", "ㄹ", "ㄹ", ""];
/** Latin letters after which a word read in Korean ends with a consonant (Tab → 탭, Kim → 김),
 *  and with ㄹ (Bell → 벨); after the others a vowel (Galaxy → 갤럭시, Tower → 타워, Case →
 *  케이스) — but for a silent e after l, m or n, read as that letter (Apple → 애플, Phone → 폰). */
const LATIN_CONSONANTS = "bcdgkmnpt";
const LATIN_L = "l";

/** The final consonant of the sound `text` ends with: "" after a vowel, "ㄹ", another
 *  consonant ("ㄱ" and so on stand for any), or null when it cannot be told. */
function finalSound(text) {
  let i = text.length - 1;
  while (i >= 0 && CLOSERS.test(text[i])) i -= 1;
  if (i < 0) return null;
  const ch = text[i];
  const code = ch.charCodeAt(0) - 0xac00;
  if (code >= 0 && code < 11172) {
    const jong = code % 28;
    return jong === 0 ? "" : jong === 8 ? "ㄹ" : "ㄱ";
  }
  if (/\d/.test(ch)) return DIGIT_ENDS[Number(ch)];
  const silentE = /[lmn]e$/i.test(text.slice(0, i + 1));
  const letter = (silentE ? text[i - 1] : ch).toLowerCase();
  if (LATIN_L.includes(letter)) return "ㄹ";
  if (LATIN_CONSONANTS.includes(letter)) return "ㄱ";
  if (/[a-z]/.test(letter)) return "";
  return null;
}

/** `text` with each particle written both ways chosen by the word before it; left as written
 *  where the word's sound cannot be told (a symbol, an emoji). */
export function chooseParticles(text) {
  return text.replace(WRITTEN, (written, offset) => {
    const sound = finalSound(text.slice(0, offset));
    if (sound === null) return written;
    const [afterConsonant, afterVowel] = PARTICLES[written];
    if (written === "(으)로") return sound === "" || sound === "ㄹ" ? afterVowel : afterConsonant;
    return sound === "" ? afterVowel : afterConsonant;
  });
}
