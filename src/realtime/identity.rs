//! A socket speaks for the account of the session its handshake carried, for as long as that
//! session lives. Sessions end elsewhere (a logout, a new password, a disabled or removed
//! account, from the API, the command line or another node) and expire: every second each
//! node reads the sessions recorded as ended, and looks again at those of its sockets that
//! may have expired; the sockets of a session gone turn anonymous (their later events carry
//! no account, their `notify` stops).

use std::{sync::Arc, time::Duration};

use socketioxide::{SocketIo, adapter::Adapter};

use super::connect::{Connection, STAFF_ROOM, Sender, SessionSockets, user_room};
use crate::{
    causes::describe,
    domain::access::{self, Action},
    state::AppState,
    store::{Store, StoreError},
    time::now_ms,
};

/// How often the ended sessions are read.
const FOLLOW_EVERY: Duration = Duration::from_secs(1);
/// How far back each reading looks: the log's rows may commit out of order (PostgreSQL), and
/// a node's clock may be a little behind another's; seeing one twice does no harm. (The log
/// keeps them longer: `store::ENDED_SESSIONS_KEPT_MS`.)
const LOOK_BACK_MS: i64 = 120_000;

/// Follows the ended sessions until the task is aborted.
pub async fn follow_sessions<A: Adapter>(io: SocketIo<A>, state: AppState, sockets: Arc<SessionSockets>) {
    let mut ticks = tokio::time::interval(FOLLOW_EVERY);
    ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        ticks.tick().await;
        if let Err(err) = follow_once(&io, &state, &sockets).await {
            tracing::warn!(
                error = describe(&err).join(": "),
                "could not read the sessions that ended"
            );
        }
    }
}

async fn follow_once<A: Adapter>(
    io: &SocketIo<A>,
    state: &AppState,
    sockets: &SessionSockets,
) -> Result<(), crate::store::StoreError> {
    // Nothing to end: no read. (A session ended meanwhile is still in the log next time.)
    if sockets.is_empty() {
        return Ok(());
    }
    let now = now_ms();
    let mut ended = state.store.sessions_ended_since(now - LOOK_BACK_MS).await?;
    let idle_limit_ms = state.sessions.idle_limit_ms();
    for key in sockets.expiring(now) {
        match state.store.session_user(&key, now - idle_limit_ms).await? {
            Some((_, last_seen)) => sockets.extend(&key, last_seen + idle_limit_ms),
            None => ended.push(key),
        }
    }
    for sid in sockets.take(&ended) {
        if let Some(socket) = io.get_socket(sid) {
            anonymize(&socket);
        }
    }
    Ok(())
}

/// The socket's connection with its account as it is now (its name and role are read at
/// each event: a staff member demoted since the handshake speaks as staff no more, and
/// leaves the staff's room); anonymous once the account is gone.
pub(super) async fn as_the_account_is_now<A: Adapter>(
    socket: &socketioxide::extract::SocketRef<A>,
    store: &Store,
    connection: &Connection,
) -> Result<Connection, StoreError> {
    let Some(sender) = &connection.sender else {
        return Ok(connection.clone());
    };
    let Some(user) = store.stored_user(&sender.user.id).await? else {
        anonymize(socket);
        return Ok(connection.anonymous());
    };
    if user == sender.user {
        return Ok(connection.clone());
    }
    if access::may(&user, Action::Review) {
        socket.join(STAFF_ROOM);
    } else {
        socket.leave(STAFF_ROOM);
    }
    let now = connection.with_sender(Sender {
        user,
        session: sender.session.clone(),
    });
    socket.extensions.insert(now.clone());
    Ok(now)
}

/// Makes a socket anonymous: its later events carry no account (and count under its
/// address), and it leaves its account's and the staff's rooms, so `notify` no longer
/// reaches it.
fn anonymize<A: Adapter>(socket: &socketioxide::extract::SocketRef<A>) {
    let Some(connection) = socket.extensions.get::<Connection>() else {
        return;
    };
    if let Some(sender) = &connection.sender {
        socket.leave(user_room(&sender.user.id));
        socket.leave(STAFF_ROOM);
    }
    socket.extensions.insert(connection.anonymous());
}
