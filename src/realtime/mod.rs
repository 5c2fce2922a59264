//! The real-time interface: Socket.IO at `/socket.io/` on the same server, with the global
//! chat and one thread per item.
//!
//! Handlers are generic over the socketioxide adapter so the same code runs on one node
//! (the in-memory adapter) and on several.

mod connect;
mod events;

use std::time::Duration;

use socketioxide::{SocketIo, SocketIoBuilder, handler::ConnectHandler};

use crate::http::AppState;

/// Largest Socket.IO packet accepted, on either transport: a 2,000-character message with
/// its nick fits many times over.
const MAX_PACKET_BYTES: usize = 64 * 1024;

/// The Socket.IO server settings shared by every adapter.
pub fn builder(state: AppState) -> SocketIoBuilder {
    SocketIo::builder()
        .with_state(state)
        .max_payload(MAX_PACKET_BYTES as u64)
        .ws_max_message_size(MAX_PACKET_BYTES)
        .ws_max_frame_size(MAX_PACKET_BYTES)
        .connect_timeout(Duration::from_secs(10))
}

/// Serves the events on the default namespace of a single-node server.
pub fn register(io: &SocketIo) {
    io.ns("/", events::on_connect.with(connect::admit));
}
