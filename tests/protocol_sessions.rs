//! Snapshot tests of whole protocol sessions: every script under `protocol-tests/{nboard,gtp,
//! console}/` is run in-process through the real driver and engine worker (heuristic
//! evaluation, one thread, fixed depths, times reported as 0) and its transcript compared with
//! `protocol-tests/snapshots/`. Update with `INSTA_UPDATE=always cargo test --test
//! protocol_sessions` and review the diff. `$TMP` in a script stands for a fresh temporary
//! directory, removed afterwards (the transcript shows `$TMP`).

use std::path::{Path, PathBuf};
use std::sync::Arc;
use wedge::engine::{Engine, EngineOptions};
use wedge::eval::heuristic::Heuristic;
use wedge::protocol::console::Console;
use wedge::protocol::gtp::Gtp;
use wedge::protocol::nboard::Nboard;
use wedge::protocol::script::run_script;
use wedge::search::Searcher;

fn engine(sink: wedge::engine::EventSink) -> Engine {
    let searcher = Searcher::new(Arc::new(Heuristic), 4, 1);
    Engine::new(
        searcher,
        EngineOptions {
            zero_times: true,
            ..Default::default()
        },
        sink,
    )
}

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("protocol-tests")
}

fn scripts(protocol: &str) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(root().join(protocol))
        .expect("protocol-tests directory")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "txt"))
        .collect();
    v.sort();
    v
}

/// A temporary directory for one script's files, removed when dropped (also on a failure).
struct TempDir(PathBuf);

impl TempDir {
    fn new(protocol: &str, script: &Path) -> TempDir {
        let stem = script.file_stem().unwrap().to_string_lossy();
        let dir = std::env::temp_dir().join(format!(
            "wedge-session-{protocol}-{stem}-{}",
            std::process::id()
        ));
        std::fs::create_dir_all(&dir).expect("temporary directory");
        TempDir(dir)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// `bytes` with every `from` replaced by `to` (scripts may hold bytes that are not UTF-8).
fn replace_bytes(bytes: &[u8], from: &[u8], to: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i..].starts_with(from) {
            out.extend_from_slice(to);
            i += from.len();
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    out
}

fn run(protocol: &str) -> usize {
    let files = scripts(protocol);
    for file in &files {
        let tmp = TempDir::new(protocol, file);
        let tmp_text = tmp.0.to_string_lossy().into_owned();
        let script = replace_bytes(
            &std::fs::read(file).expect("script"),
            b"$TMP",
            tmp_text.as_bytes(),
        );
        let script = &script[..];
        let started = std::time::Instant::now();
        let transcript = match protocol {
            "nboard" => run_script(Nboard::new(), engine, script),
            "gtp" => run_script(Gtp::new(4), engine, script),
            _ => run_script(Console::new(4), engine, script),
        }
        .replace(&tmp_text, "$TMP");
        eprintln!("{}: {:?}", file.display(), started.elapsed());
        let name = format!(
            "{protocol}__{}",
            file.file_stem().unwrap().to_string_lossy()
        );
        insta::with_settings!({
            snapshot_path => root().join("snapshots"),
            prepend_module_to_snapshot => false,
            omit_expression => true,
            description => format!("protocol-tests/{protocol}/{}", file.file_name().unwrap().to_string_lossy()),
        }, {
            insta::assert_snapshot!(name, transcript);
        });
    }
    files.len()
}

#[test]
fn nboard_sessions() {
    assert!(run("nboard") >= 15);
}

#[test]
fn gtp_sessions() {
    assert!(run("gtp") >= 15);
}

#[test]
fn console_sessions() {
    assert!(run("console") >= 10);
}
