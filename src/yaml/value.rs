//! Deserializes any document (YAML or JSON) into a `serde_json::Value` while noting
//! duplicate mapping keys, which YAML forbids and strict loaders reject: the later value is
//! kept and the duplicate is reported, instead of failing the whole file. The value built
//! is bounded by a [`Budget`] (values plus string bytes), so aliases cannot expand a small
//! text into an unbounded tree: the bound is on the expanded size, not on alias jumps.

use serde::de::{DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Number, Value};
use std::cell::{Cell, RefCell};
use std::fmt;

/// How much value may be built: each value costs one unit and each string its length.
pub struct Budget {
    left: Cell<usize>,
    /// The bound, for the message.
    pub limit: usize,
    tripped: Cell<bool>,
}

impl Budget {
    pub fn new(limit: usize) -> Budget {
        Budget {
            left: Cell::new(limit),
            limit,
            tripped: Cell::new(false),
        }
    }

    /// What is left to build.
    pub fn left(&self) -> usize {
        self.left.get()
    }

    /// True when building stopped at the bound.
    pub fn tripped(&self) -> bool {
        self.tripped.get()
    }

    /// Takes `n` when that much is left, without tripping: a reader that can give up (the
    /// YAML shortcut) pays for what it built at the end, and only when it can, so that the
    /// library reading the text after it starts from the same budget.
    pub fn spend(&self, n: usize) -> bool {
        let left = self.left.get();
        if n > left {
            return false;
        }
        self.left.set(left - n);
        true
    }

    fn charge<E: serde::de::Error>(&self, n: usize) -> Result<(), E> {
        let left = self.left.get();
        if n > left {
            self.tripped.set(true);
            self.left.set(0);
            return Err(E::custom(format!(
                "aliases expand past the bound of {} values and string bytes",
                self.limit
            )));
        }
        self.left.set(left - n);
        Ok(())
    }
}

/// The duplicate keys of a text: how many, and the first few distinct ones (a text with
/// 200k duplicates costs a counter, not 200k strings).
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Dups {
    pub count: usize,
    pub first: Vec<String>,
}

impl Dups {
    /// Distinct keys kept for the message.
    pub const KEEP: usize = 3;

    fn note(&mut self, k: String) {
        self.count += 1;
        if self.first.len() < Self::KEEP && !self.first.contains(&k) {
            self.first.push(k);
        }
    }
}

/// Collects duplicate keys while building the value.
pub struct DupSeed<'a> {
    pub dups: &'a RefCell<Dups>,
    pub budget: &'a Budget,
}

impl<'de> DeserializeSeed<'de> for DupSeed<'_> {
    type Value = Value;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        d.deserialize_any(ValueVisitor {
            dups: self.dups,
            budget: self.budget,
        })
    }
}

struct ValueVisitor<'a> {
    dups: &'a RefCell<Dups>,
    budget: &'a Budget,
}

impl<'de> Visitor<'de> for ValueVisitor<'_> {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any value")
    }
    fn visit_bool<E: serde::de::Error>(self, v: bool) -> Result<Value, E> {
        self.budget.charge(1)?;
        Ok(Value::Bool(v))
    }
    fn visit_i64<E: serde::de::Error>(self, v: i64) -> Result<Value, E> {
        self.budget.charge(1)?;
        Ok(Value::Number(v.into()))
    }
    fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<Value, E> {
        self.budget.charge(1)?;
        Ok(Value::Number(v.into()))
    }
    fn visit_i128<E: serde::de::Error>(self, v: i128) -> Result<Value, E> {
        self.budget.charge(1)?;
        i64::try_from(v)
            .map(|x| Value::Number(x.into()))
            .map_err(|_| E::custom(format!("number {v} out of range")))
    }
    fn visit_u128<E: serde::de::Error>(self, v: u128) -> Result<Value, E> {
        self.budget.charge(1)?;
        u64::try_from(v)
            .map(|x| Value::Number(x.into()))
            .map_err(|_| E::custom(format!("number {v} out of range")))
    }
    fn visit_f64<E: serde::de::Error>(self, v: f64) -> Result<Value, E> {
        self.budget.charge(1)?;
        Number::from_f64(v)
            .map(Value::Number)
            .ok_or_else(|| E::custom("number out of range"))
    }
    fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<Value, E> {
        self.budget.charge(1 + v.len())?;
        Ok(Value::String(v.to_string()))
    }
    fn visit_string<E: serde::de::Error>(self, v: String) -> Result<Value, E> {
        self.budget.charge(1 + v.len())?;
        Ok(Value::String(v))
    }
    fn visit_none<E: serde::de::Error>(self) -> Result<Value, E> {
        self.budget.charge(1)?;
        Ok(Value::Null)
    }
    fn visit_unit<E: serde::de::Error>(self) -> Result<Value, E> {
        self.budget.charge(1)?;
        Ok(Value::Null)
    }
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        DupSeed {
            dups: self.dups,
            budget: self.budget,
        }
        .deserialize(d)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        self.budget.charge(1)?;
        let mut v = Vec::new();
        let seed = || DupSeed {
            dups: self.dups,
            budget: self.budget,
        };
        while let Some(x) = seq.next_element_seed(seed())? {
            v.push(x);
        }
        Ok(Value::Array(v))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        self.budget.charge(1)?;
        let mut m = Map::new();
        while let Some(k) = map.next_key_seed(KeySeed)? {
            self.budget.charge(k.len())?;
            let v = map.next_value_seed(DupSeed {
                dups: self.dups,
                budget: self.budget,
            })?;
            if m.contains_key(&k) {
                self.dups.borrow_mut().note(k.clone());
            }
            m.insert(k, v);
        }
        Ok(Value::Object(m))
    }
}

/// Map keys as strings (YAML allows scalar keys of other types; they are stringified).
struct KeySeed;

impl<'de> DeserializeSeed<'de> for KeySeed {
    type Value = String;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<String, D::Error> {
        d.deserialize_any(KeyVisitor)
    }
}

struct KeyVisitor;

impl Visitor<'_> for KeyVisitor {
    type Value = String;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a mapping key")
    }
    fn visit_str<E>(self, v: &str) -> Result<String, E> {
        Ok(v.to_string())
    }
    fn visit_string<E>(self, v: String) -> Result<String, E> {
        Ok(v)
    }
    fn visit_bool<E>(self, v: bool) -> Result<String, E> {
        Ok(v.to_string())
    }
    fn visit_i64<E>(self, v: i64) -> Result<String, E> {
        Ok(v.to_string())
    }
    fn visit_u64<E>(self, v: u64) -> Result<String, E> {
        Ok(v.to_string())
    }
    fn visit_f64<E>(self, v: f64) -> Result<String, E> {
        Ok(v.to_string())
    }
    fn visit_unit<E>(self) -> Result<String, E> {
        Ok("null".to_string())
    }
}

/// Walks a document charging the [`Budget`] as [`DupSeed`] does, building nothing: what a
/// text expands to is measured in constant memory (a million aliases of one event, checked
/// by building their values first, held 600 MB before the bound tripped).
pub struct CountSeed<'a> {
    pub budget: &'a Budget,
}

impl<'de> DeserializeSeed<'de> for CountSeed<'_> {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_any(CountVisitor {
            budget: self.budget,
        })
    }
}

struct CountVisitor<'a> {
    budget: &'a Budget,
}

impl<'de> Visitor<'de> for CountVisitor<'_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any value")
    }
    fn visit_bool<E: serde::de::Error>(self, _: bool) -> Result<(), E> {
        self.budget.charge(1)
    }
    fn visit_i64<E: serde::de::Error>(self, _: i64) -> Result<(), E> {
        self.budget.charge(1)
    }
    fn visit_u64<E: serde::de::Error>(self, _: u64) -> Result<(), E> {
        self.budget.charge(1)
    }
    fn visit_i128<E: serde::de::Error>(self, _: i128) -> Result<(), E> {
        self.budget.charge(1)
    }
    fn visit_u128<E: serde::de::Error>(self, _: u128) -> Result<(), E> {
        self.budget.charge(1)
    }
    fn visit_f64<E: serde::de::Error>(self, _: f64) -> Result<(), E> {
        self.budget.charge(1)
    }
    fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<(), E> {
        self.budget.charge(1 + v.len())
    }
    fn visit_none<E: serde::de::Error>(self) -> Result<(), E> {
        self.budget.charge(1)
    }
    fn visit_unit<E: serde::de::Error>(self) -> Result<(), E> {
        self.budget.charge(1)
    }
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        CountSeed {
            budget: self.budget,
        }
        .deserialize(d)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        self.budget.charge(1)?;
        while seq
            .next_element_seed(CountSeed {
                budget: self.budget,
            })?
            .is_some()
        {}
        Ok(())
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        self.budget.charge(1)?;
        while let Some(k) = map.next_key_seed(KeySeed)? {
            self.budget.charge(k.len())?;
            map.next_value_seed(CountSeed {
                budget: self.budget,
            })?;
        }
        Ok(())
    }
}
