//! The cluster-wide config objects that say what identifies a cluster: `Infrastructure`
//! (the infrastructure name, the API server URLs) and `DNS` (the base domain). Read so that
//! `--redact` knows these values wherever they appear, and for the Infrastructure's control
//! plane topology (a hosted cluster's CVO and oc leave risk evaluation to the client).

use super::cluster::ObjectMeta;
use serde::{Deserialize, Serialize};

/// `config.openshift.io/v1` Infrastructure (only `cluster` exists).
#[derive(Debug, Clone, Default, PartialEq, Deserialize, Serialize)]
#[serde(default)]
pub struct Infrastructure {
    pub metadata: ObjectMeta,
    pub status: InfrastructureStatus,
}

#[derive(Debug, Clone, Default, PartialEq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase", default)]
pub struct InfrastructureStatus {
    pub infrastructure_name: Option<String>,
    #[serde(rename = "apiServerURL")]
    pub api_server_url: Option<String>,
    #[serde(rename = "apiServerInternalURI")]
    pub api_server_internal_uri: Option<String>,
    pub etcd_discovery_domain: Option<String>,
    /// `HighlyAvailable`, `SingleReplica`, or `External` (a hosted control plane, HyperShift).
    pub control_plane_topology: Option<String>,
}

/// `config.openshift.io/v1` DNS (only `cluster` exists).
#[derive(Debug, Clone, Default, PartialEq, Deserialize, Serialize)]
#[serde(default)]
pub struct Dns {
    pub metadata: ObjectMeta,
    pub spec: DnsSpec,
}

#[derive(Debug, Clone, Default, PartialEq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase", default)]
pub struct DnsSpec {
    pub base_domain: Option<String>,
}

/// The host of a URL (`https://api.x.example:6443` → `api.x.example`).
pub fn url_host(url: &str) -> Option<&str> {
    let rest = url.split_once("://").map_or(url, |(_, r)| r);
    let host = rest.split(['/', ':']).next()?;
    (!host.is_empty()).then_some(host)
}

impl Infrastructure {
    /// A hosted control plane (`controlPlaneTopology: External`), as oc's `isHostedCluster`.
    pub fn is_hosted(&self) -> bool {
        self.status.control_plane_topology.as_deref() == Some("External")
    }
    /// Values that identify the cluster: the infrastructure name and the API hosts.
    pub fn identifying(&self) -> Vec<String> {
        let s = &self.status;
        let mut v: Vec<String> = s.infrastructure_name.iter().cloned().collect();
        for u in [&s.api_server_url, &s.api_server_internal_uri]
            .into_iter()
            .flatten()
        {
            v.extend(url_host(u).map(str::to_string));
        }
        v.extend(s.etcd_discovery_domain.iter().cloned());
        v
    }
}
