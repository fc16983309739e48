//! mglint: analyze and lint what OpenShift clusters and CI upgrade jobs leave behind.
//!
//! The pipeline flows one way: [`source`] (find files in dirs and archives) → [`ingest`]
//! (parse in parallel into a [`bundle::Bundle`]) → [`timeline`] (events and episodes) →
//! [`rules`] (findings) → [`output`] (human, JSON, JUnit, Markdown, SARIF, HTML). The
//! [`reconciler`] is a reference model of how the CVO computes ClusterVersion status.

pub mod app;
pub mod batch;
pub mod bundle;
pub mod ingest;
pub mod model;
pub mod output;
pub mod recommend;
pub mod reconciler;
pub mod redact;
pub mod remote;
pub mod risks;
pub mod rules;
pub mod safe_fs;
pub mod source;
pub mod status;
pub mod summary;
pub mod timeline;
pub mod vocab;
pub mod yaml;

pub use app::{Analysis, Run, Settings};
