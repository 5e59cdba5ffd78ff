//! The single ordered writer: every protocol message goes through one `Output`, written whole
//! and flushed at once, so nothing is reordered or left in a buffer. A failed write (the reader
//! went away) is remembered and ends the session.

use std::io::Write;
use std::sync::{Arc, Mutex};

/// Where protocol messages go (stdout, or a buffer in tests).
pub struct Output {
    sink: Box<dyn Write + Send>,
    failed: bool,
}

impl Output {
    pub fn new(sink: Box<dyn Write + Send>) -> Output {
        Output {
            sink,
            failed: false,
        }
    }

    /// Standard output.
    pub fn stdout() -> Output {
        Output::new(Box::new(std::io::stdout()))
    }

    /// A writer into a shared buffer (tests read it back).
    pub fn buffer() -> (Output, SharedBuffer) {
        let buf = SharedBuffer::default();
        (Output::new(Box::new(buf.clone())), buf)
    }

    /// Writes one line (a newline is added) and flushes.
    pub fn line(&mut self, text: &str) {
        self.message(&format!("{text}\n"));
    }

    /// Writes `text` exactly as given (several lines at once) and flushes.
    pub fn message(&mut self, text: &str) {
        if self.failed {
            return;
        }
        let result = self
            .sink
            .write_all(text.as_bytes())
            .and_then(|()| self.sink.flush());
        if let Err(e) = result {
            tracing::warn!("cannot write the output ({e}); stopping");
            self.failed = true;
        }
    }

    /// True once a write failed.
    pub fn failed(&self) -> bool {
        self.failed
    }
}

/// A byte buffer shared between an [`Output`] and whoever reads it back.
#[derive(Clone, Default)]
pub struct SharedBuffer(Arc<Mutex<Vec<u8>>>);

impl SharedBuffer {
    /// Everything written so far, as text.
    pub fn text(&self) -> String {
        let bytes = self.0.lock().map(|b| b.clone()).unwrap_or_default();
        String::from_utf8_lossy(&bytes).into_owned()
    }
}

impl Write for SharedBuffer {
    fn write(&mut self, data: &[u8]) -> std::io::Result<usize> {
        match self.0.lock() {
            Ok(mut b) => {
                b.extend_from_slice(data);
                Ok(data.len())
            }
            Err(_) => Err(std::io::Error::other("buffer poisoned")),
        }
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}
