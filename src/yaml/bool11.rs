//! YAML 1.1 booleans for the fields oc reads as `bool`, decided per typed field.
//!
//! oc reads saved objects through apimachinery's universal decoder, which turns YAML into JSON
//! with `sigs.k8s.io/yaml` (go-yaml v2, YAML 1.1): a plain `yes`, `no`, `on`, `off`, `y` or
//! `n` (in the case forms go-yaml v2's resolver lists) is a boolean there. The YAML library
//! mglint uses reads YAML 1.2, where they are strings. So:
//!
//! - a field oc types `bool` (a pool's `spec.paused`, a node's `spec.unschedulable`, a
//!   release's `force`) takes those words as oc does: `paused: yes` is a paused pool;
//! - a field oc types `string` keeps the text as written: `channel: yes` is the channel
//!   `yes`. (oc's decoder refuses such a file, `cannot unmarshal bool into Go struct field …
//!   of type string`; mglint reads what was written rather than drop the ClusterVersion.)
//!   After the YAML layer a quoted `"yes"` and a plain `yes` are the same string, so a quoted
//!   word in a `bool` field is taken as the boolean too, where oc would refuse it;
//! - any other text in a `bool` field is an error naming the value.

use serde::Deserialize;
use serde::de::{self, Deserializer};

/// go-yaml v2's booleans (`resolve.go`'s table), true then false.
const TRUE: &[&str] = &[
    "y", "Y", "yes", "Yes", "YES", "true", "True", "TRUE", "on", "On", "ON",
];
const FALSE: &[&str] = &[
    "n", "N", "no", "No", "NO", "false", "False", "FALSE", "off", "Off", "OFF",
];

/// A YAML 1.1 boolean word, or `None`.
pub fn parse(word: &str) -> Option<bool> {
    if TRUE.contains(&word) {
        Some(true)
    } else if FALSE.contains(&word) {
        Some(false)
    } else {
        None
    }
}

#[derive(Deserialize)]
#[serde(untagged)]
enum BoolOrWord {
    Bool(bool),
    Word(String),
}

/// A `bool` field: a boolean, a YAML 1.1 boolean word, or `null` (false).
pub fn de<'de, D: Deserializer<'de>>(d: D) -> Result<bool, D::Error> {
    Ok(de_opt(d)?.unwrap_or_default())
}

/// An optional `bool` field (`null` is `None`).
pub fn de_opt<'de, D: Deserializer<'de>>(d: D) -> Result<Option<bool>, D::Error> {
    match Option::<BoolOrWord>::deserialize(d)? {
        None => Ok(None),
        Some(BoolOrWord::Bool(b)) => Ok(Some(b)),
        Some(BoolOrWord::Word(w)) => parse(&w).map(Some).ok_or_else(|| {
            de::Error::custom(format!(
                "`{}` is not a boolean (true, false, or a YAML 1.1 word such as yes or off)",
                w.chars().take(40).collect::<String>()
            ))
        }),
    }
}

#[cfg(test)]
mod tests {
    use crate::model::{ClusterVersion, MachineConfigPool, Node};

    #[test]
    fn bool_fields_take_yaml_1_1_words_and_string_fields_keep_them() {
        let pool: MachineConfigPool = crate::yaml::from_str(
            "apiVersion: machineconfiguration.openshift.io/v1\nkind: MachineConfigPool\nmetadata:\n  name: worker\nspec:\n  paused: yes\n",
        )
        .unwrap();
        assert!(pool.spec.paused);
        for (word, want) in [
            ("on", true),
            ("Y", true),
            ("OFF", false),
            ("n", false),
            ("No", false),
        ] {
            let node: Node = crate::yaml::from_str(&format!(
                "kind: Node\nmetadata:\n  name: a\nspec:\n  unschedulable: {word}\n"
            ))
            .unwrap();
            assert_eq!(node.spec.unschedulable, want, "{word}");
        }
        let cv: ClusterVersion = crate::yaml::from_str(
            "kind: ClusterVersion\nmetadata:\n  name: version\nspec:\n  channel: yes\n  clusterID: x\n",
        )
        .unwrap();
        assert_eq!(cv.spec.channel, "yes");
        let e = crate::yaml::from_str::<MachineConfigPool>(
            "kind: MachineConfigPool\nspec:\n  paused: maybe\n",
        )
        .unwrap_err();
        assert!(
            e.message.contains("`maybe` is not a boolean"),
            "{}",
            e.message
        );
    }
}
