//! Integration tests of the HTTP interface against the real server. One binary, many modules.

mod helpers;
mod smoke;
