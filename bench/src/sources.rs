//! Where the load generator's connections come from: one or many loopback source addresses
//! (servers cap connections per client address).

use std::net::{IpAddr, Ipv4Addr, SocketAddr};

use tokio::net::{TcpSocket, TcpStream};

/// `count` loopback addresses: 127.0.0.1 alone, or 127.0.1.1, 127.0.1.2, ….
pub fn loopback(count: usize) -> Vec<IpAddr> {
    if count <= 1 {
        return vec![IpAddr::V4(Ipv4Addr::LOCALHOST)];
    }
    (0..count)
        .map(|n| IpAddr::V4(Ipv4Addr::new(127, 0, 1 + (n / 250) as u8, 1 + (n % 250) as u8)))
        .collect()
}

/// A TCP connection to `server` from `source`, without Nagle's delay.
pub async fn connect(server: SocketAddr, source: IpAddr) -> std::io::Result<TcpStream> {
    let socket = TcpSocket::new_v4()?;
    socket.bind(SocketAddr::new(source, 0))?;
    let stream = socket.connect(server).await?;
    stream.set_nodelay(true)?;
    Ok(stream)
}

/// The host and port of an `http://host:port/…` URL, resolved, and its path with query.
pub fn split_url(url: &str) -> anyhow::Result<(SocketAddr, String, String)> {
    let rest = url
        .strip_prefix("http://")
        .ok_or_else(|| anyhow::anyhow!("only http:// URLs: {url}"))?;
    let (authority, path) = rest.split_at(rest.find('/').unwrap_or(rest.len()));
    let path = if path.is_empty() { "/" } else { path };
    let addr = std::net::ToSocketAddrs::to_socket_addrs(authority)?
        .find(SocketAddr::is_ipv4)
        .ok_or_else(|| anyhow::anyhow!("cannot resolve {authority}"))?;
    Ok((addr, authority.to_owned(), path.to_owned()))
}
