//! MC002 `pool-paused-with-outdated-nodes`: a paused MachineConfigPool whose nodes are not all
//! at the pool's current configuration; they stay outdated until it is unpaused.

use super::pool_ref;
use crate::rules::engine::{Context, Input};
use crate::rules::model::*;

declare_rule! {
    PoolPausedWithOutdatedNodes: "MC002" "pool-paused-with-outdated-nodes" {
        severity: Warning,
        family: MachineConfig,
        summary: "a paused MachineConfigPool holds back outdated nodes",
        needs: &[&[Input::MachineConfigPools]],
        help: "unpause the pool (`oc patch mcp <name> --type merge -p '{\"spec\":{\"paused\":false}}'`) when the maintenance window allows",
        references: &[
                "https://docs.openshift.com/container-platform/latest/updating/updating_a_cluster/eus-eus-update.html",
            ],
    }
}

fn check(cx: &Context<'_>, out: &mut Vec<Finding>) {
    for pool in &cx.bundle.objects.pools {
        if !pool.spec.paused {
            continue;
        }
        let name = &pool.metadata.name;
        let total = pool.status.machine_count.unwrap_or(0);
        let updated = pool.status.updated_machine_count.unwrap_or(total);
        let not_updated = pool.condition("Updated").is_some_and(|c| c.is_false());
        if updated >= total && !not_updated {
            continue;
        }
        let mut f = cx.finding(
            &META,
            pool_ref(name),
            format!(
                "pool `{name}` is paused with {} of {total} machines not updated",
                total - updated.min(total)
            ),
        );
        f.evidence.push(
            cx.field(pool, Some(name), "spec.paused", "paused: true")
                .with_label("paused"),
        );
        f.evidence.push(cx.field(
            pool,
            Some(name),
            "status.updatedMachineCount",
            &updated.to_string(),
        ));
        f.at = pool
            .condition("Updated")
            .and_then(|c| c.last_transition_time);
        out.push(f);
    }
}
