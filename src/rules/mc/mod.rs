//! MC rules: MachineConfigPools and Nodes (degraded pools, paused pools holding back nodes,
//! nodes not Ready, nodes the machine-config daemon marked Degraded, nodes left cordoned).

pub mod mc001_pool_degraded;
pub mod mc005_node_cordoned;

use crate::rules::model::ObjectRef;

pub fn pool_ref(name: &str) -> ObjectRef {
    ObjectRef::new("MachineConfigPool", "", name)
}

pub fn node_ref(name: &str) -> ObjectRef {
    ObjectRef::new("Node", "", name)
}
