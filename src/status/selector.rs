//! Kubernetes label selectors as the API machinery evaluates them: `matchLabels` and
//! `matchExpressions` (In, NotIn, Exists, DoesNotExist) ANDed; an empty selector matches
//! every node, a missing one none.

use crate::model::LabelSelector;
use std::collections::BTreeMap;

/// A validated selector.
#[derive(Debug, Clone)]
pub enum Selector {
    Nothing,
    Match(Vec<Requirement>),
}

#[derive(Debug, Clone)]
pub enum Requirement {
    In(String, Vec<String>),
    NotIn(String, Vec<String>),
    Exists(String),
    DoesNotExist(String),
}

impl Selector {
    /// Validates a pool's `nodeSelector`.
    pub fn from_label_selector(s: Option<&LabelSelector>) -> Result<Selector, String> {
        let Some(s) = s else {
            return Ok(Selector::Nothing);
        };
        let mut reqs: Vec<Requirement> = s
            .match_labels
            .iter()
            .map(|(k, v)| Requirement::In(k.clone(), vec![v.clone()]))
            .collect();
        for e in &s.match_expressions {
            let key = e.key.clone();
            let req = match e.operator.as_str() {
                "In" | "NotIn" if e.values.is_empty() => {
                    return Err(format!(
                        "values must not be empty for operator `{}` on key `{key}`",
                        e.operator
                    ));
                }
                "In" => Requirement::In(key, e.values.clone()),
                "NotIn" => Requirement::NotIn(key, e.values.clone()),
                "Exists" | "DoesNotExist" if !e.values.is_empty() => {
                    return Err(format!(
                        "values must be empty for operator `{}` on key `{key}`",
                        e.operator
                    ));
                }
                "Exists" => Requirement::Exists(key),
                "DoesNotExist" => Requirement::DoesNotExist(key),
                op => return Err(format!("`{op}` is not a valid label selector operator")),
            };
            reqs.push(req);
        }
        Ok(Selector::Match(reqs))
    }

    /// Whether a node with these labels is selected.
    pub fn matches(&self, labels: &BTreeMap<String, String>) -> bool {
        match self {
            Selector::Nothing => false,
            Selector::Match(reqs) => reqs.iter().all(|r| match r {
                Requirement::In(k, vs) => labels.get(k).is_some_and(|v| vs.contains(v)),
                Requirement::NotIn(k, vs) => labels.get(k).is_none_or(|v| !vs.contains(v)),
                Requirement::Exists(k) => labels.contains_key(k),
                Requirement::DoesNotExist(k) => !labels.contains_key(k),
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::LabelSelectorRequirement;

    fn labels(kv: &[(&str, &str)]) -> BTreeMap<String, String> {
        kv.iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    }

    fn req(key: &str, op: &str, values: &[&str]) -> LabelSelectorRequirement {
        LabelSelectorRequirement {
            key: key.into(),
            operator: op.into(),
            values: values.iter().map(|v| v.to_string()).collect(),
        }
    }

    #[test]
    fn missing_matches_nothing_and_empty_matches_everything() {
        let l = labels(&[("a", "1")]);
        assert!(!Selector::from_label_selector(None).unwrap().matches(&l));
        let empty = LabelSelector::default();
        assert!(
            Selector::from_label_selector(Some(&empty))
                .unwrap()
                .matches(&l)
        );
    }

    #[test]
    fn expressions_and_labels_are_anded() {
        let mut s = LabelSelector::default();
        s.match_labels
            .insert("node-role.kubernetes.io/worker".into(), "".into());
        s.match_expressions = vec![
            req("zone", "In", &["a", "b"]),
            req("tier", "NotIn", &["gold"]),
            req("gpu", "Exists", &[]),
            req("spot", "DoesNotExist", &[]),
        ];
        let sel = Selector::from_label_selector(Some(&s)).unwrap();
        let base = [
            ("node-role.kubernetes.io/worker", ""),
            ("zone", "a"),
            ("gpu", "1"),
        ];
        assert!(sel.matches(&labels(&base)));
        let mut with = base.to_vec();
        with.push(("tier", "gold"));
        assert!(!sel.matches(&labels(&with)));
        let mut with = base.to_vec();
        with.push(("spot", "yes"));
        assert!(!sel.matches(&labels(&with)));
        assert!(!sel.matches(&labels(&[("zone", "a"), ("gpu", "1")])));
    }

    #[test]
    fn invalid_requirements_are_errors() {
        for r in [
            req("k", "In", &[]),
            req("k", "Exists", &["v"]),
            req("k", "Gt", &["1"]),
        ] {
            let s = LabelSelector {
                match_expressions: vec![r],
                ..Default::default()
            };
            assert!(Selector::from_label_selector(Some(&s)).is_err());
        }
    }
}
