// Korean particles after a word filled into a message (web/src/particles.js), without a
// browser: the word's last sound picks the form, and what cannot be told stays as written.
import { test } from "node:test";
import assert from "node:assert/strict";
import { chooseParticles } from "../src/particles.js";

test("the particle follows the word's last sound: Hangul, digits and Latin letters", () => {
  const cases = [
    ["“지갑”이(가) 게시되었습니다", "“지갑”이 게시되었습니다"], // 갑: a final consonant
    ["“우산”을(를) 저장했습니다", "“우산”을 저장했습니다"],
    ["“가방”은(는)", "“가방”은"],
    ["“모자”이(가) 게시되었습니다", "“모자”가 게시되었습니다"], // 자: a vowel
    ["“모자”을(를)", "“모자”를"],
    ["서울(으)로", "서울로"], // ㄹ takes 로
    ["부산(으)로", "부산으로"],
    ["학교(으)로", "학교로"],
    ["ann@uni.example(으)로", "ann@uni.example로"], // "e" after "l": ㄹ
    ["Samsung와(과)", "Samsung과"],
    ["Sony와(과)", "Sony와"],
    ["“Apple”을(를)", "“Apple”을"], // 애플
    ["“Phone”이(가)", "“Phone”이"], // 폰
    ["“Galaxy”이(가)", "“Galaxy”가"], // 갤럭시
    ["물품 #12(으)로", "물품 #12로"], // 십이
    ["물품 #13(으)로", "물품 #13으로"], // 십삼
    ["“🙂”이(가)", "“🙂”이(가)"], // cannot be told
  ];
  assert.deepEqual(cases.map(([written]) => chooseParticles(written)), cases.map(([, chosen]) => chosen));
});
