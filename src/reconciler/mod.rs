//! Reference model of how the Cluster Version Operator computes ClusterVersion status.
