//! Several desks: staff work at their sites and act on those sites' items only (over HTTP
//! and real-time); bins hold items and name their storage place; transfers move an item with
//! its chain of custody; new reports and claims tell their site's staff; figures per site.

use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::{
    helpers::*,
    sio::{Sio, Transport},
};

const LIBRARY: (f64, f64) = (37.5665, 126.9780);
const GYM: (f64, f64) = (37.5900, 127.0300);
const OTHER_SITE: &str = "This item belongs to another site: only its staff may do that";

/// An office with two desks: site 1 (the library, `lib` works there) and site 2 (the sports
/// centre, `gym` works there), run by the administrator `office`.
struct Desks {
    app: TestApp,
    office: TestClient,
    lib: TestClient,
    gym: TestClient,
}

async fn two_desks() -> Desks {
    let app = spawn_app().await;
    let office = app.logged_in("office", true).await;
    let (status, _) = office
        .patch(
            "/api/sites/1",
            json!({ "name": "Library", "lat": LIBRARY.0, "lng": LIBRARY.1 }),
        )
        .await;
    assert_eq!(status, StatusCode::OK);
    let (status, gym) = office
        .post(
            "/api/sites",
            json!({ "name": "Sports centre", "lat": GYM.0, "lng": GYM.1 }),
        )
        .await;
    assert_eq!((status, &gym["id"]), (StatusCode::CREATED, &json!(2)));
    let lib = app.logged_in("lib", false).await;
    let gym = app.logged_in("gym", false).await;
    for (id, site) in [("lib", 1), ("gym", 2)] {
        let (status, account) = office
            .patch(&format!("/api/users/{id}"), json!({ "sites": [site] }))
            .await;
        assert_eq!(status, StatusCode::OK, "{account}");
        assert_eq!((&account["role"], &account["sites"]), (&json!("staff"), &json!([site])));
    }
    Desks { app, office, lib, gym }
}

fn at(title: &str, (lat, lng): (f64, f64), kind: &str) -> Value {
    json!({ "title": title, "lat": lat, "lng": lng, "kind": kind })
}

async fn notifications_of(client: &TestClient, kind: &str) -> usize {
    let (status, list) = client.get("/api/notifications").await;
    assert_eq!(status, StatusCode::OK, "{list}");
    list.as_array().unwrap().iter().filter(|n| n["type"] == kind).count()
}

#[tokio::test]
async fn staff_act_on_their_own_sites_items_only() {
    let Desks { app, office, lib, gym } = two_desks().await;

    // Staff are reviewers to contract clients; their role and sites are asked apart.
    let (_, me) = gym.get("/api/me").await;
    assert_eq!(me["user"]["isAdmin"], true);
    assert_eq!(me["user"].as_object().unwrap().len(), 3, "the contract's user: {me}");
    assert_eq!(
        gym.get("/api/me/access").await.1,
        json!({ "role": "staff", "sites": [2] })
    );
    assert_eq!(
        office.get("/api/me/access").await.1,
        json!({ "role": "administrator", "sites": [] })
    );
    assert_eq!(app.client().get("/api/me/access").await.0, StatusCode::UNAUTHORIZED);

    // Running the service stays the administrators'.
    assert_error(
        &gym.post("/api/sites", json!({ "name": "Mine" })).await,
        StatusCode::FORBIDDEN,
        "Admin privileges required",
    );
    assert_eq!(gym.get("/api/users").await.0, StatusCode::FORBIDDEN);
    // A site that does not exist is refused, and the account keeps its sites.
    let (status, error) = office.patch("/api/users/gym", json!({ "sites": [2, 99] })).await;
    assert_eq!(
        (status, &error["error"]),
        (StatusCode::BAD_REQUEST, &json!("Invalid site"))
    );
    assert_eq!(gym.get("/api/me/access").await.1["sites"], json!([2]));

    // A member's report near the sports centre is the sports centre's to review.
    let alice = app.logged_in("alice", false).await;
    let umbrella = alice.create_item(at("Green umbrella", GYM, "found")).await;
    let path = item_path(&umbrella);
    let (_, read) = lib.get(&format!("{path}?fields=id,status,siteId")).await;
    assert_eq!(
        (&read["status"], &read["siteId"]),
        (&json!("pending"), &json!(2)),
        "staff read every site's"
    );
    let approve = json!({ "status": "approved" });
    assert_error(
        &lib.patch(&path, approve.clone()).await,
        StatusCode::FORBIDDEN,
        OTHER_SITE,
    );
    assert_error(
        &lib.post(&format!("{path}/disposal"), json!({ "method": "donated" }))
            .await,
        StatusCode::FORBIDDEN,
        OTHER_SITE,
    );
    assert_error(&lib.delete(&path).await, StatusCode::FORBIDDEN, OTHER_SITE);
    assert_eq!(
        lib.get(&format!("{path}?fields=status")).await.1["status"],
        "pending",
        "nothing changed"
    );
    assert_eq!(gym.patch(&path, approve.clone()).await.0, StatusCode::OK);

    // Claims on it are decided there too.
    let bob = app.logged_in("bob", false).await;
    let (status, claim) = bob
        .post(&format!("{path}/claims"), json!({ "message": "Mine, with a dent" }))
        .await;
    assert_eq!(status, StatusCode::OK, "{claim}");
    let decide = format!("/api/claims/{}", claim["id"]);
    assert_error(
        &lib.patch(&decide, json!({ "status": "accepted" })).await,
        StatusCode::FORBIDDEN,
        OTHER_SITE,
    );
    assert_eq!(bob.get("/api/claims").await.1[0]["status"], "open");
    let (status, decided) = gym.patch(&decide, json!({ "status": "accepted" })).await;
    assert_eq!((status, &decided["status"]), (StatusCode::OK, &json!("accepted")));
    // And handed over there.
    let handover = json!({ "idChecked": "Student card" });
    assert_error(
        &lib.post(&format!("{decide}/handover"), handover.clone()).await,
        StatusCode::FORBIDDEN,
        OTHER_SITE,
    );
    let (status, collected) = gym.post(&format!("{decide}/handover"), handover).await;
    assert_eq!((status, &collected["status"]), (StatusCode::OK, &json!("collected")));

    // Staff take in at their own desks: near the sports centre, the library's staff log it
    // at the library; another site named is refused, an unknown one is bad input.
    let (status, taken) = lib
        .post(
            "/api/items?fields=id,siteId,status",
            json!({ "title": "Keys", "lat": GYM.0, "lng": GYM.1, "kind": "found", "status": "approved" }),
        )
        .await;
    assert_eq!(
        (status, &taken["siteId"], &taken["status"]),
        (StatusCode::OK, &json!(1), &json!("approved"))
    );
    let before = app.item_count().await;
    let elsewhere = json!({ "title": "Cap", "lat": 1.0, "lng": 1.0, "kind": "found", "siteId": 2 });
    assert_error(
        &lib.post("/api/items", elsewhere).await,
        StatusCode::FORBIDDEN,
        OTHER_SITE,
    );
    for site in [json!(99), json!("2"), json!(0)] {
        let body = json!({ "title": "Cap", "lat": 1.0, "lng": 1.0, "kind": "found", "siteId": site });
        let (status, error) = alice.post("/api/items", body).await;
        assert_eq!(
            (status, &error["error"]),
            (StatusCode::BAD_REQUEST, &json!("Invalid site")),
            "{site}"
        );
    }
    assert_eq!(app.item_count().await, before, "nothing refused was stored");
    // A report logged already approved is the logger's desk's, wherever it was lost: staff
    // review no other site's reports by writing them.
    let (_, logged) = lib
        .post(
            "/api/items?fields=siteId,status",
            json!({ "title": "Lost scarf", "lat": GYM.0, "lng": GYM.1, "kind": "lost", "status": "approved" }),
        )
        .await;
    assert_eq!((&logged["siteId"], &logged["status"]), (&json!(1), &json!("approved")));
    let lost_elsewhere = json!({ "title": "Hat", "lat": 1.0, "lng": 1.0, "status": "approved", "siteId": 2 });
    assert_error(
        &lib.post("/api/items", lost_elsewhere).await,
        StatusCode::FORBIDDEN,
        OTHER_SITE,
    );
    // A member hands a found item in at the desk they choose.
    let (_, chosen) = alice
        .post(
            "/api/items?fields=siteId",
            json!({ "title": "Scarf", "lat": GYM.0, "lng": GYM.1, "kind": "found", "siteId": 1 }),
        )
        .await;
    assert_eq!(chosen["siteId"], 1);

    // An administrator acts anywhere; staff no longer at a site act there no more.
    assert_eq!(
        office.patch(&path, json!({ "storagePlace": "Desk" })).await.0,
        StatusCode::OK
    );
    office.patch("/api/users/gym", json!({ "sites": [] })).await;
    assert_eq!(
        gym.get("/api/me/access").await.1,
        json!({ "role": "member", "sites": [] })
    );
    assert_error(
        &gym.patch(&path, approve).await,
        StatusCode::FORBIDDEN,
        "Admin privileges required",
    );
}

#[tokio::test]
async fn in_an_items_thread_only_its_sites_staff_speak_for_the_desk() {
    let Desks { app, lib, gym, .. } = two_desks().await;
    let gym_item = gym.create_item(at("Racket", GYM, "found")).await;
    let lib_item = lib.create_item(at("Book", LIBRARY, "found")).await;
    let socket = Sio::connect_to(
        &app.url("/"),
        Transport::Websocket,
        &[("Cookie", &session_cookie(&app, "gym").await)],
    )
    .await;
    let nick = "Name of gym";
    let said = |item: &Value| json!({ "itemId": item["id"], "nick": nick, "text": "At the desk" });
    assert_eq!(socket.call("thread:send", said(&gym_item)).await, json!({ "ok": true }));
    assert_eq!(
        socket.call("thread:send", said(&lib_item)).await,
        json!({ "ok": false, "error": "That name belongs to staff: choose another" })
    );
    // The chat is every desk's.
    let ack = socket.call("chat:send", json!({ "nick": nick, "text": "Hello" })).await;
    assert_eq!(ack, json!({ "ok": true }));
}

#[tokio::test]
async fn bins_hold_items_and_name_their_storage_place() {
    let Desks { app, lib, gym, .. } = two_desks().await;
    let (status, shelf) = lib
        .post("/api/sites/1/bins", json!({ "code": "A-1", "name": "Shelf A, top" }))
        .await;
    assert_eq!(status, StatusCode::CREATED, "{shelf}");
    assert_eq!(shelf["siteId"], 1);
    let (_, safe) = lib.post("/api/sites/1/bins", json!({ "code": "SAFE" })).await;
    assert_eq!(safe["name"], "SAFE", "named after its code");
    assert_error(
        &lib.post("/api/sites/1/bins", json!({ "code": "a-1" })).await,
        StatusCode::CONFLICT,
        "A bin of the site has that code",
    );
    assert_error(
        &gym.post("/api/sites/1/bins", json!({ "code": "G" })).await,
        StatusCode::FORBIDDEN,
        OTHER_SITE,
    );
    assert_eq!(
        lib.post("/api/sites/9/bins", json!({ "code": "G" })).await.0,
        StatusCode::NOT_FOUND
    );
    assert_error(
        &lib.post("/api/sites/1/bins", json!({ "code": "A 1" })).await,
        StatusCode::BAD_REQUEST,
        "code must be 1 to 32 letters, digits, -, _, . or /",
    );
    let (_, gym_bin) = gym.post("/api/sites/2/bins", json!({ "code": "G-1" })).await;
    let (_, bins) = gym.get("/api/sites/1/bins").await;
    assert_eq!(
        bins.as_array().unwrap().len(),
        2,
        "staff read every site's bins: {bins}"
    );

    // Taken in straight into a bin: its name is the storage place; the bin is for staff.
    let fields = "fields=id,storagePlace,binId";
    let (status, wallet) = lib
        .post(
            &format!("/api/items?{fields}"),
            json!({ "title": "Wallet", "lat": LIBRARY.0, "lng": LIBRARY.1, "kind": "found",
                    "status": "approved", "binId": shelf["id"] }),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{wallet}");
    assert_eq!(
        (&wallet["storagePlace"], &wallet["binId"]),
        (&json!("Shelf A, top"), &shelf["id"])
    );
    let path = item_path(&wallet);
    let (_, public) = app.client().get(&format!("{path}?{fields}")).await;
    assert_eq!(public.get("binId"), None, "{public}");
    let (_, held) = lib.get(&format!("/api/items?bin={}&fields=id", shelf["id"])).await;
    assert_eq!(held, json!([{ "id": wallet["id"] }]));
    assert_eq!(
        app.client().get(&format!("/api/items?bin={}", shelf["id"])).await.0,
        StatusCode::UNAUTHORIZED
    );

    // One click moves it, recorded; another site's bin is refused and nothing moves.
    let (_, moved) = lib
        .patch(&format!("{path}?{fields}"), json!({ "binId": safe["id"] }))
        .await;
    assert_eq!((&moved["storagePlace"], &moved["binId"]), (&json!("SAFE"), &safe["id"]));
    let (status, error) = lib.patch(&path, json!({ "binId": gym_bin["id"] })).await;
    assert_eq!(
        (status, &error["error"]),
        (StatusCode::BAD_REQUEST, &json!("Invalid bin"))
    );
    let (_, history) = lib.get(&format!("{path}/history")).await;
    let last = &history.as_array().unwrap().last().unwrap()["change"];
    assert_eq!(last, &json!({ "storagePlace": "SAFE", "binId": safe["id"] }));

    // A renamed bin renames its items' storage place, searched by its new name.
    let (status, renamed) = lib
        .patch(
            &format!("/api/bins/{}", safe["id"]),
            json!({ "name": "Safe, drawer 2" }),
        )
        .await;
    assert_eq!((status, &renamed["code"]), (StatusCode::OK, &json!("SAFE")));
    assert_eq!(
        lib.get(&format!("{path}?{fields}")).await.1["storagePlace"],
        "Safe, drawer 2"
    );
    let (_, found) = lib.get("/api/items?q=drawer&fields=id").await;
    assert_eq!(found, json!([{ "id": wallet["id"] }]));

    // A bin that holds something stays; a storage place in words takes the item out.
    assert_error(
        &lib.delete(&format!("/api/bins/{}", safe["id"])).await,
        StatusCode::CONFLICT,
        "The bin holds items: move them first",
    );
    let (_, words) = lib
        .patch(&format!("{path}?{fields}"), json!({ "storagePlace": "Front desk" }))
        .await;
    assert_eq!(words["binId"], Value::Null);
    assert_eq!(lib.delete(&format!("/api/bins/{}", safe["id"])).await.0, StatusCode::OK);
    assert_eq!(
        lib.get(&format!("/api/bins/{}", safe["id"])).await.0,
        StatusCode::NOT_FOUND
    );
}

#[tokio::test]
async fn a_transfer_moves_an_item_with_its_chain_of_custody() {
    let Desks { app, office, lib, gym } = two_desks().await;
    let (_, gym_bin) = gym
        .post("/api/sites/2/bins", json!({ "code": "G-1", "name": "Gym shelf" }))
        .await;
    let (_, lib_bin) = lib.post("/api/sites/1/bins", json!({ "code": "L-1" })).await;
    let (_, phone) = lib
        .post(
            "/api/items",
            json!({ "title": "Phone", "lat": LIBRARY.0, "lng": LIBRARY.1, "kind": "found",
                    "status": "approved", "binId": lib_bin["id"] }),
        )
        .await;
    let path = item_path(&phone);
    let fields = "fields=id,siteId,transitTo,storagePlace,binId";

    // Bad transfers change nothing.
    for (body, status, message) in [
        (json!({ "to": 99 }), StatusCode::BAD_REQUEST, "Invalid site"),
        (json!({}), StatusCode::BAD_REQUEST, "Invalid site"),
        (
            json!({ "to": 1 }),
            StatusCode::BAD_REQUEST,
            "The item is at that site already",
        ),
    ] {
        assert_error(&lib.post(&format!("{path}/transfer"), body).await, status, message);
    }
    assert_error(
        &gym.post(&format!("{path}/transfer"), json!({ "to": 2 })).await,
        StatusCode::FORBIDDEN,
        OTHER_SITE,
    );
    let pending = app
        .logged_in("alice", false)
        .await
        .create_item(at("Hat", LIBRARY, "found"))
        .await;
    assert_error(
        &lib.post(&format!("{}/transfer", item_path(&pending)), json!({ "to": 2 }))
            .await,
        StatusCode::BAD_REQUEST,
        "Only an approved found item still held can be sent",
    );

    let (status, sent) = lib
        .post(
            &format!("{path}/transfer?{fields}"),
            json!({ "to": 2, "note": "Owner studies at the gym" }),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{sent}");
    assert_eq!(
        sent,
        json!({ "id": phone["id"], "siteId": 1, "transitTo": 2, "storagePlace": null, "binId": null })
    );
    // Listed at both ends.
    let ids = |list: &Value| {
        list.as_array()
            .unwrap()
            .iter()
            .map(|i| i["id"].clone())
            .collect::<Vec<_>>()
    };
    let (_, at_lib) = gym.get("/api/sites/1/transfers?fields=id").await;
    let (_, at_gym) = gym.get("/api/sites/2/transfers?fields=id").await;
    assert_eq!(
        (ids(&at_lib["outgoing"]), ids(&at_lib["incoming"])),
        (vec![phone["id"].clone()], vec![])
    );
    assert_eq!(
        (ids(&at_gym["incoming"]), ids(&at_gym["outgoing"])),
        (vec![phone["id"].clone()], vec![])
    );

    // The site it travels to stays while it does.
    assert_error(
        &office.delete("/api/sites/2").await,
        StatusCode::CONFLICT,
        "The site holds items: move them to another site first",
    );
    // On its way, it is neither sent again, disposed of, nor received by the sender.
    assert_error(
        &lib.post(&format!("{path}/transfer"), json!({ "to": 2 })).await,
        StatusCode::CONFLICT,
        "Item is in transit",
    );
    assert_error(
        &lib.post(&format!("{path}/disposal"), json!({ "method": "donated" }))
            .await,
        StatusCode::CONFLICT,
        "Item is in transit",
    );
    assert_error(
        &lib.post(&format!("{path}/receive"), json!({})).await,
        StatusCode::CONFLICT,
        "Item is not in transit to your site",
    );
    let (status, error) = gym
        .post(&format!("{path}/receive"), json!({ "binId": lib_bin["id"] }))
        .await;
    assert_eq!(
        (status, &error["error"]),
        (StatusCode::BAD_REQUEST, &json!("Invalid bin"))
    );

    let (status, received) = gym
        .post(&format!("{path}/receive?{fields}"), json!({ "binId": gym_bin["id"] }))
        .await;
    assert_eq!(status, StatusCode::OK, "{received}");
    assert_eq!(
        received,
        json!({ "id": phone["id"], "siteId": 2, "transitTo": null, "storagePlace": "Gym shelf", "binId": gym_bin["id"] })
    );
    assert_error(
        &gym.post(&format!("{path}/receive"), json!({})).await,
        StatusCode::CONFLICT,
        "Item is not in transit to your site",
    );
    assert_eq!(
        gym.get("/api/sites/2/transfers").await.1,
        json!({ "incoming": [], "outgoing": [] })
    );

    // Each hand is in its history: who, when, from, to.
    let (_, history) = office.get(&format!("{path}/history")).await;
    let hands: Vec<(Value, Value)> = history
        .as_array()
        .unwrap()
        .iter()
        .filter(|entry| entry["change"].get("sent").is_some() || entry["change"].get("received").is_some())
        .map(|entry| (entry["by"].clone(), entry["change"].clone()))
        .collect();
    assert_eq!(
        hands,
        [
            (
                json!("lib"),
                json!({ "sent": { "from": 1, "to": 2, "note": "Owner studies at the gym" } })
            ),
            (
                json!("gym"),
                json!({ "received": { "from": 1, "at": 2, "binId": gym_bin["id"] } })
            ),
        ]
    );
    // A site that holds nothing goes, with its empty bins.
    let (_, halls) = office.post("/api/sites", json!({ "name": "Halls" })).await;
    let (_, shelf) = office
        .post(&format!("/api/sites/{}/bins", halls["id"]), json!({ "code": "H-1" }))
        .await;
    assert_eq!(
        office.delete(&format!("/api/sites/{}", halls["id"])).await.0,
        StatusCode::OK
    );
    assert_eq!(
        office.get(&format!("/api/bins/{}", shelf["id"])).await.0,
        StatusCode::NOT_FOUND
    );
    // Now the sports centre's: the library's staff act on it no more.
    assert_error(
        &lib.post(&format!("{path}/disposal"), json!({ "method": "donated" }))
            .await,
        StatusCode::FORBIDDEN,
        OTHER_SITE,
    );
}

#[tokio::test]
async fn new_reports_and_claims_tell_their_sites_staff_and_figures_count_per_site() {
    let Desks { app, office, lib, gym } = two_desks().await;
    let (_, hall) = office
        .post("/api/sites", json!({ "name": "Halls", "lat": 10.0, "lng": 10.0 }))
        .await;
    assert_eq!(hall["id"], 3);
    let alice = app.logged_in("alice", false).await;

    let lost = alice.create_item(at("Blue backpack", GYM, "lost")).await;
    let (_, lost) = gym.get(&format!("{}?fields=siteId", item_path(&lost))).await;
    assert_eq!(lost["siteId"], 2, "a lost report goes to the site whose area it is in");
    assert_eq!(
        (
            notifications_of(&gym, "review").await,
            notifications_of(&lib, "review").await
        ),
        (1, 0)
    );
    assert_eq!(
        notifications_of(&office, "review").await,
        0,
        "the sports centre has its staff"
    );
    // A site nobody works at is the administrators'.
    alice.create_item(at("Red scarf", (10.0, 10.0), "lost")).await;
    assert_eq!(notifications_of(&office, "review").await, 1);
    assert_eq!(
        (
            notifications_of(&gym, "review").await,
            notifications_of(&lib, "review").await
        ),
        (1, 0)
    );

    let (_, found) = lib
        .post(
            "/api/items",
            json!({ "title": "Umbrella", "lat": LIBRARY.0, "lng": LIBRARY.1, "kind": "found", "status": "approved" }),
        )
        .await;
    let bob = app.logged_in("bob", false).await;
    bob.post(&format!("{}/claims", item_path(&found)), json!({ "message": "Mine" }))
        .await;
    assert_eq!(
        (
            notifications_of(&lib, "claimReceived").await,
            notifications_of(&gym, "claimReceived").await
        ),
        (1, 0)
    );
    // Each desk's claims, and every desk's.
    let claims_at = async |site: &str| {
        let (status, claims) = lib.get(&format!("/api/claims?status=open{site}")).await;
        assert_eq!(status, StatusCode::OK, "{claims}");
        claims
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c["itemId"].clone())
            .collect::<Vec<_>>()
    };
    assert_eq!(claims_at("&site=1").await, [found["id"].clone()]);
    assert_eq!(claims_at("&site=2").await, Vec::<Value>::new());
    assert_eq!(claims_at("").await, [found["id"].clone()]);
    let (status, error) = lib.get("/api/claims?site=0").await;
    assert_eq!(
        (status, &error["error"]),
        (StatusCode::BAD_REQUEST, &json!("Invalid site"))
    );

    // Figures for one site, and for all.
    let (_, all) = office.get("/api/stats").await;
    let (_, at_gym) = gym.get("/api/stats?site=2").await;
    assert_eq!((&all["reports"]["total"], &all["site"]), (&json!(3), &Value::Null));
    assert_eq!((&at_gym["reports"]["total"], &at_gym["site"]), (&json!(1), &json!(2)));
    assert_eq!(at_gym["reports"]["lost"], 1, "{at_gym}");
    let (status, error) = gym.get("/api/stats?site=x").await;
    assert_eq!(
        (status, &error["error"]),
        (StatusCode::BAD_REQUEST, &json!("Invalid site"))
    );
}

#[tokio::test]
async fn a_site_keeps_found_items_for_its_own_period() {
    let Desks { app, office, lib, gym } = two_desks().await;
    let (status, site) = office.patch("/api/sites/2", json!({ "holdDays": 7 })).await;
    assert_eq!((status, &site["holdDays"]), (StatusCode::OK, &json!(7)));
    assert_error(
        &office.patch("/api/sites/2", json!({ "holdDays": -1 })).await,
        StatusCode::BAD_REQUEST,
        "holdDays must be 0 to 3650 days",
    );
    let take_in = |title: &str, (lat, lng): (f64, f64)| json!({ "title": title, "lat": lat, "lng": lng, "kind": "found", "status": "approved" });
    let (_, towel) = gym.post("/api/items?fields=id", take_in("Towel", GYM)).await;
    let (_, book) = lib.post("/api/items?fields=id", take_in("Book", LIBRARY)).await;
    let until = |item: &Value| format!("/api/items/{}?fields=holdUntil", item["id"]);
    let (towel_until, book_until) = (office.get(&until(&towel)).await.1, office.get(&until(&book)).await.1);
    assert!(
        towel_until["holdUntil"].as_str() < book_until["holdUntil"].as_str(),
        "{towel_until} {book_until}"
    );
    // Eight days on, the sports centre's is due and the library's (90 days) is not.
    for item in [&towel, &book] {
        moved_back(&app, item["id"].as_i64().unwrap(), 8).await;
    }
    let (_, due) = office.get("/api/items?due=true&fields=id").await;
    assert_eq!(due, json!([{ "id": towel["id"] }]));
    // Its own period stands for the service's; back to the service's, nothing is due, and its
    // items (their answers kept) say so at once.
    office.patch("/api/sites/2", json!({ "holdDays": null })).await;
    assert_eq!(office.get("/api/items?due=true&fields=id").await.1, json!([]));
    let later = office.get(&until(&towel)).await.1;
    assert!(
        later["holdUntil"].as_str() > towel_until["holdUntil"].as_str(),
        "{later}"
    );
}
