//! The real-time interface: Socket.IO at `/socket.io/` on the same server, with the global
//! chat and one thread per item.
//!
//! Handlers are generic over the socketioxide adapter so the same code runs on one node
//! (the in-memory adapter) and on several.

mod connect;
mod events;
pub mod redis;

use std::time::Duration;

use axum::Router;
use socketioxide::{SocketIo, SocketIoBuilder, handler::ConnectHandler};
use socketioxide_redis::RedisAdapterCtr;

use self::redis::{FailFastDriver, RedisAdapter};
use crate::http::AppState;

/// Largest Socket.IO packet accepted, on either transport: a 2,000-character message with
/// its nick fits many times over.
const MAX_PACKET_BYTES: usize = 64 * 1024;

/// The Socket.IO server settings shared by every adapter.
fn builder(state: AppState) -> SocketIoBuilder {
    SocketIo::builder()
        .with_state(state)
        .max_payload(MAX_PACKET_BYTES as u64)
        .ws_max_message_size(MAX_PACKET_BYTES)
        .ws_max_frame_size(MAX_PACKET_BYTES)
        .connect_timeout(Duration::from_secs(10))
}

/// This node's Socket.IO server: on its own, or linked to the other nodes through Redis.
pub enum Server {
    Single(SocketIo),
    Clustered(SocketIo<RedisAdapter>),
}

impl Server {
    /// Serves the events at `/socket.io/` in front of `router`.
    pub async fn attach(
        router: Router,
        state: AppState,
        redis: Option<RedisAdapterCtr<FailFastDriver>>,
    ) -> anyhow::Result<(Router, Self)> {
        Ok(match redis {
            None => {
                let (layer, io) = builder(state).build_layer();
                io.ns("/", events::on_connect.with(connect::admit));
                (router.layer(layer), Self::Single(io))
            }
            Some(redis) => {
                let (layer, io) = builder(state).with_adapter::<RedisAdapter>(redis).build_layer();
                // Subscribes this node to the namespace's channels.
                io.ns("/", events::on_connect.with(connect::admit)).await?;
                (router.layer(layer), Self::Clustered(io))
            }
        })
    }

    /// Disconnects every client of this node.
    pub async fn close(&self) {
        match self {
            Self::Single(io) => io.close().await,
            Self::Clustered(io) => io.close().await,
        }
    }
}
