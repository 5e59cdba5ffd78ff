//! Everything that can stop a queue command, as one typed error.

use crate::train::selfplay::SelfplayError;

#[derive(Debug, thiserror::Error)]
pub enum DistribError {
    /// The server could not be reached or refused the connection.
    #[error(
        "cannot connect to the queue at {url}: {message} (is `nats-server -js` running there?)"
    )]
    Connect { url: String, message: String },
    /// A JetStream request failed: what we were doing and the server's or client's answer.
    #[error("queue: {what}: {message}")]
    Nats { what: String, message: String },
    /// A file from the object store that is not what its name says.
    #[error("object {name}: {message}")]
    Object { name: String, message: String },
    #[error("{0}")]
    Selfplay(#[from] SelfplayError),
    #[error("{}: {source}", path.display())]
    Io {
        path: std::path::PathBuf,
        source: std::io::Error,
    },
    #[error("cannot start the async runtime: {0}")]
    Runtime(String),
    /// Arguments that parse but cannot be served by the queue.
    #[error("{0}")]
    Usage(String),
}

/// Maps a client error to [`DistribError::Nats`] with what we were doing.
pub(crate) fn nats<E: std::fmt::Display>(
    what: impl Into<String>,
) -> impl FnOnce(E) -> DistribError {
    let what = what.into();
    move |e| DistribError::Nats {
        what,
        message: e.to_string(),
    }
}
