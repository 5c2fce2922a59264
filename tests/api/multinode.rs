//! Several nodes: two `lostfound` processes sharing one PostgreSQL database and one Redis,
//! with clients on different nodes — and a node, Redis and PostgreSQL failing under them.
//! These need PostgreSQL (`TEST_DATABASE_URL`) and `redis-server`.

use std::{net::SocketAddr, time::Duration};

use reqwest::{StatusCode, Url};
use serde_json::{Value, json};
use sqlx::{Connection, PgConnection};

use crate::{
    cli::command_on,
    faults::{RedisServer, Relay},
    helpers::*,
    node::Server,
    oidc::{Provider, browser, sign_on},
    sio::{Sio, Transport},
};

/// A PostgreSQL database of its own, with accounts, and Redis for two nodes.
struct Cluster {
    db: TestDb,
    redis: RedisServer,
}

impl Cluster {
    async fn new() -> Self {
        let db = TestDb::new().await;
        assert!(
            db.url().starts_with("postgres"),
            "multi-node tests need TEST_DATABASE_URL (PostgreSQL)"
        );
        let store = lostfound::store::Store::connect(db.url(), lostfound::store::Create::IfMissing)
            .await
            .unwrap();
        let passwords = lostfound::auth::Passwords::new().await.unwrap();
        for (id, admin) in [("alice", false), ("admin", true), ("chief", true)] {
            create_account(&store, &passwords, id, id, admin, &password_of(id)).await;
        }
        store.close().await;
        Self {
            db,
            redis: RedisServer::start().await,
        }
    }

    async fn node(&self) -> Server {
        self.node_with(&[]).await
    }

    /// A node with more settings, `env`.
    async fn node_with(&self, env: &[(&str, &str)]) -> Server {
        let redis = self.redis.url();
        let env: Vec<_> = [("REDIS_URL", redis.as_str())]
            .into_iter()
            .chain(env.iter().copied())
            .collect();
        Server::start_with(self.db.url(), &env, &[]).await
    }

    /// A node reaching the database at `database_url` (e.g. through a relay).
    async fn node_on(&self, database_url: &str) -> Server {
        Server::start_with(database_url, &[("REDIS_URL", &self.redis.url())], &[]).await
    }
}

/// A socket on `node` logged in as `id`, asking for each message's id and sender.
async fn socket_of(node: &Server, id: &str) -> Sio {
    let cookie = format!("sid={}", node.client().login_answer(id, &password_of(id)).await.sid());
    Sio::connect_asking_ids(&node.url, Transport::Websocket, &[("Cookie", &cookie)]).await
}

/// Sends a chat message from `from` and waits until `to` has it (each event within 10 s).
async fn chat_reaches(from: &Sio, to: &Sio, text: &str) {
    assert_eq!(
        from.call("chat:send", json!({ "text": text })).await,
        json!({ "ok": true })
    );
    while to.next("chat:new").await["text"] != text {}
}

/// Sends numbered chat messages from `from` until one of them reaches `to`: those sent before
/// the nodes are linked again are lost, and a late one counts too.
async fn chat_reaches_again(what: &str, from: &Sio, to: &Sio, prefix: &str) {
    let mut n = 0;
    eventually(what, Duration::from_secs(20), async || {
        n += 1;
        let text = format!("{prefix} {n}");
        assert_eq!(
            from.call("chat:send", json!({ "text": text })).await,
            json!({ "ok": true })
        );
        let arrived = to.take_all("chat:new").await;
        arrived
            .iter()
            .any(|m| m["text"].as_str().is_some_and(|t| t.starts_with(prefix)))
    })
    .await;
}

#[tokio::test]
async fn sessions_throttle_chat_and_threads_cross_nodes() {
    let cluster = Cluster::new().await;
    let (a, b) = (cluster.node().await, cluster.node().await);

    // A login on one node is valid on the other; a logout on the other ends it everywhere.
    let on_a = a.client();
    assert_eq!(on_a.login("alice", &password_of("alice")).await.0, StatusCode::OK);
    let on_b = TestClient {
        http: on_a.http.clone(),
        base: b.url.clone(),
    };
    assert_eq!(on_b.get("/api/me").await.1["user"]["id"], "alice");
    assert_eq!(on_b.post("/api/logout", json!({})).await.0, StatusCode::OK);
    assert_eq!(on_a.get("/api/me").await.1, json!({ "user": null }));

    // The login throttle counts attempts made on either node.
    let (guess_a, guess_b) = (a.client(), b.client());
    for n in 0..5 {
        let guesser = if n % 2 == 0 { &guess_a } else { &guess_b };
        assert_eq!(
            guesser.login("admin", "wrong-password").await.0,
            StatusCode::UNAUTHORIZED
        );
    }
    assert_eq!(
        guess_b.login("admin", &password_of("admin")).await.0,
        StatusCode::TOO_MANY_REQUESTS
    );

    // An item reported on A is read on B; its thread is shared.
    assert_eq!(on_a.login("alice", &password_of("alice")).await.0, StatusCode::OK);
    let item = on_a.create_item(item_body("Green umbrella")).await;
    let item_id = item["id"].as_i64().unwrap();
    assert_eq!(on_b.get(&item_path(&item)).await.1, item);

    let sender = Sio::connect_to(&a.url, Transport::Websocket, &[]).await;
    let member = Sio::connect_to(&b.url, Transport::Polling, &[]).await;
    let outsider = Sio::connect_to(&b.url, Transport::Websocket, &[]).await;

    assert_eq!(
        sender
            .call("chat:send", json!({ "nick": "A", "text": "from node A" }))
            .await,
        json!({ "ok": true })
    );
    for client in [&member, &outsider, &sender] {
        assert_eq!(client.next("chat:new").await["text"], "from node A");
    }
    assert_eq!(
        member
            .call("chat:send", json!({ "nick": "B", "text": "from node B" }))
            .await,
        json!({ "ok": true })
    );
    assert_eq!(sender.next("chat:new").await["text"], "from node B");

    assert_eq!(
        member.call("thread:join", json!({ "itemId": item_id })).await,
        json!({ "ok": true })
    );
    member.next("thread:history").await;
    let thread_message = json!({ "itemId": item_id, "nick": "A", "text": "I think it is mine" });
    assert_eq!(sender.call("thread:send", thread_message).await, json!({ "ok": true }));
    assert_eq!(member.next("thread:new").await["msg"]["text"], "I think it is mine");
    assert_eq!(sender.next("thread:new").await["msg"]["text"], "I think it is mine");
    // The outsider on B gets the chat message sent after it, but never the thread message.
    sender.call("chat:send", json!({ "text": "barrier" })).await;
    assert_eq!(outsider.next("chat:new").await["text"], "from node B");
    assert_eq!(outsider.next("chat:new").await["text"], "barrier");
    assert!(outsider.take_all("thread:new").await.is_empty());

    // History comes from the shared database, whichever node is asked.
    let late = Sio::connect_to(&b.url, Transport::Websocket, &[]).await;
    late.emit("thread:join", json!({ "itemId": item_id })).await;
    assert_eq!(
        late.next("thread:history").await["msgs"][0]["text"],
        "I think it is mine"
    );
}

#[tokio::test]
async fn when_a_node_dies_the_other_serves_on_and_it_rejoins() {
    let cluster = Cluster::new().await;
    let (a, b) = (cluster.node().await, cluster.node().await);
    let on_b = b.client();
    on_b.login("alice", &password_of("alice")).await;
    let item = on_b.create_item(item_body("Blue scarf")).await;

    let (status, _, _) = b.signal("-KILL").await;
    assert_eq!(status.code(), None, "killed by a signal");

    // A serves HTTP and real-time as before; what B acknowledged is there.
    let on_a = a.client();
    assert_eq!(on_a.get(&item_path(&item)).await.1, in_public_view(&item));
    let (a1, a2) = (
        Sio::connect_to(&a.url, Transport::Websocket, &[]).await,
        Sio::connect_to(&a.url, Transport::Polling, &[]).await,
    );
    chat_reaches(&a1, &a2, "still here").await;

    // A new B joins the cluster again.
    let b = cluster.node().await;
    let b1 = Sio::connect_to(&b.url, Transport::Websocket, &[]).await;
    chat_reaches(&a1, &b1, "welcome back").await;
    chat_reaches(&b1, &a2, "thanks").await;
}

#[tokio::test]
async fn when_redis_restarts_nodes_serve_on_and_cross_node_delivery_resumes() {
    let mut cluster = Cluster::new().await;
    let (a, b) = (cluster.node().await, cluster.node().await);
    let (a1, a2) = (
        Sio::connect_to(&a.url, Transport::Websocket, &[]).await,
        Sio::connect_to(&a.url, Transport::Polling, &[]).await,
    );
    let b1 = Sio::connect_to(&b.url, Transport::Websocket, &[]).await;
    chat_reaches(&a1, &b1, "before").await;
    assert_eq!(a.client().get("/readyz").await.0, StatusCode::OK);

    cluster.redis.stop().await;
    // HTTP and this node's own real-time keep working; readiness says Redis is down.
    let (status, items) = a.client().get("/api/items").await;
    assert_eq!((status, items.is_array()), (StatusCode::OK, true));
    chat_reaches(&a1, &a2, "during the outage").await;
    let (status, ready) = a.client().get("/readyz").await;
    assert_eq!(
        (status, &ready["redis"]),
        (StatusCode::SERVICE_UNAVAILABLE, &json!("down"))
    );

    cluster.redis.restart().await;
    chat_reaches_again("A reaches B again", &a1, &b1, "a-to-b").await;
    chat_reaches_again("B reaches A again", &b1, &a2, "b-to-a").await;
    assert_eq!(a.client().get("/readyz").await.0, StatusCode::OK);
    // Everything sent, during the outage too, is in the shared history.
    let reader = Sio::connect_to(&b.url, Transport::Websocket, &[]).await;
    reader.emit("chat:join", json!({})).await;
    let history = reader.next("chat:history").await;
    assert!(
        history
            .as_array()
            .unwrap()
            .iter()
            .any(|m| m["text"] == "during the outage")
    );
}

#[tokio::test]
async fn when_postgres_is_briefly_unreachable_requests_fail_cleanly_then_succeed() {
    let cluster = Cluster::new().await;
    let mut url = Url::parse(cluster.db.url()).unwrap();
    let target: SocketAddr = format!("{}:{}", url.host_str().unwrap(), url.port().unwrap_or(5432))
        .parse()
        .unwrap();
    let relay = Relay::start(target).await;
    url.set_port(Some(relay.port)).unwrap();
    let node = cluster.node_on(url.as_str()).await;

    let client = node.client();
    client.login("alice", &password_of("alice")).await;
    let kept = client.create_item(item_body("Before the outage")).await;
    let socket = Sio::connect_to(&node.url, Transport::Websocket, &[]).await;

    relay.cut();
    let (status, body) = client.get("/api/items").await;
    assert_eq!(
        (status, body),
        (
            StatusCode::SERVICE_UNAVAILABLE,
            json!({ "error": "Service temporarily unavailable" })
        )
    );
    let (status, body) = client.post("/api/items", item_body("During the outage")).await;
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE, "{body}");
    assert_eq!(client.get("/readyz").await.0, StatusCode::SERVICE_UNAVAILABLE);
    let ack = socket.call("chat:send", json!({ "text": "lost?" })).await;
    assert_eq!(ack, json!({ "ok": false, "error": "Service temporarily unavailable" }));
    assert_eq!(
        socket.next("error").await,
        json!({ "message": "Service temporarily unavailable" })
    );

    relay.restore();
    let mut listed = Value::Null;
    eventually("the node serves again", Duration::from_secs(20), async || {
        let (status, body) = client.get("/api/items").await;
        listed = body;
        status == StatusCode::OK
    })
    .await;
    // What was acknowledged is there; what was refused is not.
    assert_eq!(listed, json!([kept]));
    assert_eq!(
        client.post("/api/items", item_body("After the outage")).await.0,
        StatusCode::OK
    );
    assert_eq!(
        socket.call("chat:send", json!({ "text": "back" })).await,
        json!({ "ok": true })
    );
}

#[tokio::test]
async fn a_notification_made_on_one_node_reaches_its_user_on_the_other() {
    let cluster = Cluster::new().await;
    let (a, b) = (cluster.node().await, cluster.node().await);
    let alice = b.client();
    let cookie = format!("sid={}", alice.login_answer("alice", &password_of("alice")).await.sid());
    let item = alice.create_item(item_body("Silver ring")).await;
    let on_b = Sio::connect_to(&b.url, Transport::Websocket, &[("Cookie", &cookie)]).await;

    let staff = a.client();
    assert_eq!(staff.login("admin", &password_of("admin")).await.0, StatusCode::OK);
    let (status, _) = staff.patch(&item_path(&item), json!({ "status": "approved" })).await;
    assert_eq!(status, StatusCode::OK);
    let pushed = on_b.next("notify").await;
    assert_eq!(pushed["type"], "itemStatus");
    assert_eq!(pushed["itemId"], item["id"]);
    assert_eq!(alice.get("/api/notifications").await.1[0], pushed);
}

#[tokio::test]
async fn disabling_an_account_on_one_node_makes_its_sockets_on_the_other_anonymous() {
    let cluster = Cluster::new().await;
    let (a, b) = (cluster.node().await, cluster.node().await);
    let cookie = format!(
        "sid={}",
        b.client().login_answer("alice", &password_of("alice")).await.sid()
    );
    let on_b = Sio::connect_asking_ids(&b.url, Transport::Websocket, &[("Cookie", &cookie)]).await;
    // Someone else's socket on the same node, which must stay as it is.
    let staff_cookie = format!(
        "sid={}",
        b.client().login_answer("admin", &password_of("admin")).await.sid()
    );
    let bystander = Sio::connect_asking_ids(&b.url, Transport::Websocket, &[("Cookie", &staff_cookie)]).await;
    assert_eq!(on_b.speaks_for().await["id"], "alice");

    let staff = a.client();
    assert_eq!(staff.login("admin", &password_of("admin")).await.0, StatusCode::OK);
    let (status, _) = staff.patch("/api/users/alice", json!({ "disabled": true })).await;
    assert_eq!(status, StatusCode::OK);
    let took = eventually(
        "alice's socket on the other node is anonymous",
        Duration::from_secs(5),
        async || on_b.speaks_for().await.is_null(),
    )
    .await;
    eprintln!("disabled on one node: anonymous on the other {took:?} later");
    assert_eq!(bystander.speaks_for().await["id"], "admin");
    assert!(bystander.take_all("disconnect").await.is_empty());
}

#[tokio::test]
async fn a_password_set_from_the_command_line_makes_the_accounts_sockets_on_every_node_anonymous() {
    let cluster = Cluster::new().await;
    let (a, b) = (cluster.node().await, cluster.node().await);
    let cookie = format!(
        "sid={}",
        a.client().login_answer("alice", &password_of("alice")).await.sid()
    );
    let on_a = Sio::connect_asking_ids(&a.url, Transport::Websocket, &[("Cookie", &cookie)]).await;
    let on_b = Sio::connect_asking_ids(&b.url, Transport::Polling, &[("Cookie", &cookie)]).await;
    for socket in [&on_a, &on_b] {
        assert_eq!(socket.speaks_for().await["id"], "alice");
    }

    let output = command_on(
        cluster.db.url(),
        "user",
        &["passwd", "alice", "--password-stdin"],
        Some("alice-new-pass\n"),
    )
    .await;
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    for (socket, node) in [(&on_a, "a"), (&on_b, "b")] {
        let took = eventually(
            &format!("alice's socket on node {node} is anonymous"),
            Duration::from_secs(5),
            async || socket.speaks_for().await.is_null(),
        )
        .await;
        eprintln!("user passwd: alice's socket on node {node} anonymous {took:?} later");
    }
}

#[tokio::test]
async fn an_admin_demoted_on_one_node_speaks_as_staff_no_more_on_the_other() {
    let cluster = Cluster::new().await;
    let (a, b) = (cluster.node().await, cluster.node().await);
    let on_b = socket_of(&b, "admin").await;
    assert_eq!(on_b.speaks_for().await["isAdmin"], true);
    // Staff may use a staff member's name.
    let as_chief = json!({ "nick": "chief", "text": "The desk closes at six" });
    assert_eq!(on_b.call("chat:send", as_chief.clone()).await, json!({ "ok": true }));

    let chief = a.client();
    assert_eq!(chief.login("chief", &password_of("chief")).await.0, StatusCode::OK);
    let (status, _) = chief.patch("/api/users/admin", json!({ "isAdmin": false })).await;
    assert_eq!(status, StatusCode::OK);
    // Read when it sends: at once, not at the next reading of anything.
    assert_eq!(
        on_b.speaks_for().await,
        json!({ "id": "admin", "name": "admin", "isAdmin": false })
    );
    assert_eq!(
        on_b.call("chat:send", as_chief).await,
        json!({ "ok": false, "error": "That name belongs to staff: choose another" })
    );
}

#[tokio::test]
async fn a_thread_made_private_on_one_node_stops_reaching_sockets_on_the_other_that_may_not_read_it() {
    let cluster = Cluster::new().await;
    let private = [("LOSTFOUND_PUBLIC_STATES", "approved")];
    let (a, b) = (cluster.node_with(&private).await, cluster.node_with(&private).await);
    let (alice, staff) = (a.client(), a.client());
    assert_eq!(alice.login("alice", &password_of("alice")).await.0, StatusCode::OK);
    assert_eq!(staff.login("admin", &password_of("admin")).await.0, StatusCode::OK);
    let item = alice.create_item(item_body("Grey wallet")).await;
    let item_id = item["id"].as_i64().unwrap();
    let path = item_path(&item);
    let review = |status: &'static str| staff.patch(&path, json!({ "status": status }));
    assert_eq!(review("approved").await.0, StatusCode::OK);

    // On B: a visitor, staff and the reporter join the public thread.
    let visitor = Sio::connect_to(&b.url, Transport::Websocket, &[]).await;
    let (staff_on_b, reporter_on_b) = (socket_of(&b, "admin").await, socket_of(&b, "alice").await);
    for socket in [&visitor, &staff_on_b, &reporter_on_b] {
        assert_eq!(
            socket.call("thread:join", json!({ "itemId": item_id })).await,
            json!({ "ok": true })
        );
        socket.next("thread:history").await;
    }
    let reporter_on_a = socket_of(&a, "alice").await;

    assert_eq!(review("rejected").await.0, StatusCode::OK);
    let mut n = 0;
    eventually_every(
        "the visitor on B hears the private thread no more",
        Duration::from_secs(10),
        Duration::from_millis(300),
        async || {
            n += 1;
            let text = format!("Is it still here? {n}");
            let message = json!({ "itemId": item_id, "text": text });
            assert_eq!(reporter_on_a.call("thread:send", message).await, json!({ "ok": true }));
            // Staff and the reporter on B still read it; the visitor, on the same node, got
            // whatever was sent to it before its own next answer.
            for reader in [&staff_on_b, &reporter_on_b] {
                while reader.next("thread:new").await["msg"]["text"] != text.as_str() {}
            }
            visitor.call("chat:join", json!({})).await;
            let heard = visitor.take_all("thread:new").await;
            heard.iter().all(|news| news["msg"]["text"] != text.as_str())
        },
    )
    .await;
    assert_eq!(
        visitor
            .call("thread:send", json!({ "itemId": item_id, "text": "Mine!" }))
            .await,
        json!({ "ok": false, "error": "Item not found" })
    );
}

#[tokio::test]
async fn both_nodes_keep_signing_people_in_after_the_provider_rotates_its_keys() {
    let cluster = Cluster::new().await;
    let provider = Provider::start(None).await;
    let (a, b) = (
        cluster.node_with(&provider.env()).await,
        cluster.node_with(&provider.env()).await,
    );
    for node in [&a, &b] {
        assert_eq!(sign_on(&browser(&node.url), "olivia").await, "/", "before the rotation");
    }
    // A new signing key, and the one each node knows is no longer published.
    provider.rotate_keys().await;
    for node in [&a, &b] {
        let olivia = browser(&node.url);
        assert_eq!(sign_on(&olivia, "olivia").await, "/", "after the rotation");
        assert_eq!(olivia.get("/api/me").await.1["user"]["id"], "olivia");
    }
}

/// A change to items takes its version from its connection's row of the items' version (one
/// of 64, by the backend's process id): a create on one node goes on while another node holds
/// the row of its own change until its commit. With one row for all, every change waited for
/// the one before it to be on disk, on every node.
#[tokio::test]
async fn a_create_does_not_wait_for_another_nodes_change_to_commit() {
    let cluster = Cluster::new().await;
    let node = cluster.node().await;
    let alice = node.client();
    assert_eq!(alice.login("alice", &password_of("alice")).await.0, StatusCode::OK);
    let first = alice.create_item(item_body("Blue scarf")).await;
    let list_tag = async || {
        let (status, headers, _) = alice.send_raw(alice.request(reqwest::Method::GET, "/api/items")).await;
        assert_eq!(status, StatusCode::OK);
        headers[reqwest::header::ETAG].clone()
    };
    let before = list_tag().await;

    // Another node's change, begun and not committed, on a connection whose row none of this
    // node's connections bumps (their rows are their process ids modulo 64, as the view says).
    let mut other = None;
    for _ in 0..100 {
        let mut conn = PgConnection::connect(cluster.db.url()).await.unwrap();
        let (mine, taken): (i32, Vec<i32>) = (
            sqlx::query_scalar("SELECT stripe FROM item_version_stripe")
                .fetch_one(&mut conn)
                .await
                .unwrap(),
            sqlx::query_scalar(
                "SELECT pid % 64 FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()",
            )
            .fetch_all(&mut conn)
            .await
            .unwrap(),
        );
        if !taken.contains(&mine) {
            other = Some(conn);
            break;
        }
    }
    let mut other = other.expect("a connection whose row of the version no connection of the node bumps");
    let mut change = other.begin().await.unwrap();
    sqlx::query(
        "UPDATE item_list_version SET version = version + 1 WHERE id = (SELECT stripe FROM item_version_stripe)",
    )
    .execute(&mut *change)
    .await
    .unwrap();

    let second = tokio::time::timeout(Duration::from_secs(10), alice.create_item(item_body("Red scarf")))
        .await
        .expect("a create waited for another node's change to commit");
    change.commit().await.unwrap();
    assert_ne!(second["id"], first["id"]);
    // Every change moved the lists' version.
    let after = list_tag().await;
    assert_ne!(after, before);
}
