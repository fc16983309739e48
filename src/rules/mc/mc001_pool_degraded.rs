//! MC001 `pool-degraded`: a MachineConfigPool is Degraded (NodeDegraded or RenderDegraded, or
//! degraded machines counted): its nodes cannot be updated, so the update cannot complete.

use super::pool_ref;
use crate::rules::engine::{Context, Input};
use crate::rules::model::*;
use crate::rules::util::{cond, cond_evidence};

declare_rule! {
    PoolDegraded: "MC001" "pool-degraded" {
        severity: Warning,
        family: MachineConfig,
        summary: "a MachineConfigPool is Degraded: a warning when its config cannot be rendered (oc does not see that), information when its nodes are degraded (UH005 reports them)",
        needs: &[&[Input::MachineConfigPools]],
        help: "read the pool's NodeDegraded/RenderDegraded message, then the machine-config-daemon log on the named node",
        references: &[
                "https://docs.openshift.com/container-platform/latest/post_installation_configuration/machine-configuration-tasks.html",
            ],
    }
}

fn check(cx: &Context<'_>, out: &mut Vec<Finding>) {
    for pool in &cx.bundle.objects.pools {
        let name = &pool.metadata.name;
        let conds = &pool.status.conditions;
        let hit = ["NodeDegraded", "RenderDegraded", "Degraded"]
            .iter()
            .find_map(|t| cond(conds, t).filter(|(_, c)| c.is_true()));
        let degraded_count = pool.status.degraded_machine_count.unwrap_or(0);
        if hit.is_none() && degraded_count == 0 {
            continue;
        }
        let mut msg = format!("pool `{name}` is degraded");
        if degraded_count > 0 {
            msg.push_str(&format!(
                " ({degraded_count} of {} machines)",
                pool.status.machine_count.unwrap_or(0)
            ));
        }
        let mut f = cx.finding(&META, pool_ref(name), String::new());
        if let Some((i, c)) = hit {
            msg.push_str(&format!(
                ": {} `{}`: {}",
                c.type_,
                c.reason,
                one_line(&c.message, 200)
            ));
            f.evidence
                .push(cond_evidence(cx, pool, name, i, c, "message"));
            f.at = c.last_transition_time;
        } else {
            f.evidence.push(cx.field(
                pool,
                Some(name),
                "status.degradedMachineCount",
                &degraded_count.to_string(),
            ));
        }
        // A degraded node is UH005's, at oc's level; the pool only repeats it. A config that
        // cannot be rendered has no node to show it, and oc does not report it.
        let render = cond(conds, "RenderDegraded").is_some_and(|(_, c)| c.is_true());
        if !render {
            f.severity = Severity::Info;
        }
        f.message = msg;
        out.push(f);
    }
}
