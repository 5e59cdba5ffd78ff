//! Parsers for the trainer's command-line values, and [`BadValue`] when a value does not fit.

/// A command-line value that is not what its option takes.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[error("expected {expected}, got {text:?}")]
pub struct BadValue {
    pub expected: &'static str,
    pub text: String,
}

/// `text` when `parse` accepts it, else [`BadValue`] saying `expected`.
pub(crate) fn parse_value<T>(
    text: &str,
    expected: &'static str,
    parse: impl FnOnce(&str) -> Option<T>,
) -> Result<T, BadValue> {
    parse(text).ok_or_else(|| BadValue {
        expected,
        text: text.to_string(),
    })
}

/// A share in [0, 1].
pub(crate) fn parse_share(text: &str) -> Result<f64, BadValue> {
    parse_value(text, "a share in [0, 1]", |t| {
        t.parse::<f64>().ok().filter(|f| (0.0..=1.0).contains(f))
    })
}

/// A fraction in (0, 1].
pub(crate) fn parse_fraction(text: &str) -> Result<f64, BadValue> {
    parse_value(text, "a fraction in (0, 1]", |t| {
        t.parse::<f64>().ok().filter(|&f| f > 0.0 && f <= 1.0)
    })
}
