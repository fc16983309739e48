//! CI001 `upgrade-test-failed`: an upgrade test of the job failed (`Cluster completes
//! upgrade`, `Operator upgrade <name>`, `Machine config pools complete upgrade`…); a test that
//! also passed in the same run is a flake and reported at a lower severity.

use crate::model::JunitStatus;
use crate::rules::engine::{Context, Input, prov_evidence};
use crate::rules::model::*;
use crate::vocab::text::bounded;

declare_rule! {
    UpgradeTestFailed: "CI001" "upgrade-test-failed" {
        severity: Error,
        family: Ci,
        summary: "an upgrade test of the CI job failed",
        needs: &[&[Input::Junit]],
        help: "start from the failure message, then the timeline of the update in the same job",
        references: &["https://github.com/openshift/origin/tree/master/test/e2e/upgrade"],
    }
}

fn is_upgrade_test(suite: &str, name: &str) -> bool {
    let n = name.to_ascii_lowercase();
    suite.eq_ignore_ascii_case("Cluster upgrade") || n.contains("upgrade")
}

fn check(cx: &Context<'_>, out: &mut Vec<Finding>) {
    let cases = &cx.bundle.junit;
    for c in cases {
        if !matches!(c.status, JunitStatus::Failed | JunitStatus::Error)
            || !is_upgrade_test(&c.suite, &c.name)
        {
            continue;
        }
        let flake = cases
            .iter()
            .any(|o| o.name == c.name && o.status == JunitStatus::Passed);
        let mut msg = format!("`{}` failed", c.name);
        if flake {
            msg.push_str(" (flake: it also passed in this run)");
        }
        if !c.message.is_empty() {
            // The whole failure message, its lines kept: the lines after the first are often
            // the answer (which operators, which check).
            msg.push_str(&format!(": {}", bounded(&c.message, 4000)));
        }
        let mut f = cx.finding(&META, ObjectRef::new("TestCase", &c.suite, &c.name), msg);
        if flake {
            f.severity = Severity::Warning;
        }
        f.evidence.push(prov_evidence(
            &cx.bundle.files,
            &c.prov,
            &format!("{}: {}", c.name, one_line(&c.message, 200)),
        ));
        f.at = cx.bundle.prow.as_ref().and_then(|p| p.completion);
        out.push(f);
    }
}
