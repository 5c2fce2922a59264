//! Integration tests of the HTTP and real-time interfaces against the real server. One binary, many modules.

mod abuse;
mod bad_input;
mod cli;
mod errors;
mod faults;
mod helpers;
mod items;
mod legacy;
mod listing;
mod memory;
mod multinode;
mod node;
mod official_clients;
mod persistence;
mod photos;
mod process;
mod raw_sio;
mod realtime;
mod realtime_robustness;
mod review;
mod session;
mod sio;
mod smoke;
mod startup;
mod throttle;
mod web_assets;
