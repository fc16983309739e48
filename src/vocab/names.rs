//! An enum's names from its one declaration, serde's: [`serde_name`] gives the name a unit
//! variant serializes as (after `rename_all` and `rename`), so an enum's `as_str` / `name`
//! is not a second table spelling the same words; [`from_serde_name`] reads a name back
//! through the enum's own `Deserialize`.

use serde::Serialize;
use serde::de::{DeserializeOwned, IntoDeserializer};
use serde::ser::{self, Impossible};

/// The name `value`, a unit variant, serializes as: `Severity::Warning` with
/// `#[serde(rename_all = "lowercase")]` is `"warning"`. `""` for anything that is not a unit
/// variant (a mistake of the caller's, which the enum's own test shows).
pub fn serde_name<T: Serialize + ?Sized>(value: &T) -> &'static str {
    value.serialize(UnitName).unwrap_or_default()
}

/// The unit variant whose serde name is `name` (as the enum's `Deserialize` reads it,
/// aliases included), `None` for another word.
pub fn from_serde_name<T: DeserializeOwned>(name: &str) -> Option<T> {
    let d: serde::de::value::StrDeserializer<'_, serde::de::value::Error> =
        name.into_deserializer();
    T::deserialize(d).ok()
}

/// A serializer that takes a unit variant's name and refuses everything else.
struct UnitName;

/// What [`UnitName`] refuses.
#[derive(Debug)]
struct NotUnit;

impl std::fmt::Display for NotUnit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("not a unit variant")
    }
}

impl std::error::Error for NotUnit {}

impl ser::Error for NotUnit {
    fn custom<M: std::fmt::Display>(_: M) -> Self {
        NotUnit
    }
}

type Refused = Impossible<&'static str, NotUnit>;

impl ser::Serializer for UnitName {
    type Ok = &'static str;
    type Error = NotUnit;
    type SerializeSeq = Refused;
    type SerializeTuple = Refused;
    type SerializeTupleStruct = Refused;
    type SerializeTupleVariant = Refused;
    type SerializeMap = Refused;
    type SerializeStruct = Refused;
    type SerializeStructVariant = Refused;

    fn serialize_unit_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
    ) -> Result<&'static str, NotUnit> {
        Ok(variant)
    }

    fn serialize_bool(self, _: bool) -> Result<&'static str, NotUnit> {
        Err(NotUnit)
    }
    fn serialize_i8(self, _: i8) -> Result<&'static str, NotUnit> {
        Err(NotUnit)
    }
    fn serialize_i16(self, _: i16) -> Result<&'static str, NotUnit> {
        Err(NotUnit)
    }
    fn serialize_i32(self, _: i32) -> Result<&'static str, NotUnit> {
        Err(NotUnit)
    }
    fn serialize_i64(self, _: i64) -> Result<&'static str, NotUnit> {
        Err(NotUnit)
    }
    fn serialize_u8(self, _: u8) -> Result<&'static str, NotUnit> {
        Err(NotUnit)
    }
    fn serialize_u16(self, _: u16) -> Result<&'static str, NotUnit> {
        Err(NotUnit)
    }
    fn serialize_u32(self, _: u32) -> Result<&'static str, NotUnit> {
        Err(NotUnit)
    }
    fn serialize_u64(self, _: u64) -> Result<&'static str, NotUnit> {
        Err(NotUnit)
    }
    fn serialize_f32(self, _: f32) -> Result<&'static str, NotUnit> {
        Err(NotUnit)
    }
    fn serialize_f64(self, _: f64) -> Result<&'static str, NotUnit> {
        Err(NotUnit)
    }
    fn serialize_char(self, _: char) -> Result<&'static str, NotUnit> {
        Err(NotUnit)
    }
    fn serialize_str(self, _: &str) -> Result<&'static str, NotUnit> {
        Err(NotUnit)
    }
    fn serialize_bytes(self, _: &[u8]) -> Result<&'static str, NotUnit> {
        Err(NotUnit)
    }
    fn serialize_none(self) -> Result<&'static str, NotUnit> {
        Err(NotUnit)
    }
    fn serialize_some<T: Serialize + ?Sized>(self, _: &T) -> Result<&'static str, NotUnit> {
        Err(NotUnit)
    }
    fn serialize_unit(self) -> Result<&'static str, NotUnit> {
        Err(NotUnit)
    }
    fn serialize_unit_struct(self, _: &'static str) -> Result<&'static str, NotUnit> {
        Err(NotUnit)
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        _: &T,
    ) -> Result<&'static str, NotUnit> {
        Err(NotUnit)
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: &T,
    ) -> Result<&'static str, NotUnit> {
        Err(NotUnit)
    }
    fn serialize_seq(self, _: Option<usize>) -> Result<Refused, NotUnit> {
        Err(NotUnit)
    }
    fn serialize_tuple(self, _: usize) -> Result<Refused, NotUnit> {
        Err(NotUnit)
    }
    fn serialize_tuple_struct(self, _: &'static str, _: usize) -> Result<Refused, NotUnit> {
        Err(NotUnit)
    }
    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Refused, NotUnit> {
        Err(NotUnit)
    }
    fn serialize_map(self, _: Option<usize>) -> Result<Refused, NotUnit> {
        Err(NotUnit)
    }
    fn serialize_struct(self, _: &'static str, _: usize) -> Result<Refused, NotUnit> {
        Err(NotUnit)
    }
    fn serialize_struct_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Refused, NotUnit> {
        Err(NotUnit)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Deserialize;

    #[derive(Debug, PartialEq, Serialize, Deserialize)]
    #[serde(rename_all = "kebab-case")]
    enum Shape {
        MachineConfigPool,
        #[serde(rename = "cv", alias = "clusterversion")]
        ClusterVersion,
        Wrapped(u8),
    }

    #[test]
    fn unit_variants_are_named_as_serde_writes_them() {
        assert_eq!(serde_name(&Shape::MachineConfigPool), "machine-config-pool");
        assert_eq!(serde_name(&Shape::ClusterVersion), "cv");
        // What is not a unit variant has no name.
        assert_eq!(serde_name(&Shape::Wrapped(1)), "");
        assert_eq!(serde_name("text"), "");
        assert_eq!(
            serde_json::to_string(&Shape::MachineConfigPool).unwrap(),
            format!("\"{}\"", serde_name(&Shape::MachineConfigPool))
        );
    }

    #[test]
    fn names_read_back_through_deserialize() {
        assert_eq!(
            from_serde_name::<Shape>("machine-config-pool"),
            Some(Shape::MachineConfigPool)
        );
        assert_eq!(
            from_serde_name::<Shape>("clusterversion"),
            Some(Shape::ClusterVersion)
        );
        assert_eq!(from_serde_name::<Shape>("MachineConfigPool"), None);
        assert_eq!(from_serde_name::<Shape>("wrapped"), None);
    }

    /// The vocabulary's named enums keep the words the JSON documents and rule files use
    /// (docs/schemas, docs/known-issue-rules.md).
    #[test]
    fn vocabulary_names_are_the_documented_words() {
        use crate::vocab::FileKind;
        use crate::vocab::mg_path::LogFile;
        use crate::vocab::severity::Severity;
        let kinds = [
            (FileKind::Resource, "resource"),
            (FileKind::CvoLog, "cvo-log"),
            (FileKind::Intervals, "intervals"),
            (FileKind::TestLog, "test-log"),
            (FileKind::Junit, "junit"),
            (FileKind::Timestamp, "timestamp"),
            (FileKind::GatherVersion, "gather-version"),
            (FileKind::ProwMeta, "prow-meta"),
            (FileKind::NestedArchive, "nested-archive"),
            (FileKind::PodLog, "pod-log"),
        ];
        for (k, word) in kinds {
            assert_eq!(k.name(), word);
            assert_eq!(serde_json::to_string(&k).unwrap(), format!("\"{word}\""));
        }
        for (f, word) in [
            (LogFile::Current, "current"),
            (LogFile::Previous, "previous"),
            (LogFile::Rotated, "rotated"),
        ] {
            assert_eq!(f.name(), word);
            assert_eq!(from_serde_name::<LogFile>(word), Some(f));
        }
        for (s, word) in [
            (Severity::Error, "error"),
            (Severity::Warning, "warning"),
            (Severity::Info, "info"),
        ] {
            assert_eq!(s.as_str(), word);
            assert_eq!(from_serde_name::<Severity>(word), Some(s));
        }
        assert_eq!(from_serde_name::<Severity>("warn"), None);
    }
}
