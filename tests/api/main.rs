//! Integration tests of the HTTP and real-time interfaces against the real server. One binary, many modules.

mod bad_input;
mod cli;
mod errors;
mod faults;
mod helpers;
mod items;
mod multinode;
mod node;
mod official_clients;
mod persistence;
mod process;
mod realtime;
mod realtime_robustness;
mod review;
mod session;
mod sio;
mod smoke;
mod throttle;
