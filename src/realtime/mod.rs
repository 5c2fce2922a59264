//! The real-time interface: Socket.IO at `/socket.io/` on the same server, with the global
//! chat and one thread per item.
//!
//! Handlers are generic over the socketioxide adapter so the same code runs on one node
//! (the in-memory adapter) and on several.

mod connect;
mod events;
mod identity;
mod names;
mod outbound;
mod parts;
mod views;

use std::{sync::Arc, time::Duration};

use axum::{Router, middleware};
use socketioxide::{SocketIo, SocketIoBuilder, adapter::Adapter, handler::ConnectHandler};
use socketioxide_redis::RedisAdapterCtr;
use tokio::{sync::broadcast, task::JoinHandle};
use tower::ServiceBuilder;

use serde_json::json;

use self::{
    connect::{Limits, SessionSockets, user_room},
    names::StaffNames,
    outbound::Backlogs,
};
use crate::{
    domain::Event,
    json::NotificationJson,
    redis::{FailFastDriver, RedisAdapter},
    server::HttpService,
    state::AppState,
};

/// What a WebSocket connection reads into at first (4 KiB by default).
const WS_READ_BUFFER: usize = 1024;
/// How often the per-client rate limits forget clients that went quiet.
const FORGET_QUIET_CLIENTS: Duration = Duration::from_secs(60);

/// Largest Socket.IO packet accepted, on either transport: a 2,000-character message with
/// its nick fits many times over.
const MAX_PACKET_BYTES: usize = 64 * 1024;

/// The smallest event the server sends (a `chat:new` of one character, framed), in bytes.
const SMALLEST_EVENT_BYTES: u64 = 64;
/// Packets a socket's queue holds when its client may leave any number of bytes unread.
const MOST_QUEUED_PACKETS: usize = 1 << 16;

/// How many packets a socket's queue holds: enough that a client is disconnected for the
/// bytes it leaves unread before its queue fills, for a full queue drops what comes next
/// even to a client that reads (the default of 128 lost most of a burst of 500 messages).
/// The queue takes memory only as it fills.
fn queued_packets(max_unsent_bytes: u64) -> usize {
    match max_unsent_bytes {
        0 => MOST_QUEUED_PACKETS,
        bytes => usize::try_from(bytes / SMALLEST_EVENT_BYTES)
            .map_or(MOST_QUEUED_PACKETS, |n| n.clamp(128, MOST_QUEUED_PACKETS)),
    }
}

/// The Socket.IO server settings shared by every adapter.
fn builder(state: AppState, limits: Limits, sessions: Arc<SessionSockets>) -> SocketIoBuilder {
    let queued = queued_packets(state.config.limits.max_unsent_bytes);
    SocketIo::builder()
        .max_buffer_size(queued)
        .with_state(state)
        .with_state(limits)
        .with_state(sessions)
        .with_state(Arc::new(StaffNames::default()))
        .max_payload(MAX_PACKET_BYTES as u64)
        .ws_max_message_size(MAX_PACKET_BYTES)
        .ws_max_frame_size(MAX_PACKET_BYTES)
        // Grown when a message needs more; most of an idle connection's memory otherwise.
        .ws_read_buffer_size(WS_READ_BUFFER)
        .connect_timeout(Duration::from_secs(10))
}

/// This node's Socket.IO server: on its own, or linked to the other nodes through Redis.
pub struct Server {
    io: Io,
    /// Forgets quiet clients, pushes notifications and deletions, follows ended sessions.
    tasks: Vec<JoinHandle<()>>,
}

enum Io {
    Single(SocketIo),
    Clustered(SocketIo<RedisAdapter>),
}

impl Server {
    /// Serves the events at `/socket.io/` in front of `router` (which answers what is not
    /// Socket.IO's).
    pub async fn attach(
        router: HttpService,
        state: AppState,
        redis: Option<RedisAdapterCtr<FailFastDriver>>,
    ) -> anyhow::Result<(Router, Self)> {
        let settings = &state.config.limits;
        let limits = Limits::new(
            settings.connection_message_rate,
            settings.address_message_rate,
            settings.max_unsent_bytes,
            settings.history_bytes,
            settings.shared(),
        );
        let sessions = Arc::new(SessionSockets::default());
        let outer = ServiceBuilder::new()
            .layer(middleware::from_fn(parts::own_request_parts))
            .layer(middleware::from_fn_with_state(
                Arc::clone(&limits.backlogs),
                outbound::track_transport,
            ));
        let builder = builder(state.clone(), limits.clone(), Arc::clone(&sessions));
        // Wrapped once around the router, not around each of its routes (see `http`).
        let (router, io, mut tasks) = match redis {
            None => {
                let (layer, io) = builder.build_layer();
                // Middlewares run last given first: `admit`, then `listen`, then the handler.
                io.ns("/", events::on_connect.with(events::listen).with(connect::admit));
                let service = outer.layer(layer).service(router);
                let tasks = follow(io.clone(), state, &limits, sessions);
                (Router::new().fallback_service(service), Io::Single(io), tasks)
            }
            Some(redis) => {
                let (layer, io) = builder.with_adapter::<RedisAdapter>(redis).build_layer();
                // Subscribes this node to the namespace's channels.
                io.ns("/", events::on_connect.with(events::listen).with(connect::admit))
                    .await?;
                let service = outer.layer(layer).service(router);
                let tasks = follow(io.clone(), state, &limits, sessions);
                (Router::new().fallback_service(service), Io::Clustered(io), tasks)
            }
        };
        tasks.push(tokio::spawn(forget_quiet_clients(limits)));
        Ok((router, Self { io, tasks }))
    }

    /// Disconnects every client of this node.
    pub async fn close(&self) {
        for task in &self.tasks {
            task.abort();
        }
        match &self.io {
            Io::Single(io) => io.close().await,
            Io::Clustered(io) => io.close().await,
        }
    }
}

/// The tasks that follow what this node commits for its sockets: notifications and deleted
/// messages to push, review states that change who reads a thread, sessions that ended.
fn follow<A: Adapter>(
    io: SocketIo<A>,
    state: AppState,
    limits: &Limits,
    sessions: Arc<SessionSockets>,
) -> Vec<JoinHandle<()>> {
    let events = state.events.subscribe();
    vec![
        tokio::spawn(push_committed(
            io.clone(),
            events,
            state.clone(),
            Arc::clone(&limits.backlogs),
        )),
        tokio::spawn(identity::follow_sessions(io, state, sessions)),
    ]
}

/// Sends each notification this node commits as `notify` to every socket of its user, and
/// each message deleted here as `message:deleted` to the sockets that know messages by id;
/// an item whose review state stops being public keeps in its thread only those who may
/// still read it. On every node (the Redis adapter carries all three to the others).
async fn push_committed<A: Adapter>(
    io: SocketIo<A>,
    mut events: broadcast::Receiver<Event>,
    state: AppState,
    backlogs: Arc<Backlogs>,
) {
    loop {
        match events.recv().await {
            Ok(Event::Notified(notification)) => {
                let room = user_room(&notification.user_id);
                let data = NotificationJson::from(&notification);
                events::deliver(|| io.to(room.clone()), &backlogs, "notify", &data).await;
            }
            Ok(Event::MessageDeleted(message)) => {
                let room = message.item.map_or(json!("chat"), |item| json!(item.get()));
                let data = json!({ "id": message.id.get(), "room": room });
                events::deliver(|| io.to(events::WITH_IDS), &backlogs, "message:deleted", &data).await;
            }
            Ok(Event::Reviewed(reviewed)) if !state.config.custody.is_public(reviewed.status) => {
                events::keep_thread_to_its_readers(&io, reviewed.item, &reviewed.reporter).await;
            }
            Ok(Event::Reviewed(_) | Event::AccountMailQueued) => {}
            Err(broadcast::error::RecvError::Lagged(missed)) => {
                // Notifications stay stored and listed.
                tracing::warn!(
                    missed,
                    "committed changes not pushed live (notifications, deleted messages, review changes the threads' rooms follow)"
                );
            }
            Err(broadcast::error::RecvError::Closed) => return,
        }
    }
}

/// Keeps the per-client rate limits' memory to the clients heard from lately.
async fn forget_quiet_clients(limits: Limits) {
    let limiters: Vec<_> = [limits.per_client, limits.per_shared_address]
        .into_iter()
        .flatten()
        .collect();
    if limiters.is_empty() {
        return;
    }
    let mut ticks = tokio::time::interval(FORGET_QUIET_CLIENTS);
    loop {
        ticks.tick().await;
        for limiter in &limiters {
            limiter.retain_recent();
            limiter.shrink_to_fit();
        }
    }
}
