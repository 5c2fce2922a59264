//! A printable label for a found item: an SVG of 62 × 29 mm (a common label-printer roll,
//! and small enough to cut from a sheet) with the item's number, its title, the day it was
//! reported, where it is kept, and a QR code of the item's page.
//!
//! Every length is in millimetres (the `viewBox` is the label itself). User text is never
//! markup: it is escaped, and cut with `…` to fit the room it has.

use qrcode::{Color, EcLevel, QrCode};

/// The label's size.
const WIDTH_MM: f64 = 62.0;
const HEIGHT_MM: f64 = 29.0;
/// Blank paper around everything.
const MARGIN_MM: f64 = 1.0;
/// The QR code's square, quiet zone included: the label's height less its margins.
const QR_MM: f64 = HEIGHT_MM - 2.0 * MARGIN_MM;
/// Modules of blank on each side of the code, as the standard asks.
const QUIET_MODULES: usize = 4;
/// Where the text starts, right of the code, and how wide it may be.
const TEXT_X_MM: f64 = MARGIN_MM + QR_MM + 1.5;
const TEXT_WIDTH_MM: f64 = WIDTH_MM - MARGIN_MM - TEXT_X_MM;

const FONT: &str = "DejaVu Sans, Liberation Sans, Arial, Helvetica, sans-serif";
/// Font sizes, in millimetres.
const NUMBER_SIZE: f64 = 5.5;
const TITLE_SIZE: f64 = 3.6;
const DETAIL_SIZE: f64 = 2.8;
/// Lines the title and the storage place may take.
const TITLE_LINES: usize = 2;
const PLACE_LINES: usize = 2;

/// The URL does not fit in a QR code (thousands of bytes: not one this service makes).
#[derive(Debug, thiserror::Error)]
#[error("the item's URL is too long for a QR code: {0}")]
pub struct UrlTooLong(qrcode::types::QrError);

/// The label of item `id` (reported at `created_at`, epoch milliseconds), whose QR code
/// encodes `url`.
pub fn label_svg(
    id: i64,
    title: &str,
    created_at: i64,
    storage_place: Option<&str>,
    url: &str,
) -> Result<String, UrlTooLong> {
    let place = storage_place.map(|place| format!("Kept at {place}"));
    let reported = format!("Reported {}", utc_date(created_at));
    draw(
        &format!("Item #{id}"),
        &format!("#{id}"),
        title,
        place.as_deref(),
        &reported,
        url,
    )
}

/// The label of a bin, stuck on its shelf: its code, its name and its site, and a QR code
/// of its page (what it holds) at `url`.
pub fn bin_label_svg(code: &str, name: &str, site: &str, url: &str) -> Result<String, UrlTooLong> {
    draw(&format!("Bin {code}"), code, name, None, site, url)
}

/// A label: a QR code of `url` on the left; on the right a bold `heading`, the `title` (two
/// lines at most), and at the bottom `detail` (two lines at most) over `footer`.
fn draw(
    name: &str,
    heading: &str,
    title: &str,
    detail: Option<&str>,
    footer: &str,
    url: &str,
) -> Result<String, UrlTooLong> {
    let code = QrCode::with_error_correction_level(url.as_bytes(), EcLevel::M).map_err(UrlTooLong)?;
    let mut svg = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{WIDTH_MM}mm\" height=\"{HEIGHT_MM}mm\" \
         viewBox=\"0 0 {WIDTH_MM} {HEIGHT_MM}\" font-family=\"{FONT}\" fill=\"#000\">\n\
         <title>{}</title>\n\
         <rect width=\"{WIDTH_MM}\" height=\"{HEIGHT_MM}\" fill=\"#fff\"/>\n",
        escape(name)
    );
    svg.push_str(&qr_group(&code));

    // A long heading gets a smaller font rather than running off the label.
    let number_size = NUMBER_SIZE.min(TEXT_WIDTH_MM / em_width(heading));
    let mut y = MARGIN_MM + NUMBER_SIZE;
    svg.push_str(&text_line(y, number_size, true, heading));
    y += 1.5;
    for line in fit_lines(title, TEXT_WIDTH_MM / TITLE_SIZE, TITLE_LINES) {
        y += TITLE_SIZE * 1.15;
        svg.push_str(&text_line(y, TITLE_SIZE, false, &line));
    }
    let detail = detail.map_or_else(Vec::new, |detail| {
        fit_lines(detail, TEXT_WIDTH_MM / DETAIL_SIZE, PLACE_LINES)
    });
    let step = DETAIL_SIZE * 1.3;
    let mut y = HEIGHT_MM - MARGIN_MM - 0.6 - step * detail.len() as f64;
    for line in &detail {
        svg.push_str(&text_line(y, DETAIL_SIZE, false, line));
        y += step;
    }
    let footer = fit_lines(footer, TEXT_WIDTH_MM / DETAIL_SIZE, 1);
    svg.push_str(&text_line(
        y,
        DETAIL_SIZE,
        false,
        footer.first().map_or("", String::as_str),
    ));
    svg.push_str("</svg>\n");
    Ok(svg)
}

/// The code in the label's left square: a white quiet zone, then one path of the dark
/// modules, a rectangle per run of dark modules in a row, drawn in module units.
fn qr_group(code: &QrCode) -> String {
    let width = code.width();
    let modules = width + 2 * QUIET_MODULES;
    let scale = QR_MM / modules as f64;
    let colors = code.to_colors();
    let mut path = String::new();
    for (y, row) in colors.chunks(width).enumerate() {
        let mut x = 0;
        while x < width {
            if row[x] != Color::Dark {
                x += 1;
                continue;
            }
            let run = row[x..].iter().take_while(|c| **c == Color::Dark).count();
            path.push_str(&format!("M{} {}h{run}v1h-{run}z", x + QUIET_MODULES, y + QUIET_MODULES));
            x += run;
        }
    }
    format!(
        "<g transform=\"translate({MARGIN_MM} {MARGIN_MM}) scale({scale:.5})\" shape-rendering=\"crispEdges\">\n\
         <rect width=\"{modules}\" height=\"{modules}\" fill=\"#fff\"/>\n\
         <path fill=\"#000\" d=\"{path}\"/>\n\
         </g>\n"
    )
}

/// One line of text at baseline `y`, escaped.
fn text_line(y: f64, size: f64, bold: bool, text: &str) -> String {
    let weight = if bold { " font-weight=\"bold\"" } else { "" };
    format!(
        "<text x=\"{TEXT_X_MM}\" y=\"{y:.2}\" font-size=\"{size:.2}\"{weight}>{}</text>\n",
        escape(text)
    )
}

/// `text` for an XML text node or attribute: the five special characters as references, and
/// the characters XML cannot hold at all (control characters) left out.
pub fn escape(text: &str) -> String {
    let mut escaped = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => escaped.push_str("&amp;"),
            '<' => escaped.push_str("&lt;"),
            '>' => escaped.push_str("&gt;"),
            '"' => escaped.push_str("&quot;"),
            '\'' => escaped.push_str("&#39;"),
            '\t' | '\n' | '\r' => escaped.push(c),
            c if c.is_control() || c == '\u{FFFE}' || c == '\u{FFFF}' => {}
            c => escaped.push(c),
        }
    }
    escaped
}

/// `text` on at most `lines` lines of at most `max_em` ems each (an estimate: the printer's
/// font is not known here), broken between words where it can be; the last line ends with
/// `…` when the text goes on. Runs of white space and control characters become one space.
fn fit_lines(text: &str, max_em: f64, lines: usize) -> Vec<String> {
    let cleaned: String = text.chars().map(|c| if c.is_control() { ' ' } else { c }).collect();
    let words: Vec<&str> = cleaned.split_whitespace().collect();
    let joined = words.join(" ");
    let mut rest = joined.as_str();
    let mut out = Vec::new();
    while !rest.is_empty() && out.len() < lines {
        if em_width(rest) <= max_em {
            out.push(rest.to_owned());
            break;
        }
        if out.len() + 1 == lines {
            let cut = prefix_within(rest, max_em - em_width("…")).trim_end();
            out.push(format!("{cut}…"));
            break;
        }
        let fits = prefix_within(rest, max_em);
        let end = if rest[fits.len()..].starts_with(' ') {
            fits.len()
        } else if let Some(space) = fits.rfind(' ') {
            space
        } else {
            // One word wider than the line: as much of it as fits (at least a character).
            fits.len().max(rest.chars().next().map_or(0, char::len_utf8))
        };
        out.push(rest[..end].trim_end().to_owned());
        rest = rest[end..].trim_start();
    }
    out
}

/// The longest start of `text` that is at most `max_em` wide.
fn prefix_within(text: &str, max_em: f64) -> &str {
    let mut width = 0.0;
    for (at, c) in text.char_indices() {
        width += char_em(c);
        if width > max_em {
            return &text[..at];
        }
    }
    text
}

fn em_width(text: &str) -> f64 {
    text.chars().map(char_em).sum()
}

/// A generous estimate of a character's advance in a sans-serif font, in ems.
fn char_em(c: char) -> f64 {
    match c {
        'i' | 'j' | 'l' | '.' | ',' | ':' | ';' | '\'' | '!' | '|' | ' ' => 0.35,
        'f' | 't' | 'r' | 'I' | '(' | ')' | '[' | ']' | '"' | '-' => 0.45,
        'm' | 'w' | 'M' | 'W' | '@' | '%' | '&' => 0.95,
        c if c.is_ascii_uppercase() => 0.75,
        c if c.is_ascii() => 0.62,
        // Wide scripts (CJK, Hangul) and emoji take a full em or more.
        '\u{1100}'..='\u{115F}' | '\u{2E80}'..='\u{A4CF}' | '\u{AC00}'..='\u{D7A3}' | '\u{F900}'..='\u{FAFF}' => 1.0,
        '\u{FE30}'..='\u{FE4F}' | '\u{FF00}'..='\u{FF60}' | '\u{1F000}'..='\u{1FAFF}' | '\u{20000}'..='\u{3FFFD}' => {
            1.1
        }
        // Marks and joiners take no room of their own.
        '\u{0300}'..='\u{036F}' | '\u{200B}'..='\u{200F}' | '\u{FE00}'..='\u{FE0F}' => 0.0,
        _ => 0.75,
    }
}

/// `YYYY-MM-DD` of an epoch-milliseconds instant, in UTC.
fn utc_date(ms: i64) -> String {
    let at =
        ::time::OffsetDateTime::from_unix_timestamp(ms.div_euclid(1000)).unwrap_or(::time::OffsetDateTime::UNIX_EPOCH);
    format!("{:04}-{:02}-{:02}", at.year(), u8::from(at.month()), at.day())
}

#[cfg(test)]
mod tests {
    use super::*;

    const URL: &str = "https://lost.example.edu/#/items/42";

    fn texts(svg: &str) -> Vec<&str> {
        svg.split("<text ")
            .skip(1)
            .map(|part| {
                let start = part.find('>').unwrap() + 1;
                &part[start..part.find("</text>").unwrap()]
            })
            .collect()
    }

    #[test]
    fn a_label_is_62_by_29_millimetres_with_the_number_title_date_place_and_code() {
        // 2024-03-09T23:59:59.999Z
        let svg = label_svg(42, "Blue umbrella", 1_710_028_799_999, Some("Shelf B"), URL).unwrap();
        assert!(svg.starts_with(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"62mm\" height=\"29mm\" viewBox=\"0 0 62 29\""
        ));
        assert_eq!(
            texts(&svg),
            ["#42", "Blue umbrella", "Kept at Shelf B", "Reported 2024-03-09"]
        );
        assert!(
            svg.contains("<path fill=\"#000\" d=\"M4 4h7v1h-7z"),
            "the finder pattern's top row, one run"
        );
        assert!(svg.trim_end().ends_with("</svg>"));
        let without_place = label_svg(42, "Blue umbrella", 0, None, URL).unwrap();
        assert_eq!(texts(&without_place), ["#42", "Blue umbrella", "Reported 1970-01-01"]);
    }

    #[test]
    fn a_bins_label_has_its_code_name_and_site() {
        let svg = bin_label_svg("A-3-2", "Shelf A, row 3", "Library <desk>", URL).unwrap();
        assert_eq!(texts(&svg), ["A-3-2", "Shelf A, row 3", "Library &lt;desk&gt;"]);
        assert!(svg.contains("<title>Bin A-3-2</title>"));
    }

    #[test]
    fn user_text_is_never_markup() {
        let svg = label_svg(7, "<b>&\"'</b>", 0, Some("<i>Desk</i>"), URL).unwrap();
        assert_eq!(
            texts(&svg)[..3],
            [
                "#7",
                "&lt;b&gt;&amp;&quot;&#39;&lt;/b&gt;",
                "Kept at &lt;i&gt;Desk&lt;/i&gt;"
            ][..]
        );
        assert!(!svg.contains("<b>") && !svg.contains("<i>"));
        assert_eq!(escape("a\u{1}b\u{7f}c\u{FFFF}"), "abc", "characters XML cannot hold");
        assert_eq!(
            escape("Tom & Jerry's <\"x\">"),
            "Tom &amp; Jerry&#39;s &lt;&quot;x&quot;&gt;"
        );
    }

    #[test]
    fn control_characters_and_line_breaks_become_spaces() {
        assert_eq!(fit_lines("Red\u{1}\n  scarf\tand hat", 100.0, 2), ["Red scarf and hat"]);
        assert_eq!(fit_lines(" \u{7} ", 100.0, 2), Vec::<String>::new());
    }

    #[test]
    fn a_long_title_is_wrapped_between_words_and_cut_with_an_ellipsis() {
        let title = "Black leather wallet with a library card and two photographs of a dog";
        let lines = fit_lines(title, TEXT_WIDTH_MM / TITLE_SIZE, TITLE_LINES);
        assert_eq!(lines.len(), 2, "{lines:?}");
        assert_eq!(lines[0], "Black leather");
        assert!(lines[1].ends_with('…') && !lines[1].ends_with(" …"), "{lines:?}");
        for line in &lines {
            assert!(em_width(line) <= TEXT_WIDTH_MM / TITLE_SIZE, "{line:?} is too wide");
        }
        let joined = lines.join(" ");
        assert!(title.starts_with(joined.trim_end_matches('…')), "{joined:?}");

        // A title that fits is left whole, without an ellipsis.
        assert_eq!(fit_lines("Blue umbrella", 8.0, 2), ["Blue umbrella"]);
        // One word longer than a line is broken inside, then cut.
        let long = "x".repeat(100);
        let lines = fit_lines(&long, 5.0, 2);
        assert_eq!(lines.len(), 2);
        assert!(!lines[0].ends_with('…') && lines[1].ends_with('…'), "{lines:?}");
        assert!(lines.iter().all(|line| em_width(line) <= 5.0));
        // Wide characters count as wide.
        let lines = fit_lines(&"傘".repeat(40), 8.6, 1);
        assert_eq!(lines, [format!("{}…", "傘".repeat(7))]);
    }

    #[test]
    fn the_label_of_a_long_title_shows_its_start_and_an_ellipsis() {
        let svg = label_svg(3, &"Umbrella ".repeat(30), 0, None, URL).unwrap();
        let texts = texts(&svg);
        assert_eq!(texts.len(), 4, "{texts:?}");
        assert_eq!(texts[1], "Umbrella");
        assert!(texts[2].starts_with("Umbrella") && texts[2].ends_with('…'), "{texts:?}");
        assert_eq!(texts[3], "Reported 1970-01-01");
    }

    #[test]
    fn a_huge_number_gets_a_smaller_font() {
        let svg = label_svg(i64::MAX, "Keys", 0, None, URL).unwrap();
        let size: f64 = svg
            .split("font-size=\"")
            .nth(1)
            .unwrap()
            .split('"')
            .next()
            .unwrap()
            .parse()
            .unwrap();
        assert!(size < NUMBER_SIZE && size * em_width(&format!("#{}", i64::MAX)) <= TEXT_WIDTH_MM + 0.01);
    }

    #[test]
    fn the_code_is_big_enough_to_scan_with_its_quiet_zone() {
        let svg = label_svg(1, "Keys", 0, None, URL).unwrap();
        // The square, quiet zone included, is 27 mm: module count × scale.
        let scale: f64 = svg
            .split("scale(")
            .nth(1)
            .unwrap()
            .split(')')
            .next()
            .unwrap()
            .parse()
            .unwrap();
        let modules: f64 = svg
            .split("<rect width=\"")
            .nth(2)
            .unwrap()
            .split('"')
            .next()
            .unwrap()
            .parse()
            .unwrap();
        assert!((scale * modules - QR_MM).abs() < 0.01 && QR_MM >= 20.0);
        // Runs are drawn from the quiet zone's edge on.
        assert!(!svg.contains("d=\"M0 ") && !svg.contains("zM3 "));
        assert!(label_svg(1, "Keys", 0, None, &"x".repeat(5000)).is_err());
    }

    #[test]
    fn dates_are_utc_days() {
        assert_eq!(utc_date(0), "1970-01-01");
        assert_eq!(utc_date(-1), "1969-12-31");
        assert_eq!(utc_date(1_700_000_000_000), "2023-11-14");
        assert_eq!(utc_date(i64::MAX), "1970-01-01", "out of range: not a panic");
    }
}
