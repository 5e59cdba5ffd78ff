//! The asynchronous front end: a tokio task reads stdin into bounded lines while the engine
//! worker searches on its own thread; one loop hands lines and engine events to the
//! [`Driver`] in order and writes through the single [`Output`]. The end of input exits
//! cleanly. Logs go to stderr through `tracing`.

use super::driver::Driver;
use super::input::Input;
use super::lines::{LineSplitter, MAX_LINE};
use super::{Output, Protocol};
use crate::engine::{Engine, Event, EventSink};
use tokio::io::{AsyncBufReadExt, BufReader};
use tokio::sync::mpsc;

/// Why logging or the I/O of a protocol session could not be set up.
#[derive(Debug, thiserror::Error)]
pub enum FrontendError {
    /// A log level that is not one of the names accepted, and where it came from.
    #[error("bad {origin} level {text:?}: expected off, error, warn, info, debug or trace")]
    LogLevel { origin: &'static str, text: String },
    #[error("cannot start the I/O runtime: {0}")]
    Runtime(std::io::Error),
}

/// Sets up logging to stderr: the level comes from `level` (the `--log` option) if given, else
/// from `RUST_LOG`, else `warn`. Accepts `off`, `error`, `warn`, `info`, `debug`, `trace`.
/// Log lines start with a timestamp, never with a protocol keyword (NBoard merges stderr).
pub fn init_logging(level: Option<&str>) -> Result<(), FrontendError> {
    use tracing_subscriber::filter::LevelFilter;
    let from_env = std::env::var("RUST_LOG").ok();
    let (text, source) = match (level, from_env.as_deref()) {
        (Some(l), _) => (l.to_string(), "--log"),
        (None, Some(e)) if !e.trim().is_empty() => (e.to_string(), "RUST_LOG"),
        _ => ("warn".to_string(), "default"),
    };
    let filter: LevelFilter = match text.trim().parse() {
        Ok(f) => f,
        Err(_) if source == "RUST_LOG" => {
            // RUST_LOG may hold per-module directives meant for other tools: keep the default.
            LevelFilter::WARN
        }
        Err(_) => {
            return Err(FrontendError::LogLevel {
                origin: source,
                text,
            })
        }
    };
    let _ = tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_ansi(false)
        .with_max_level(filter)
        .try_init();
    Ok(())
}

/// Reads stdin line by line into `tx` until the end of input (or a read error).
async fn read_stdin(tx: mpsc::UnboundedSender<Option<Input>>) {
    let mut reader = BufReader::with_capacity(64 * 1024, tokio::io::stdin());
    let mut splitter = LineSplitter::new(MAX_LINE);
    loop {
        let chunk = match reader.fill_buf().await {
            Ok(c) => c,
            Err(e) => {
                tracing::warn!("reading stdin: {e}");
                break;
            }
        };
        if chunk.is_empty() {
            break;
        }
        let (used, line) = splitter.feed(chunk);
        reader.consume(used);
        if let Some(line) = line {
            if tx.send(Some(line)).is_err() {
                return;
            }
        }
    }
    if let Some(last) = splitter.end() {
        let _ = tx.send(Some(last));
    }
    let _ = tx.send(None);
}

/// Runs `proto` on stdin/stdout until `quit` or the end of input. `make_engine` builds the
/// engine around the event sink it is given.
pub fn serve<P: Protocol>(
    proto: P,
    make_engine: impl FnOnce(EventSink) -> Engine,
) -> Result<(), FrontendError> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .build()
        .map_err(FrontendError::Runtime)?;
    runtime.block_on(async move {
        let (event_tx, mut events) = mpsc::unbounded_channel::<Event>();
        let mut engine = make_engine(Box::new(move |e| {
            let _ = event_tx.send(e);
        }));
        // Nothing is answered before the engine can search: a GUI or match runner starts its
        // clock after the handshake, and the first move must not pay for the start-up.
        engine.wait_ready();
        let (line_tx, mut lines) = mpsc::unbounded_channel::<Option<Input>>();
        tokio::spawn(read_stdin(line_tx));
        let mut driver = Driver::new(proto, engine, Output::stdout());
        let mut input_open = true;
        loop {
            driver.pump();
            if driver.is_finished() {
                break;
            }
            tokio::select! {
                biased;
                line = lines.recv(), if input_open => match line {
                    Some(Some(input)) => driver.push(input),
                    Some(None) | None => {
                        input_open = false;
                        driver.push_eof();
                    }
                },
                event = events.recv() => match event {
                    Some(e) => driver.event(e),
                    None => break,
                },
            }
        }
        // Dropping the driver stops any running search and joins the worker thread.
        drop(driver);
    });
    // A blocked stdin read must not keep the process alive.
    runtime.shutdown_background();
    Ok(())
}
