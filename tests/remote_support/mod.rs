//! Support for the remote-fetch tests: a GCS look-alike HTTP server on loopback and a
//! realistic CI job tree to serve.

pub mod job;
pub mod server;
