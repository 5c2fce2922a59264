//! `chat:join`, `chat:send`, `thread:join`, `thread:send`, `thread:leave`.
//!
//! Each handler checks its payload into a domain value, stores before it broadcasts, and
//! answers failures with an `error` event `{ message }` to the sender alone (and the ack,
//! when the client asked for one): nothing is stored or sent on, the connection stays.
//! Everything sent to a socket is counted in its backlog; a socket that lets it grow past
//! the limit is disconnected (see `outbound`).

use std::{borrow::Cow, convert::Infallible, sync::Arc};

use serde::Serialize;
use serde_json::{Value, json, value::RawValue};
use socketioxide::{
    BroadcastError, SocketIo,
    adapter::Adapter,
    extract::{AckSender, SocketRef, State, TryData},
    operators::BroadcastOperators,
};

use super::{
    connect::{Connection, Limits, STAFF_ROOM, SessionSockets, user_room},
    identity::as_the_account_is_now,
    names::StaffNames,
    outbound::Backlogs,
    views::{MessageJson, ThreadHistory, ThreadNews, history},
};
use crate::{
    causes::describe,
    domain::{
        ChatInput, ItemId, ItemNotFound, ThreadInput, ThreadRef, ValidationError,
        access::{self, Action},
        check_join_payload,
    },
    error::AppError,
    state::AppState,
    store::StoreError,
    time::now_ms,
};

/// Framing around an event's payload on the wire, roughly: packet type, namespace, brackets.
const FRAMING: usize = 8;
/// The room of clients found not reading: broadcasts leave them out until they are gone.
const NOT_READING: &str = "not-reading";
/// The room of clients that asked for each message's id and sender (and hear of deletions).
pub(super) const WITH_IDS: &str = "with-ids";

/// Why an event was refused; the text is what the sender is told.
enum EventError {
    Invalid(ValidationError),
    ItemNotFound,
    Flooding,
    Store(AppError),
}

impl EventError {
    fn message(&self) -> Cow<'_, str> {
        match self {
            Self::Invalid(err) => Cow::Borrowed(&err.message),
            Self::ItemNotFound => ItemNotFound::MESSAGE.into(),
            Self::Flooding => "Too many messages, slow down".into(),
            // "Internal server error" or "Service temporarily unavailable", never the cause.
            Self::Store(err) => err.to_string().into(),
        }
    }
}

impl From<ValidationError> for EventError {
    fn from(err: ValidationError) -> Self {
        Self::Invalid(err)
    }
}

impl From<ItemNotFound> for EventError {
    fn from(_: ItemNotFound) -> Self {
        Self::ItemNotFound
    }
}

impl From<StoreError> for EventError {
    fn from(err: StoreError) -> Self {
        tracing::error!(error = describe(&err).join(": "), "real-time event failed");
        Self::Store(AppError::from(err))
    }
}

/// What a handler works with.
struct Event<A: Adapter> {
    socket: SocketRef<A>,
    io: SocketIo<A>,
    state: AppState,
    limits: Limits,
    staff: Arc<StaffNames>,
    connection: Connection,
}

type Outcome = Result<(), EventError>;

/// The connect handler: counts the connection in (the disconnect handler `listen` registers
/// counts it out).
pub async fn on_connect() {
    crate::metrics::socketio_connection(true);
}

/// The last connect middleware: joins the socket's rooms and registers every handler before
/// the connection is acknowledged. socketioxide acknowledges a connection, then runs the connect
/// handler in a task of its own: handlers registered there missed an event the client sent at
/// once whenever that task waited for a thread (on a busy server, now and then).
pub async fn listen<A: Adapter>(socket: SocketRef<A>) -> Result<(), Infallible> {
    if let Some(connection) = socket.extensions.get::<Connection>() {
        // A logged-in client's notifications come to it through its user's room, on any node.
        if let Some(sender) = &connection.sender {
            socket.join(user_room(&sender.user.id));
            if access::may(&sender.user, Action::Review) {
                socket.join(STAFF_ROOM);
            }
        }
        if connection.with_ids {
            socket.join(WITH_IDS);
        }
    }
    on(&socket, "chat:join", chat_join);
    on(&socket, "chat:send", chat_send);
    on(&socket, "thread:join", thread_join);
    on(&socket, "thread:send", thread_send);
    on(&socket, "thread:leave", thread_leave);
    socket.on_disconnect(
        |socket: SocketRef<A>, State(limits): State<Limits>, State(sessions): State<Arc<SessionSockets>>| async move {
            limits.backlogs.close(socket.id);
            if let Some(sender) = socket.extensions.get::<Connection>().and_then(|c| c.sender) {
                sessions.release(&sender.session, socket.id);
            }
            crate::metrics::socketio_connection(false);
        },
    );
    Ok(())
}

/// Whether event `name` sends a message (what the budget of an address or account counts).
fn is_message(name: &str) -> bool {
    matches!(name, "chat:send" | "thread:send")
}

/// Wraps a handler with the flood checks and the answer to the sender.
fn on<A, H, F>(socket: &SocketRef<A>, name: &'static str, handler: H)
where
    A: Adapter,
    H: Fn(Event<A>, Value) -> F + Copy + Send + Sync + 'static,
    F: Future<Output = Outcome> + Send + 'static,
{
    socket.on(
        name,
        move |socket: SocketRef<A>,
              io: SocketIo<A>,
              State(state): State<AppState>,
              State(limits): State<Limits>,
              State(staff): State<Arc<StaffNames>>,
              TryData(payload): TryData<Value>,
              ack: AckSender<A>| async move {
            // Set by the connect middleware before any event is handled.
            let Some(connection) = socket.extensions.get::<Connection>() else {
                return;
            };
            // Every event counts on its connection; only messages, which are stored and sent
            // to everyone, count on the address (or account) too: people sharing an address
            // join and leave rooms without using up each other's budget.
            let flooding = connection
                .limiter
                .as_ref()
                .is_some_and(|limiter| limiter.check().is_err())
                || (is_message(name)
                    && limits
                        .for_client(&connection)
                        .is_some_and(|(limiter, key)| limiter.check_key(key).is_err()));
            let outcome = if flooding {
                crate::metrics::refused("messages");
                Err(EventError::Flooding)
            } else {
                match as_the_account_is_now(&socket, &state.store, &connection).await {
                    Ok(connection) => {
                        let event = Event {
                            socket: socket.clone(),
                            io,
                            state,
                            limits,
                            staff,
                            connection,
                        };
                        handler(event, payload.unwrap_or(Value::Null)).await
                    }
                    Err(err) => Err(err.into()),
                }
            };
            let reply = match outcome {
                Ok(()) => json!({ "ok": true }),
                Err(err) => {
                    let message = err.message();
                    send(&socket, &connection, "error", &json!({ "message": message }));
                    json!({ "ok": false, "error": message })
                }
            };
            if connection.backlog.charge(reply.to_string().len() + FRAMING) {
                let _ = ack.send(&reply);
            } else {
                drop_slow_client(&socket, &connection);
            }
        },
    );
}

/// Sends `data` to one socket, counting it in its backlog; a client over its limit is
/// disconnected instead. A full buffer means a client that does not read: it misses it.
fn send<A: Adapter>(socket: &SocketRef<A>, connection: &Connection, event: &str, data: &impl Serialize) {
    let Some(payload) = raw(data) else {
        return;
    };
    if connection.backlog.charge(payload.get().len() + event.len() + FRAMING) {
        let _ = socket.emit(event, &payload);
    } else {
        drop_slow_client(socket, connection);
    }
}

/// Disconnects a client that let too much wait for it: it gets nothing more, and its
/// WebSocket connection is cut (what is queued for it would never leave otherwise). A
/// long-polling one that never polls again is closed by the next heartbeat.
fn drop_slow_client<A: Adapter>(socket: &SocketRef<A>, connection: &Connection) {
    if !connection.backlog.drop_once() {
        return;
    }
    tracing::info!(socket = %socket.id, "disconnecting a client that stopped reading");
    socket.join(NOT_READING);
    // Telling it fails when its queue is full; the connection goes anyway.
    let _ = socket.clone().disconnect();
    connection.backlog.cut_transport();
}

/// `data` as JSON text, written once whoever it goes to.
fn raw(data: &impl Serialize) -> Option<Box<RawValue>> {
    serde_json::value::to_raw_value(data)
        .inspect_err(|err| tracing::error!(error = %err, "an event did not serialize"))
        .ok()
}

/// Broadcasts to the clients `to` selects on every node, then counts it in the backlog of
/// each of this node's receivers. When the other nodes cannot be reached (Redis is down) the
/// adapter gives up before delivering anything, so this node's clients get it alone.
pub(super) async fn deliver<A: Adapter>(
    to: impl Fn() -> BroadcastOperators<A>,
    backlogs: &Backlogs,
    event: &str,
    data: &impl Serialize,
) {
    let Some(payload) = raw(data) else {
        return;
    };
    let to = || to().except(NOT_READING);
    match to().emit(event, &payload).await {
        Ok(()) => {}
        Err(BroadcastError::Adapter(err)) => {
            tracing::warn!(error = %err, event, "other nodes unreachable; delivered on this node only");
            if let Err(err) = to().local().emit(event, &payload).await {
                tracing::debug!(error = %err, event, "not delivered to every client");
            }
        }
        Err(err) => tracing::debug!(error = %err, event, "not delivered to every client"),
    }
    let size = payload.get().len() + event.len() + FRAMING;
    let receivers = to().local().sockets();
    let over = backlogs.charge(receivers.iter().map(|socket| socket.id), size);
    for socket in receivers.iter().filter(|socket| over.contains(&socket.id)) {
        if let Some(connection) = socket.extensions.get::<Connection>() {
            drop_slow_client(socket, &connection);
        }
    }
}

/// Takes out of an item's thread, on every node, the sockets that may no longer read it now
/// that its review state is not public: all but staff's and its reporter's.
pub(super) async fn keep_thread_to_its_readers<A: Adapter>(io: &SocketIo<A>, item_id: ItemId, reporter: &str) {
    let rooms = [room(item_id), room_with_ids(item_id)];
    let readers = [STAFF_ROOM.to_owned(), user_room(reporter)];
    if let Err(err) = io.to(rooms.clone()).except(readers).leave(rooms).await {
        tracing::warn!(error = %err, item = %item_id, "a thread no longer public kept sockets on other nodes");
    }
}

/// The room of a thread's sockets that get messages as the contract has them.
fn room(item_id: ItemId) -> String {
    format!("item:{item_id}")
}

/// The room of a thread's sockets that asked for each message's id and sender.
fn room_with_ids(item_id: ItemId) -> String {
    format!("item:{item_id}:ids")
}

/// A thread's room for this connection.
fn thread_room(item_id: ItemId, connection: &Connection) -> String {
    if connection.with_ids {
        room_with_ids(item_id)
    } else {
        room(item_id)
    }
}

/// Sends `message` out to two rooms: those that get it as the contract has it (`plain`) and
/// those that asked for ids and senders (`with_ids`), each in its own form.
async fn deliver_message<A: Adapter, T: Serialize>(
    plain: impl Fn() -> BroadcastOperators<A>,
    with_ids: impl Fn() -> BroadcastOperators<A>,
    backlogs: &Backlogs,
    event: &str,
    form: impl Fn(bool) -> T,
) {
    deliver(plain, backlogs, event, &form(false)).await;
    deliver(with_ids, backlogs, event, &form(true)).await;
}

/// Refuses a nick that looks like a staff member's name, unless staff send it: nobody poses as
/// the front desk, not even an account that took its name. In an item's thread (`item`) only
/// the staff of its site speak for the desk; in the chat, any staff.
async fn check_nick<A: Adapter>(event: &Event<A>, nick: &str, item: Option<ItemId>) -> Result<(), EventError> {
    let sender = event.connection.sender.as_deref().map(|sender| &sender.user);
    let speaks_for_the_desk = match (sender, item) {
        (Some(user), _) if !access::may(user, Action::SpeakAsStaff) => false,
        (Some(_), None) => true,
        (Some(user), Some(item)) => {
            let site = event.state.store.item(item).await?.and_then(|item| item.site_id);
            access::may_at(user, Action::SpeakAsStaff, site)
        }
        (None, _) => false,
    };
    if !speaks_for_the_desk && event.staff.is_staff_name(&event.state.store, nick).await? {
        return Err(ValidationError::new("nick", "That name belongs to staff: choose another").into());
    }
    Ok(())
}

/// A thread of an item the socket's user may not read (`LOSTFOUND_PUBLIC_STATES`) is as if
/// the item did not exist.
async fn check_readable<A: Adapter>(event: &Event<A>, item_id: ItemId) -> Result<(), EventError> {
    let user = event.connection.sender.as_deref().map(|sender| &sender.user);
    if let Some(visible) = event.state.config.custody.visibility(user) {
        let item = event.state.store.item(item_id).await?;
        if !item.is_some_and(|item| visible.admits(&item)) {
            return Err(ItemNotFound.into());
        }
    }
    Ok(())
}

async fn chat_join<A: Adapter>(event: Event<A>, payload: Value) -> Outcome {
    check_join_payload(&payload)?;
    let messages = event.state.store.chat_history().await?;
    let history = history(&messages, event.connection.with_ids, event.limits.history_bytes);
    send(&event.socket, &event.connection, "chat:history", &history);
    Ok(())
}

async fn chat_send<A: Adapter>(event: Event<A>, payload: Value) -> Outcome {
    let input = ChatInput::from_payload(&payload)?;
    check_nick(&event, input.nick(), None).await?;
    let sender = event.connection.sender.as_deref().map(|sender| &sender.user);
    let message = event
        .state
        .store
        .insert_message(None, input.nick(), input.text(), sender, now_ms())
        .await?
        .ok_or(ItemNotFound)?;
    // Every connected client, the sender included.
    deliver_message(
        || event.io.broadcast().except(WITH_IDS),
        || event.io.to(WITH_IDS),
        &event.limits.backlogs,
        "chat:new",
        |with_ids| MessageJson::new(&message, with_ids),
    )
    .await;
    crate::metrics::message_sent("chat");
    Ok(())
}

async fn thread_join<A: Adapter>(event: Event<A>, payload: Value) -> Outcome {
    let item_id = ThreadRef::from_payload(&payload)?.item_id();
    check_readable(&event, item_id).await?;
    let joined = thread_room(item_id, &event.connection);
    // Joined before the history is read, so no message falls between the two.
    event.socket.join(joined.clone());
    let Some(msgs) = event.state.store.thread_history(item_id).await? else {
        event.socket.leave(joined);
        return Err(ItemNotFound.into());
    };
    let msgs = history(&msgs, event.connection.with_ids, event.limits.history_bytes);
    let history = ThreadHistory {
        item_id: item_id.get(),
        msgs: &msgs,
    };
    send(&event.socket, &event.connection, "thread:history", &history);
    Ok(())
}

async fn thread_send<A: Adapter>(event: Event<A>, payload: Value) -> Outcome {
    let input = ThreadInput::from_payload(&payload)?;
    let (item_id, message) = (input.item_id(), input.message());
    check_readable(&event, item_id).await?;
    check_nick(&event, message.nick(), Some(item_id)).await?;
    let sender = event.connection.sender.as_deref().map(|sender| &sender.user);
    let msg = event
        .state
        .store
        .insert_message(Some(item_id), message.nick(), message.text(), sender, now_ms())
        .await?
        .ok_or(ItemNotFound)?;
    let news = |with_ids| ThreadNews {
        item_id: item_id.get(),
        msg: MessageJson::new(&msg, with_ids),
    };
    // Everyone who joined the thread, and the sender once whether joined or not.
    deliver_message(
        || event.socket.to(room(item_id)),
        || event.socket.to(room_with_ids(item_id)),
        &event.limits.backlogs,
        "thread:new",
        news,
    )
    .await;
    send(
        &event.socket,
        &event.connection,
        "thread:new",
        &news(event.connection.with_ids),
    );
    crate::metrics::message_sent("thread");
    // Delivered: the message stands whether or not those away from the thread are told.
    let writer = sender.map(|user| user.id.as_str());
    let told = event
        .state
        .store
        .tell_thread_reply(item_id, writer, &msg.nick, msg.at)
        .await;
    match told {
        Ok(committed) => event.state.events.publish(committed),
        Err(err) => {
            tracing::warn!(error = %err, item = %item_id, "a thread's reporter and writers were not told of a reply")
        }
    }
    Ok(())
}

async fn thread_leave<A: Adapter>(event: Event<A>, payload: Value) -> Outcome {
    let item_id = ThreadRef::from_payload(&payload)?.item_id();
    event.socket.leave(thread_room(item_id, &event.connection));
    Ok(())
}
