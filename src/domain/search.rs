//! Words for search: lower case, accents removed, split at anything that is not a letter or
//! a digit. Stored text and queries are folded by the same function, so both databases
//! match the same way (their own tokenizers only ever see plain words and spaces).

use unicode_normalization::{UnicodeNormalization, char::is_combining_mark};

/// The folded words of `text`, in order.
pub fn folded_words(text: &str) -> impl Iterator<Item = String> + '_ {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|word| !word.is_empty())
        .map(|word| {
            word.nfkd()
                .filter(|c| !is_combining_mark(*c))
                .flat_map(char::to_lowercase)
                // Decomposition can leave letters that are not alphanumeric on their own.
                .filter(|c| c.is_alphanumeric())
                .collect::<String>()
        })
        .filter(|word| !word.is_empty())
}

/// The folded words of several texts, joined by single spaces, as stored for search.
pub fn search_text<'a>(texts: impl IntoIterator<Item = Option<&'a str>>) -> String {
    let mut joined = String::new();
    for word in texts.into_iter().flatten().flat_map(folded_words) {
        if !joined.is_empty() {
            joined.push(' ');
        }
        joined.push_str(&word);
    }
    joined
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn folds_case_and_accents_and_splits_at_punctuation() {
        let words: Vec<String> = folded_words("Café-Crème, ÉCOLE n°5 Ångström_x").collect();
        assert_eq!(words, ["cafe", "creme", "ecole", "n", "5", "angstrom", "x"]);
    }

    #[test]
    fn joins_the_texts_that_are_there() {
        assert_eq!(
            search_text([Some("Blue  Umbrella"), None, Some("  bags ")]),
            "blue umbrella bags"
        );
        assert_eq!(search_text([None, Some("!!")]), "");
    }
}
