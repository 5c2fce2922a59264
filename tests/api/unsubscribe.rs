//! Each notification email can be stopped by kind: its `List-Unsubscribe` link, posted once
//! without a session (RFC 8058 one-click), stops that kind for its reader and no other, and
//! My account shows and changes the choices. The bell keeps every notice.

use reqwest::{Method, StatusCode, header::CONTENT_TYPE};
use serde_json::{Value, json};

use crate::{
    helpers::*,
    mail::{PUBLIC_URL, mailing_to},
    smtp_sink::{Mode, SmtpSink, header, text_of},
};

/// The one-click POST a mail client makes for `link`, from a client with no session.
async fn one_click(app: &TestApp, link: &str) -> (StatusCode, Value) {
    let client = app.client();
    let request = client
        .request(Method::POST, link.strip_prefix(PUBLIC_URL).unwrap())
        .header(CONTENT_TYPE, "application/x-www-form-urlencoded")
        .body("List-Unsubscribe=One-Click");
    let answer = client.send(request).await;
    (answer.status, answer.body)
}

/// Waits until `sink` holds `n` messages; the last.
async fn nth_message(sink: &SmtpSink, n: usize) -> String {
    sink.wait_until(std::time::Duration::from_secs(10), |sink| sink.messages().len() >= n)
        .await;
    let messages = sink.messages();
    assert_eq!(messages.len(), n, "{messages:#?}");
    messages[n - 1].clone()
}

#[tokio::test]
async fn a_one_click_unsubscribe_stops_that_kind_of_email_and_my_account_changes_it_back() {
    let sink = SmtpSink::start(Mode::Up).await;
    let app = TestApp::start_with(TestDb::new().await, mailing_to(&sink)).await;
    let office = app.logged_in("office", true).await;
    let ann = app.logged_in("ann", false).await;
    assert!(app.store.set_email("ann", Some("ann@example.org")).await.unwrap());
    let item = ann.create_item(item_body("Blue umbrella")).await;
    let path = item_path(&item);

    // Approved: an email about it, which names how to stop that kind in one click.
    office.patch(&path, json!({ "status": "approved" })).await;
    let first = nth_message(&sink, 1).await;
    let link = header(&first, "List-Unsubscribe").unwrap();
    let link = link.trim_start_matches('<').trim_end_matches('>').to_owned();
    assert!(
        link.starts_with(&format!("{PUBLIC_URL}/api/unsubscribe?u=ann&k=itemStatus&t=")),
        "{link}"
    );
    assert_eq!(
        header(&first, "List-Unsubscribe-Post").as_deref(),
        Some("List-Unsubscribe=One-Click")
    );
    assert!(
        text_of(&first).contains(&format!(
            "Choose which emails you get in My account: {PUBLIC_URL}/#/account"
        )),
        "{first}"
    );

    // A link changed in any way, or for another kind, is refused and changes nothing.
    for bad in [
        link.replace("u=ann", "u=office"),
        link.replace("k=itemStatus", "k=storagePlace"),
        format!("{}x", &link[..link.len() - 1]),
        link.replace("k=itemStatus", "k=nonsense"),
    ] {
        let answer = one_click(&app, &bad).await;
        assert_error(&answer, StatusCode::BAD_REQUEST, "Invalid unsubscribe link");
    }
    assert!(
        ann.get("/api/me/mail")
            .await
            .1
            .as_object()
            .unwrap()
            .values()
            .all(|wanted| wanted == true)
    );

    assert_eq!(one_click(&app, &link).await, (StatusCode::OK, json!({ "ok": true })));
    let (_, choices) = ann.get("/api/me/mail").await;
    assert_eq!(
        (&choices["itemStatus"], &choices["storagePlace"]),
        (&json!(false), &json!(true))
    );
    assert_eq!(choices.as_object().unwrap().len(), 7);

    // Put back to pending, then shelved: only the second is emailed; the bell has both.
    office.patch(&path, json!({ "status": "pending" })).await;
    office.patch(&path, json!({ "storagePlace": "Front desk" })).await;
    let second = nth_message(&sink, 2).await;
    assert!(
        header(&second, "List-Unsubscribe").unwrap().contains("k=storagePlace"),
        "{second}"
    );
    let (_, bell) = ann.get("/api/notifications").await;
    let kinds: Vec<&str> = bell
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n["type"].as_str().unwrap())
        .collect();
    assert_eq!(kinds, ["storagePlace", "itemStatus", "itemStatus"]);

    // My account turns it back on; bad choices are refused.
    for (bad, error) in [
        (json!({ "nonsense": true }), "Invalid kind"),
        (json!({ "match": "no" }), "A choice must be true or false"),
        (json!({}), "No fields to update"),
    ] {
        assert_error(&ann.patch("/api/me/mail", bad).await, StatusCode::BAD_REQUEST, error);
    }
    let (status, choices) = ann
        .patch("/api/me/mail", json!({ "itemStatus": true, "review": false }))
        .await;
    assert_eq!(
        (status, &choices["itemStatus"], &choices["review"]),
        (StatusCode::OK, &json!(true), &json!(false))
    );
    office.patch(&path, json!({ "status": "approved" })).await;
    let third = nth_message(&sink, 3).await;
    assert!(
        header(&third, "List-Unsubscribe").unwrap().contains("k=itemStatus"),
        "{third}"
    );
}
