//! A small JSON writer for the tools' machine-readable output: a value built as a tree and
//! printed compactly, its strings escaped so that the text may also sit inside an HTML
//! `<script>` element.

use std::fmt;

/// A JSON value. Object members keep their order.
#[derive(Clone, Debug, PartialEq)]
pub enum Json {
    Null,
    Bool(bool),
    Int(i64),
    /// A non-finite number prints as `null`.
    Num(f64),
    Str(String),
    Array(Vec<Json>),
    Object(Vec<(&'static str, Json)>),
}

impl Json {
    /// An object of `members`.
    pub fn object(members: impl IntoIterator<Item = (&'static str, Json)>) -> Json {
        Json::Object(members.into_iter().collect())
    }

    /// `value` as JSON, `null` when none.
    pub fn or_null<T: Into<Json>>(value: Option<T>) -> Json {
        value.map_or(Json::Null, Into::into)
    }
}

impl From<bool> for Json {
    fn from(b: bool) -> Json {
        Json::Bool(b)
    }
}

impl From<i64> for Json {
    fn from(n: i64) -> Json {
        Json::Int(n)
    }
}

impl From<u32> for Json {
    fn from(n: u32) -> Json {
        Json::Int(i64::from(n))
    }
}

impl From<i32> for Json {
    fn from(n: i32) -> Json {
        Json::Int(i64::from(n))
    }
}

impl From<usize> for Json {
    fn from(n: usize) -> Json {
        Json::Int(i64::try_from(n).unwrap_or(i64::MAX))
    }
}

impl From<f64> for Json {
    fn from(x: f64) -> Json {
        Json::Num(x)
    }
}

impl From<&str> for Json {
    fn from(s: &str) -> Json {
        Json::Str(s.to_string())
    }
}

impl From<String> for Json {
    fn from(s: String) -> Json {
        Json::Str(s)
    }
}

impl<T: Into<Json>> From<Vec<T>> for Json {
    fn from(items: Vec<T>) -> Json {
        Json::Array(items.into_iter().map(Into::into).collect())
    }
}

/// Writes `s` as a JSON string: quotes, backslashes and control characters escaped, and `<`,
/// `>`, `&`, U+2028 and U+2029 as `\u` escapes (harmless in JSON, needed inside a script).
fn write_string(f: &mut fmt::Formatter<'_>, s: &str) -> fmt::Result {
    f.write_str("\"")?;
    for c in s.chars() {
        match c {
            '"' => f.write_str("\\\"")?,
            '\\' => f.write_str("\\\\")?,
            '\n' => f.write_str("\\n")?,
            '\r' => f.write_str("\\r")?,
            '\t' => f.write_str("\\t")?,
            c if (c as u32) < 0x20 || matches!(c, '<' | '>' | '&' | '\u{2028}' | '\u{2029}') => {
                write!(f, "\\u{:04x}", c as u32)?
            }
            c => write!(f, "{c}")?,
        }
    }
    f.write_str("\"")
}

impl fmt::Display for Json {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Json::Null => f.write_str("null"),
            Json::Bool(b) => write!(f, "{b}"),
            Json::Int(n) => write!(f, "{n}"),
            Json::Num(x) if x.is_finite() => write!(f, "{x}"),
            Json::Num(_) => f.write_str("null"),
            Json::Str(s) => write_string(f, s),
            Json::Array(items) => {
                f.write_str("[")?;
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        f.write_str(",")?;
                    }
                    write!(f, "{item}")?;
                }
                f.write_str("]")
            }
            Json::Object(members) => {
                f.write_str("{")?;
                for (i, (key, value)) in members.iter().enumerate() {
                    if i > 0 {
                        f.write_str(",")?;
                    }
                    write_string(f, key)?;
                    write!(f, ":{value}")?;
                }
                f.write_str("}")
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_print_as_compact_json() {
        let v = Json::object([
            ("a", Json::from(vec![1i64, -2])),
            ("b", Json::from(-2.125)),
            ("c", Json::from(3.0)),
            ("d", Json::Null),
            ("e", Json::from("x\"\\\n</script>\u{1}")),
            ("f", Json::or_null(None::<bool>)),
            ("g", Json::from(f64::NAN)),
        ]);
        assert_eq!(
            v.to_string(),
            r#"{"a":[1,-2],"b":-2.125,"c":3,"d":null,"e":"x\"\\\n\u003c/script\u003e\u0001","f":null,"g":null}"#
        );
    }
}
