//! Notifications: what causes one and for whom, listing with paging, marking read, and the
//! live `notify` event to the sockets of that user only.

use reqwest::{Method, StatusCode, header};
use serde_json::{Value, json};

use crate::{
    helpers::*,
    sio::{Sio, Transport, write_message},
};

async fn notifications(client: &TestClient) -> Vec<Value> {
    let (status, list) = client.get("/api/notifications").await;
    assert_eq!(status, StatusCode::OK, "{list}");
    list.as_array().unwrap().clone()
}

fn near(kind: &str, title: &str) -> Value {
    json!({ "kind": kind, "title": title, "lat": 51.5, "lng": -0.12, "radius": 30 })
}

#[tokio::test]
async fn a_reporter_is_told_of_review_and_storage_and_marks_it_read() {
    let app = spawn_app().await;
    let admin = app.logged_in("office", true).await;
    let alice = app.logged_in("alice", false).await;
    let bob = app.logged_in("bob", false).await;
    let item = alice.create_item(near("lost", "Blue scarf")).await;
    let path = item_path(&item);

    admin.patch(&path, json!({ "status": "approved" })).await;
    admin.patch(&path, json!({ "status": "approved" })).await; // no change: nothing to tell
    admin.patch(&path, json!({ "storagePlace": "Desk B" })).await;
    let told = notifications(&alice).await;
    assert_eq!(told.len(), 2, "{told:?}");
    assert_eq!(told[0]["type"], "storagePlace");
    assert_eq!(told[0]["text"], "Your report “Blue scarf” is kept at: Desk B.");
    assert_eq!(told[1]["type"], "itemStatus");
    assert_eq!(
        told[1]["text"],
        "Your report “Blue scarf” is approved and visible to everyone."
    );
    assert_eq!(told[1]["itemId"], item["id"]);
    assert_eq!(told[1]["read"], false);
    assert!(told[1]["created_at"].as_str().unwrap().ends_with('Z'));
    let keys: Vec<&String> = told[0].as_object().unwrap().keys().collect();
    assert_eq!(keys.len(), 6, "{keys:?}");
    assert_eq!(notifications(&bob).await, Vec::<Value>::new());
    assert_error(
        &app.client().get("/api/notifications").await,
        StatusCode::UNAUTHORIZED,
        "Login required",
    );

    // Marking read: only one's own; bad lists refused.
    let first = told[1]["id"].clone();
    assert_eq!(
        bob.post("/api/notifications/read", json!({ "ids": [first] })).await,
        (StatusCode::OK, json!({ "ok": true }))
    );
    assert_eq!(notifications(&alice).await[1]["read"], false);
    assert_eq!(
        alice.post("/api/notifications/read", json!({ "ids": [first] })).await,
        (StatusCode::OK, json!({ "ok": true }))
    );
    let told = notifications(&alice).await;
    assert_eq!(
        (told[0]["read"].clone(), told[1]["read"].clone()),
        (json!(false), json!(true))
    );
    for bad in [
        json!({}),
        json!({ "ids": "1" }),
        json!({ "ids": [0] }),
        json!({ "ids": ["1"] }),
        json!({ "ids": (1..=201).collect::<Vec<i64>>() }),
    ] {
        assert_error(
            &alice.post("/api/notifications/read", bad).await,
            StatusCode::BAD_REQUEST,
            "Invalid ids",
        );
    }
    // 200 at most, in one statement: the last of them counts like the first.
    let mut ids: Vec<i64> = (1_000_000..1_000_199).collect();
    ids.push(told[0]["id"].as_i64().unwrap());
    assert_eq!(
        alice.post("/api/notifications/read", json!({ "ids": ids })).await,
        (StatusCode::OK, json!({ "ok": true }))
    );
    assert!(notifications(&alice).await.iter().all(|n| n["read"] == true));
}

/// The race this guards against exists on PostgreSQL only, where concurrent PATCHes run side
/// by side: there it proves the item's row lock. On SQLite, which runs one write at a time,
/// it checks the outcome and proves nothing about concurrency.
#[tokio::test]
async fn the_same_change_made_at_once_tells_the_reporter_once() {
    let app = spawn_app().await;
    let admin = app.logged_in("office", true).await;
    let alice = app.logged_in("alice", false).await;
    let path = item_path(&alice.create_item(near("lost", "Green bottle")).await);
    let answers = futures_util::future::join_all(
        (0..30).map(|_| admin.patch(&path, json!({ "status": "rejected", "storagePlace": "Desk 2" }))),
    )
    .await;
    assert!(
        answers.iter().all(|(status, _)| *status == StatusCode::OK),
        "{answers:?}"
    );
    let told: Vec<Value> = notifications(&alice)
        .await
        .into_iter()
        .map(|n| n["type"].clone())
        .collect();
    assert_eq!(told, [json!("storagePlace"), json!("itemStatus")]);
}

#[tokio::test]
async fn notifications_come_in_pages() {
    let app = spawn_app().await;
    let admin = app.logged_in("office", true).await;
    let alice = app.logged_in("alice", false).await;
    let item = alice.create_item(near("lost", "Keys")).await;
    for n in 0..5 {
        admin
            .patch(&item_path(&item), json!({ "storagePlace": format!("Shelf {n}") }))
            .await;
    }
    let mut seen = Vec::new();
    let mut next = Some("/api/notifications?limit=2".to_owned());
    while let Some(path) = next {
        let answer = alice.send(alice.request(Method::GET, &path)).await;
        assert_eq!(answer.status, StatusCode::OK);
        seen.extend(
            answer
                .body
                .as_array()
                .unwrap()
                .iter()
                .map(|n| n["text"].as_str().unwrap().to_owned()),
        );
        next = answer.headers.get(header::LINK).map(|link| {
            let link = link.to_str().unwrap();
            link[1..link.find('>').unwrap()].to_owned()
        });
    }
    let expected: Vec<String> = (0..5)
        .rev()
        .map(|n| format!("Your report “Keys” is kept at: Shelf {n}."))
        .collect();
    assert_eq!(seen, expected);
    assert_error(
        &alice.get("/api/notifications?limit=0").await,
        StatusCode::BAD_REQUEST,
        "Invalid limit",
    );
    assert_error(
        &alice.get("/api/notifications?limit=201").await,
        StatusCode::BAD_REQUEST,
        "Invalid limit",
    );
    assert_error(
        &alice.get("/api/notifications?before=x").await,
        StatusCode::BAD_REQUEST,
        "Invalid cursor",
    );
}

#[tokio::test]
async fn claims_and_matches_tell_the_right_people() {
    let app = spawn_app().await;
    let admin = app.logged_in("office", true).await;
    let other_admin = app.logged_in("desk", true).await;
    let finder = app.logged_in("finder", false).await;
    let alice = app.logged_in("alice", false).await;
    let bob = app.logged_in("bob", false).await;

    // Alice lost a scarf; when a found scarf nearby is approved, she is told.
    let lost = alice.create_item(near("lost", "Red scarf")).await;
    admin.patch(&item_path(&lost), json!({ "status": "approved" })).await;
    let found = finder.create_item(near("found", "Scarf, red")).await;
    admin.patch(&item_path(&found), json!({ "status": "approved" })).await;
    let told = notifications(&alice).await;
    assert_eq!(told[0]["type"], "match");
    assert_eq!(told[0]["itemId"], found["id"]);
    assert_eq!(told[0]["text"], "A found item “Scarf, red” may be your “Red scarf”.");

    // A claim tells every administrator; deciding tells the claimants.
    let item = found["id"].as_i64().unwrap();
    let (_, alices) = alice
        .post(&format!("/api/items/{item}/claims"), json!({ "message": "Mine" }))
        .await;
    bob.post(&format!("/api/items/{item}/claims"), json!({ "message": "Mine too" }))
        .await;
    for staff in [&admin, &other_admin] {
        let told = notifications(staff).await;
        let claims: Vec<_> = told.iter().filter(|n| n["type"] == "claimReceived").collect();
        assert_eq!(claims.len(), 2, "{told:?}");
        assert!(claims.iter().all(|n| n["text"] == "Someone claims “Scarf, red”."));
        // And, once, the two reports that waited for review.
        let review: Vec<_> = told.iter().filter(|n| n["type"] == "review").collect();
        assert_eq!(review.len(), 1, "{told:?}");
        assert_eq!(review[0]["text"], "2 new reports wait for review.");
    }
    admin
        .patch(
            &format!("/api/claims/{}", alices["id"]),
            json!({ "status": "accepted" }),
        )
        .await;
    assert_eq!(
        notifications(&alice).await[0]["text"],
        "Your claim on “Scarf, red” is accepted: it is ready for pickup at Lost and found office."
    );
    assert_eq!(
        notifications(&bob).await[0]["text"],
        "Your claim on “Scarf, red” was not accepted."
    );
    // Nothing in any of them carries a claim's message.
    for client in [&admin, &alice, &bob, &finder] {
        let (_, _, body) = client.send_raw(client.request(Method::GET, "/api/notifications")).await;
        assert!(!body.contains("Mine"), "{body}");
    }
}

#[tokio::test]
async fn notify_reaches_every_socket_of_that_user_and_no_other() {
    let app = spawn_app().await;
    let admin = app.logged_in("office", true).await;
    let alice = app.logged_in("alice", false).await;
    app.add_user("bob", false).await;
    let alice_cookie = session_cookie(&app, "alice").await;
    let bob_cookie = session_cookie(&app, "bob").await;
    let alice_ws = Sio::connect_with(&app, Transport::Websocket, &[("Cookie", &alice_cookie)]).await;
    let alice_polling = Sio::connect_with(&app, Transport::Polling, &[("Cookie", &alice_cookie)]).await;
    let bob_ws = Sio::connect_with(&app, Transport::Websocket, &[("Cookie", &bob_cookie)]).await;
    let anonymous = Sio::connect(&app, Transport::Websocket).await;

    let item = alice.create_item(near("lost", "Green gloves")).await;
    admin.patch(&item_path(&item), json!({ "status": "rejected" })).await;
    let stored = notifications(&alice).await.remove(0);
    assert_eq!(alice_ws.next("notify").await, stored);
    assert_eq!(alice_polling.next("notify").await, stored);
    // A message through the chat reaches everyone: by then a `notify` would have too.
    alice_ws
        .call("chat:send", json!({ "nick": "A", "text": "barrier" }))
        .await;
    for other in [&bob_ws, &anonymous] {
        other.next("chat:new").await;
        assert_eq!(other.take_all("notify").await, Vec::<Value>::new());
    }
}

/// A reporter who erased their account is told nothing, and their open lost report is closed:
/// reviewing it, and approving an item that matches it, work as for anyone, and nobody is told
/// of a report nobody is left to be reunited with.
#[tokio::test]
async fn an_erased_reporter_is_told_nothing_and_review_goes_on() {
    let app = spawn_app().await;
    let desk = app.logged_in("desk", true).await;
    let carol = app.logged_in("carol", false).await;
    let dave = app.logged_in("dave", false).await;
    let lost = carol
        .create_item(json!({ "title": "Blue wallet", "kind": "lost", "lat": 51.5, "lng": -0.12 }))
        .await;
    let found = dave
        .create_item(json!({ "title": "Blue wallet", "kind": "found", "lat": 51.5, "lng": -0.12 }))
        .await;
    assert!(matches!(
        app.store.erase_account("carol", 0).await.unwrap(),
        lostfound::store::AccountChange::Done(_)
    ));

    // The found item first: approving the lost report then tells its reporter (no more) and
    // the finder.
    let approve = json!({ "status": "approved" });
    let (status, body) = desk
        .patch(&format!("/api/items/{}", found["id"]), approve.clone())
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let (status, body) = desk.patch(&format!("/api/items/{}", lost["id"]), approve).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    // The report is closed: the finder does not hear of it.
    assert!(
        body["closedAt"].is_string()
            || desk.get(&format!("/api/items/{}?fields=closedAt", lost["id"])).await.1["closedAt"].is_string()
    );
    let (_, told) = dave.get("/api/notifications").await;
    assert!(!told.as_array().unwrap().iter().any(|n| n["type"] == "match"), "{told}");
}

/// The thread replies `client` was told of: `(itemId, text)`, newest first.
async fn thread_replies(client: &TestClient) -> Vec<(i64, String)> {
    notifications(client)
        .await
        .into_iter()
        .filter(|n| n["type"] == "threadReply")
        .map(|n| (n["itemId"].as_i64().unwrap(), n["text"].as_str().unwrap().to_owned()))
        .collect()
}

#[tokio::test]
async fn a_reply_in_a_thread_tells_its_reporter_and_those_who_wrote_there_never_the_writer() {
    let app = spawn_app().await;
    let admin = app.logged_in("office", true).await;
    let alice = app.logged_in("alice", false).await;
    let bob = app.logged_in("bob", false).await;
    let carol = app.logged_in("carol", false).await;
    let item = alice.create_item(near("lost", "Blue scarf")).await;
    admin.patch(&item_path(&item), json!({ "status": "approved" })).await;
    let id = item["id"].as_i64().unwrap();
    let said = |nick: &str| (id, format!("{nick} wrote in the thread of “Blue scarf”."));

    // Bob writes: the reporter is told, not Bob.
    write_message(&app, Some("bob"), Some(id), "Bob", "Is it the one with tassels?").await;
    assert_eq!(thread_replies(&alice).await, [said("Bob")]);
    assert_eq!(thread_replies(&bob).await, []);
    // Alice answers: Bob, who wrote there, is told; Alice is not told of her own words.
    write_message(&app, Some("alice"), Some(id), "Alice", "Yes, with tassels").await;
    assert_eq!(thread_replies(&bob).await, [said("Alice")]);
    assert_eq!(thread_replies(&alice).await, [said("Bob")]);
    // Someone not logged in: both are told; Carol, who never wrote there, is told nothing.
    write_message(&app, None, Some(id), "Visitor", "I saw one at the station").await;
    assert_eq!(thread_replies(&alice).await, [said("Visitor"), said("Bob")]);
    assert_eq!(thread_replies(&bob).await, [said("Visitor"), said("Alice")]);
    assert_eq!(thread_replies(&carol).await, []);
    // In the reader's language.
    let (_, korean) = alice.get("/api/notifications?lang=ko").await;
    assert_eq!(korean[0]["text"], "Visitor 님이 “Blue scarf” 스레드에 글을 남겼습니다.");
}
