//! The receipt of a handover: one printable page, in the reader's language, that the owner
//! and the desk each keep — the item, its owner, who collected it on which ID, who handed it
//! over and when. Every value is escaped: titles and names are user text.

use super::{Lang, label::escape, say};

/// What a receipt shows; the caller has checked the claim was collected.
pub struct Receipt<'a> {
    pub claim: i64,
    pub item: i64,
    pub title: &'a str,
    /// The desk that handed it over, when the item has one.
    pub site: Option<&'a str>,
    /// The claimant: name and account id.
    pub owner: (&'a str, &'a str),
    /// Who collected it on the owner's behalf, if not the owner.
    pub proxy: Option<&'a str>,
    /// `None` for a handover recorded before pickups were.
    pub id_checked: Option<&'a str>,
    /// The staff member who handed it over: name and account id.
    pub staff: (&'a str, &'a str),
    /// When, `YYYY-MM-DD hh:mm UTC`.
    pub at: &'a str,
}

impl Receipt<'_> {
    /// The page, HTML, styled for screen and paper, running nothing.
    pub fn html(&self, lang: Lang) -> String {
        let person = |(name, id): (&str, &str)| format!("{} ({})", escape(name), escape(id));
        let mut rows = vec![
            ("receipt.item", format!("#{} — {}", self.item, escape(self.title))),
            ("receipt.owner", person(self.owner)),
        ];
        if let Some(proxy) = self.proxy {
            rows.push(("receipt.collectedBy", escape(proxy)));
        }
        if let Some(id_checked) = self.id_checked {
            rows.push(("receipt.idChecked", escape(id_checked)));
        }
        rows.push(("receipt.handedOverBy", person(self.staff)));
        if let Some(site) = self.site {
            rows.push(("receipt.site", escape(site)));
        }
        rows.push(("receipt.date", escape(self.at)));
        rows.push(("receipt.claim", self.claim.to_string()));
        let rows: String = rows
            .into_iter()
            .map(|(key, value)| {
                format!(
                    "<tr><th scope=\"row\">{}</th><td>{value}</td></tr>\n",
                    escape(&say(key, lang))
                )
            })
            .collect();
        let title = escape(&say("receipt.title", lang));
        let signature = escape(&say("receipt.signature", lang));
        format!(
            "<!doctype html>\n<html lang=\"{lang}\">\n<head>\n<meta charset=\"utf-8\">\n\
             <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
             <title>{title} #{claim}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n<main>\n\
             <h1>{title}</h1>\n<table>\n{rows}</table>\n\
             <p class=\"sign\">{signature}</p>\n</main>\n</body>\n</html>\n",
            claim = self.claim
        )
    }
}

const STYLE: &str = "body{font:16px/1.5 system-ui,sans-serif;color:#111;background:#fff;margin:0}\
main{max-width:40rem;margin:2rem auto;padding:0 1rem}h1{font-size:1.5rem}\
table{border-collapse:collapse;width:100%}th,td{text-align:left;vertical-align:top;padding:.4rem .6rem;\
border-bottom:1px solid #767676}th{width:35%;font-weight:600}\
.sign{margin-top:3rem;border-top:1px solid #111;padding-top:.3rem;width:60%}\
@media print{main{margin:0;max-width:none}}";

#[cfg(test)]
mod tests {
    use super::*;

    fn receipt(title: &str) -> Receipt<'_> {
        Receipt {
            claim: 7,
            item: 42,
            title,
            site: Some("Main desk"),
            owner: ("Vera Lind", "vera"),
            proxy: Some("Bo <Kim>"),
            id_checked: Some("Student card"),
            staff: ("Desk Staff", "desk1"),
            at: "2026-11-27 11:40 UTC",
        }
    }

    #[test]
    fn a_receipt_names_the_item_owner_id_staff_and_date() {
        let page = receipt("Black wallet").html(Lang::En);
        for part in [
            "#42 — Black wallet",
            "Vera Lind (vera)",
            "Student card",
            "Desk Staff (desk1)",
            "Main desk",
            "2026-11-27 11:40 UTC",
            "<html lang=\"en\">",
        ] {
            assert!(page.contains(part), "{part} in {page}");
        }
        assert!(receipt("Cartera").html(Lang::Es).contains("<html lang=\"es\">"));
    }

    #[test]
    fn user_text_is_never_markup() {
        let page = receipt("<script>alert(1)</script>").html(Lang::Ko);
        assert!(!page.contains("<script>"));
        assert!(page.contains("&lt;script&gt;alert(1)&lt;/script&gt;"));
        assert!(page.contains("Bo &lt;Kim&gt;"));
    }
}
