//! `chat:join`, `chat:send`, `thread:join`, `thread:send`, `thread:leave`.
//!
//! Each handler checks its payload into a domain value, stores before it broadcasts, and
//! answers failures with an `error` event `{ message }` to the sender alone (and the ack,
//! when the client asked for one): nothing is stored or sent on, the connection stays.

use std::borrow::Cow;

use serde::Serialize;
use serde_json::{Value, json};
use socketioxide::{
    BroadcastError, SocketIo,
    adapter::Adapter,
    extract::{AckSender, SocketRef, State, TryData},
    operators::BroadcastOperators,
};

use super::connect::Connection;
use crate::{
    domain::{ChatInput, ThreadInput, ThreadRef, ValidationError, check_join_payload},
    error::AppError,
    http::AppState,
    time::now_ms,
};

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
            Self::ItemNotFound => "Item not found".into(),
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

impl From<sqlx::Error> for EventError {
    fn from(err: sqlx::Error) -> Self {
        let err = AppError::from(err);
        tracing::error!(error = ?err, "real-time event failed");
        Self::Store(err)
    }
}

/// What a handler works with.
struct Event<A: Adapter> {
    socket: SocketRef<A>,
    io: SocketIo<A>,
    state: AppState,
    connection: Option<Connection>,
}

type Outcome = Result<(), EventError>;

/// Registers every handler; runs before anything is awaited, so no early event is lost.
pub async fn on_connect<A: Adapter>(socket: SocketRef<A>) {
    on(&socket, "chat:join", chat_join);
    on(&socket, "chat:send", chat_send);
    on(&socket, "thread:join", thread_join);
    on(&socket, "thread:send", thread_send);
    on(&socket, "thread:leave", thread_leave);
}

/// Wraps a handler with the flood check and the answer to the sender.
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
              TryData(payload): TryData<Value>,
              ack: AckSender<A>| async move {
            let connection = socket.extensions.get::<Connection>();
            let flooding = connection.as_ref().is_some_and(|c| c.limiter.check().is_err());
            let outcome = if flooding {
                Err(EventError::Flooding)
            } else {
                let event = Event {
                    socket: socket.clone(),
                    io,
                    state,
                    connection,
                };
                handler(event, payload.unwrap_or(Value::Null)).await
            };
            let reply = match outcome {
                Ok(()) => json!({ "ok": true }),
                Err(err) => {
                    let message = err.message();
                    // A full buffer means a client that does not read: it misses its answers.
                    let _ = socket.emit("error", &json!({ "message": message }));
                    json!({ "ok": false, "error": message })
                }
            };
            let _ = ack.send(&reply);
        },
    );
}

/// Broadcasts to the clients `to` selects on every node. When the other nodes cannot be
/// reached (Redis is down) the adapter gives up before delivering anything, so this node's
/// clients get it alone; a client that does not read misses it and is no one's delay.
async fn deliver<A: Adapter>(to: impl Fn() -> BroadcastOperators<A>, event: &str, data: &impl Serialize) {
    match to().emit(event, data).await {
        Ok(()) => {}
        Err(BroadcastError::Adapter(err)) => {
            tracing::warn!(error = %err, event, "other nodes unreachable; delivered on this node only");
            if let Err(err) = to().local().emit(event, data).await {
                tracing::debug!(error = %err, event, "not delivered to every client");
            }
        }
        Err(err) => tracing::debug!(error = %err, event, "not delivered to every client"),
    }
}

fn room(item_id: i64) -> String {
    format!("item:{item_id}")
}

async fn chat_join<A: Adapter>(event: Event<A>, payload: Value) -> Outcome {
    check_join_payload(&payload)?;
    let history = event.state.store.chat_history().await?;
    let _ = event.socket.emit("chat:history", &history);
    Ok(())
}

async fn chat_send<A: Adapter>(event: Event<A>, payload: Value) -> Outcome {
    let input = ChatInput::from_payload(&payload)?;
    let user_id = event.connection.as_ref().and_then(|c| c.user_id.as_deref());
    let message = event
        .state
        .store
        .insert_chat_message(&input.nick, &input.text, user_id, now_ms())
        .await?;
    // Every connected client, the sender included.
    deliver(|| event.io.broadcast(), "chat:new", &message).await;
    Ok(())
}

async fn thread_join<A: Adapter>(event: Event<A>, payload: Value) -> Outcome {
    let ThreadRef { item_id } = ThreadRef::from_payload(&payload)?;
    // Joined before the history is read, so no message falls between the two.
    event.socket.join(room(item_id));
    let Some(msgs) = event.state.store.thread_history(item_id).await? else {
        event.socket.leave(room(item_id));
        return Err(EventError::ItemNotFound);
    };
    let _ = event
        .socket
        .emit("thread:history", &json!({ "itemId": item_id, "msgs": msgs }));
    Ok(())
}

async fn thread_send<A: Adapter>(event: Event<A>, payload: Value) -> Outcome {
    let input = ThreadInput::from_payload(&payload)?;
    let user_id = event.connection.as_ref().and_then(|c| c.user_id.as_deref());
    let store = &event.state.store;
    let msg = store
        .insert_thread_message(input.item_id, &input.nick, &input.text, user_id, now_ms())
        .await?
        .ok_or(EventError::ItemNotFound)?;
    let news = json!({ "itemId": input.item_id, "msg": msg });
    // Everyone who joined the thread, and the sender once whether joined or not.
    deliver(|| event.socket.to(room(input.item_id)), "thread:new", &news).await;
    let _ = event.socket.emit("thread:new", &news);
    Ok(())
}

async fn thread_leave<A: Adapter>(event: Event<A>, payload: Value) -> Outcome {
    let ThreadRef { item_id } = ThreadRef::from_payload(&payload)?;
    event.socket.leave(room(item_id));
    Ok(())
}
