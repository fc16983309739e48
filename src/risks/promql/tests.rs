//! Parsing and evaluation on small series such as a dump gives.

use super::query::nesting;
use super::*;

fn metrics() -> Metrics {
    let mut m = Metrics::default();
    m.push(Sample::new(
        "cluster_infrastructure_provider",
        &[("type", "VSphere"), ("region", "")],
        1.0,
        "infrastructures/cluster.yaml",
    ));
    m.push(Sample::new(
        "cluster_version",
        &[("type", "initial"), ("version", "4.10.3")],
        1.0,
        "clusterversions/version.yaml",
    ));
    m.push(Sample::new(
        "cluster_version",
        &[("type", "current"), ("version", "4.12.16")],
        1.0,
        "clusterversions/version.yaml",
    ));
    for (node, config) in [
        ("m0", "rendered-master-a"),
        ("w0", "rendered-worker-b"),
        ("w1", "rendered-worker-b"),
    ] {
        m.push(Sample::new(
            "mcd_update_state",
            &[("node", node), ("config", config)],
            0.0,
            &format!("nodes/{node}.yaml"),
        ));
    }
    for (name, cond, v) in [
        ("etcd", "Available", 1.0),
        ("etcd", "Degraded", 0.0),
        ("dns", "Available", 1.0),
    ] {
        m.push(Sample::new(
            "cluster_operator_conditions",
            &[("name", name), ("condition", cond)],
            v,
            &format!("clusteroperators/{name}.yaml"),
        ));
    }
    m.derive("kube_node_labels");
    m
}

fn run(q: &str) -> Result<Value, EvalError> {
    Query::parse(q).unwrap().eval(&metrics())
}

fn one(q: &str) -> (Labels, f64) {
    match run(q) {
        Ok(Value::Vector(v)) if v.len() == 1 => (v[0].labels.clone(), v[0].value),
        other => panic!("{q}: {other:?}"),
    }
}

fn values(q: &str) -> Vec<f64> {
    match run(q) {
        Ok(Value::Vector(v)) => v.iter().map(|s| s.value).collect(),
        other => panic!("{q}: {other:?}"),
    }
}

fn labels(pairs: &[(&str, &str)]) -> Labels {
    pairs
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}

#[test]
fn selectors_match_absent_labels_as_empty_and_anchor_regexes() {
    // `_id=""` matches a series without `_id`; an empty label is no label.
    assert_eq!(
        values(r#"cluster_infrastructure_provider{_id="",region=""}"#),
        vec![1.0]
    );
    assert_eq!(
        values(r#"cluster_infrastructure_provider{type=~"Sphere"}"#),
        Vec::<f64>::new()
    );
    assert_eq!(
        values(r#"cluster_infrastructure_provider{type=~"VSphere|None"}"#),
        vec![1.0]
    );
    assert_eq!(
        values(r#"cluster_infrastructure_provider{type!~"VSphere"}"#),
        Vec::<f64>::new()
    );
    assert_eq!(
        values(r#"cluster_infrastructure_provider{type!="AWS"}"#),
        vec![1.0]
    );
    // `config!~"|rendered-master-.*"`: neither empty nor a master's.
    assert_eq!(
        values(r#"mcd_update_state{config!~"|rendered-master-.*"}"#).len(),
        2
    );
    assert_eq!(
        values(r#"{__name__="cluster_version",type="initial"}"#),
        vec![1.0]
    );
}

#[test]
fn aggregations_group_count_sum_max_min_with_by_and_without() {
    assert_eq!(
        one("group(cluster_operator_conditions)"),
        (Labels::new(), 1.0)
    );
    assert_eq!(one("count(cluster_operator_conditions)").1, 3.0);
    assert_eq!(one("sum(cluster_operator_conditions)").1, 2.0);
    assert_eq!(one("max(cluster_operator_conditions)").1, 1.0);
    assert_eq!(one("min(cluster_operator_conditions)").1, 0.0);
    // Groups in order of first appearance.
    assert_eq!(
        values("count by (name) (cluster_operator_conditions)"),
        vec![2.0, 1.0]
    );
    let v = match run("sum without (condition) (cluster_operator_conditions)").unwrap() {
        Value::Vector(v) => v,
        _ => unreachable!(),
    };
    assert_eq!(v[0].labels, labels(&[("name", "etcd")]));
    assert_eq!(v[0].value, 1.0);
    // No series: no group (not a zero).
    assert_eq!(values("group(kube_node_labels)"), Vec::<f64>::new());
}

#[test]
fn topk_keeps_the_samples_and_their_labels_per_group() {
    let (l, v) = one(r#"topk(1, cluster_operator_conditions{name="etcd"})"#);
    assert_eq!(v, 1.0);
    assert_eq!(l.get("condition").map(String::as_str), Some("Available"));
    assert_eq!(
        l.get("__name__").map(String::as_str),
        Some("cluster_operator_conditions")
    );
    assert_eq!(
        values(r#"bottomk(1, cluster_operator_conditions{name="etcd"})"#),
        vec![0.0]
    );
    assert_eq!(values("topk by (node) (1, mcd_update_state)").len(), 3);
    assert_eq!(values("topk(0, mcd_update_state)").len(), 0);
}

#[test]
fn the_zero_times_idiom_gives_one_sample_either_way() {
    // The catalogue's most common shape: a match, or 0 from the same metric.
    let q = |ty: &str| {
        format!(
            r#"group(cluster_infrastructure_provider{{type="{ty}"}}) or 0 * group(cluster_infrastructure_provider)"#
        )
    };
    assert_eq!(one(&q("VSphere")).1, 1.0);
    assert_eq!(one(&q("AWS")).1, 0.0);
    // Unary minus drops the name, keeps the rest.
    assert_eq!(values("-1 * group(cluster_version)"), vec![-1.0]);
    assert_eq!(values("-group(cluster_version)"), vec![-1.0]);
    assert_eq!(run("1 - 0.25 * 2").unwrap(), Value::Scalar(0.5));
}

#[test]
fn comparisons_filter_or_return_bool() {
    assert_eq!(values("cluster_operator_conditions > 0").len(), 2);
    // The vector's value is kept even when it is on the right.
    assert_eq!(values("0 < cluster_operator_conditions"), vec![1.0, 1.0]);
    assert_eq!(
        values("cluster_operator_conditions > bool 0"),
        vec![1.0, 0.0, 1.0]
    );
    // A filtered sample keeps its name; `bool` drops it.
    let (l, _) = one(r#"cluster_version{type="initial"} == 1"#);
    assert!(l.contains_key("__name__"));
    let (l, _) = one(r#"cluster_version{type="initial"} == bool 1"#);
    assert!(!l.contains_key("__name__"));
    assert_eq!(run("1 > bool 2").unwrap(), Value::Scalar(0.0));
}

#[test]
fn set_operators_match_on_labels() {
    assert_eq!(
        values(
            r#"group by (name) (cluster_operator_conditions) and on (name) cluster_operator_conditions{condition="Degraded"}"#
        ),
        vec![1.0]
    );
    assert_eq!(
        values(
            r#"group by (name) (cluster_operator_conditions) unless on (name) cluster_operator_conditions{condition="Degraded"}"#
        ),
        vec![1.0]
    );
    // `or` adds the right side's samples whose labels the left lacks.
    assert_eq!(
        values("group(cluster_version) or group(mcd_update_state)"),
        vec![1.0]
    );
    assert_eq!(
        values("group by (type) (cluster_version) or on () group(mcd_update_state)").len(),
        2
    );
    assert_eq!(
        values(r#"cluster_version{type="x"} or ignoring (type) group by (type) (cluster_version)"#)
            .len(),
        2
    );
}

#[test]
fn one_to_one_and_group_left_matching() {
    // on (): both sides have one sample; the left's labels are kept, only `on`'s.
    let (l, v) = one(
        r#"group by (type) (cluster_infrastructure_provider) * on () group_left (version) group by (version) (cluster_version{type="initial"})"#,
    );
    assert_eq!(v, 1.0);
    assert_eq!(l, labels(&[("type", "VSphere"), ("version", "4.10.3")]));
    let (l, _) =
        one(r#"group by (type) (cluster_infrastructure_provider) * on () group(cluster_version)"#);
    assert_eq!(l, Labels::new());
    // Duplicates on the "one" side are an error, as in Prometheus.
    assert!(matches!(
        run(r#"group(cluster_version) * on () cluster_version"#),
        Err(EvalError::Query(_))
    ));
    // Many on the left without group_left: an error.
    assert!(matches!(
        run(r#"cluster_version * on () group(cluster_version)"#),
        Err(EvalError::Query(_))
    ));
    // group_right mirrors group_left.
    assert_eq!(
        values(r#"group(cluster_version) * on () group_right cluster_version"#).len(),
        2
    );
    // Default matching: every label but the name.
    assert_eq!(
        values(r#"cluster_version * cluster_version"#),
        vec![1.0, 1.0]
    );
}

#[test]
fn label_replace_sets_drops_and_rejects_duplicates() {
    let (l, _) =
        one(r#"label_replace(group(cluster_version{type="initial"}), "born", "yes", "", "")"#);
    assert_eq!(l, labels(&[("born", "yes")]));
    let (l, _) = one(
        r#"label_replace(cluster_version{type="initial"}, "minor", "$1", "version", "4[.]([0-9]+)[.].*")"#,
    );
    assert_eq!(l.get("minor").map(String::as_str), Some("10"));
    // No match: unchanged; an empty result deletes the label.
    let (l, _) =
        one(r#"label_replace(cluster_version{type="initial"}, "type", "", "version", ".*")"#);
    assert!(!l.contains_key("type"));
    assert!(matches!(
        run(r#"label_replace(group by (type) (cluster_version), "type", "x", "", "")"#),
        Err(EvalError::Query(_))
    ));
}

#[test]
fn over_time_functions_drop_the_name_and_absent_makes_a_sample() {
    let (l, v) = one(r#"max_over_time(cluster_version{type="initial"}[1h])"#);
    assert_eq!(v, 1.0);
    assert!(!l.contains_key("__name__"));
    assert_eq!(
        values(r#"absent(cluster_version{type="initial"})"#),
        Vec::<f64>::new()
    );
    let (l, v) = one(r#"absent(cluster_version{type="future"})"#);
    assert_eq!((l, v), (labels(&[("type", "future")]), 1.0));
    assert_eq!(values("vector(1)"), vec![1.0]);
}

#[test]
fn a_metric_the_dump_does_not_give_is_missing_never_empty() {
    let e = run(r#"group(apiserver_storage_objects) or 0 * group(cluster_version)"#).unwrap_err();
    assert_eq!(
        e,
        EvalError::Missing(vec!["apiserver_storage_objects".into()])
    );
    // Derived with no series: evaluated, empty.
    assert_eq!(values("kube_node_labels"), Vec::<f64>::new());
}

#[test]
fn hostile_queries_are_refused_before_parsing() {
    let deep = format!("{}1{}", "(".repeat(65), ")".repeat(65));
    assert!(matches!(Query::parse(&deep), Err(EvalError::Parse(_))));
    assert!(Query::parse(&format!("{}1{}", "(".repeat(64), ")".repeat(64))).is_ok());
    // Brackets inside strings do not count.
    let q = format!(r#"cluster_version{{version=~"{}"}}"#, "(".repeat(100));
    assert_eq!(nesting(&q), 1);
    let long = vec!["cluster_version"; 1000].join(" or ");
    assert!(matches!(Query::parse(&long), Err(EvalError::Parse(_))));
}

#[test]
fn evidence_follows_the_samples() {
    let v = match run(r#"group(cluster_infrastructure_provider) * on () group_left (version) group by (version) (cluster_version{type="initial"})"#).unwrap() {
        Value::Vector(v) => v,
        _ => unreachable!(),
    };
    let e: Vec<&str> = v[0].evidence.iter().map(|s| &**s).collect();
    assert_eq!(
        e,
        vec![
            "clusterversions/version.yaml",
            "infrastructures/cluster.yaml"
        ]
    );
}
