//! What the driver is fed: an input line, or a line refused as it was framed.

/// One unit of input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Input {
    /// A line without its line ending (invalid UTF-8 replaced).
    Line(String),
    /// A line refused as it was framed: no protocol reads it, each answers with its error.
    Refused(Refused),
}

/// Why a line was refused before any protocol read it (the message is the protocols' error).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Refused {
    /// Longer than the limit, dropped; its length in bytes.
    #[error("line of {0} bytes is too long")]
    Overlong(usize),
    /// Holding a NUL byte, which no command has (the line, invalid UTF-8 replaced): nothing of
    /// it is run, so no part after a NUL passes for a command or an argument.
    #[error("line holds a NUL byte")]
    Nul(String),
}
