//! The framing the queue's keyed messages share (valuation and solve units and their
//! results): an 8-byte magic, a version, the body and an FNV-1a 64 trailer; and the one typed
//! error a message that cannot be used is refused with.

use wedge_core::board::Board;
use wedge_core::framing::{verify_trailer, Reader, Truncated};

/// Why a message is not a unit or result we can use.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MessageError {
    #[error("not a Wedge {kind} message (magic {found:02x?})")]
    BadMagic { kind: &'static str, found: Vec<u8> },
    #[error("format version {found}, this build reads {expected} (update the worker)")]
    Version { found: u32, expected: u32 },
    #[error("checksum mismatch: stored {stored:#018x}, computed {computed:#018x} (corrupted)")]
    Checksum { stored: u64, computed: u64 },
    #[error("truncated ({len} bytes)")]
    Truncated { len: usize },
    #[error("{extra} bytes after the last field")]
    Trailing { extra: usize },
    #[error("{what}")]
    Invalid { what: String },
}

pub(crate) fn invalid(what: impl Into<String>) -> MessageError {
    MessageError::Invalid { what: what.into() }
}

/// The kind a magic names, for messages.
fn kind_of(magic: &[u8; 8]) -> &'static str {
    match &magic[..7] {
        b"WEDGEVU" | b"WEDGEVR" => "valuation",
        b"WEDGESU" | b"WEDGESR" => "solve",
        _ => "queue",
    }
}

/// The body of a message with `magic` (magic, `version` and trailer checked), and its reader.
pub(crate) fn open<'a>(
    bytes: &'a [u8],
    magic: &[u8; 8],
    version: u32,
) -> Result<Reader<'a>, MessageError> {
    if bytes.len() < 8 || bytes[..8] != *magic {
        return Err(MessageError::BadMagic {
            kind: kind_of(magic),
            found: bytes[..bytes.len().min(8)].to_vec(),
        });
    }
    let body = verify_trailer(bytes).map_err(|m| MessageError::Checksum {
        stored: m.stored,
        computed: m.computed,
    })?;
    let mut r = Reader::new(body);
    r.take(8).map_err(truncated(bytes))?;
    let found = r.u32().map_err(truncated(bytes))?;
    if found != version {
        return Err(MessageError::Version {
            found,
            expected: version,
        });
    }
    Ok(r)
}

/// The body of a result message with `magic` and `version` after its unit's key, checked to
/// be `key` (the answer of another unit is refused).
pub(crate) fn open_result<'a>(
    bytes: &'a [u8],
    magic: &[u8; 8],
    version: u32,
    key: u64,
) -> Result<Reader<'a>, MessageError> {
    let mut r = open(bytes, magic, version)?;
    let found = r.u64().map_err(truncated(bytes))?;
    if found != key {
        return Err(invalid(format!(
            "the result of unit {found:016x}, not of {key:016x}"
        )));
    }
    Ok(r)
}

/// The error of a message of `bytes` that ends too soon.
pub(crate) fn truncated(bytes: &[u8]) -> impl Fn(Truncated) -> MessageError + '_ {
    move |_| MessageError::Truncated { len: bytes.len() }
}

/// A board from its two bitboards, refused when they overlap.
pub(crate) fn read_board(r: &mut Reader<'_>) -> Result<Option<Board>, Truncated> {
    let (player, opponent) = (r.u64()?, r.u64()?);
    Ok((player & opponent == 0).then(|| Board::new(player, opponent)))
}

/// Fails with [`MessageError::Trailing`] when `r` has bytes left.
pub(crate) fn finished(r: &Reader<'_>) -> Result<(), MessageError> {
    match r.remaining() {
        0 => Ok(()),
        extra => Err(MessageError::Trailing { extra }),
    }
}
