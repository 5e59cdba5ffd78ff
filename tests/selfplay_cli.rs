//! `wedge selfplay` end to end with the real binary and the shipped weights: a tiny run into a
//! temporary directory, a rerun that plays nothing, `--stats`, and WTHOR starts from the
//! games in `data/wthor`.

#[path = "common/data.rs"]
mod data;

use data::data_path;
use std::path::{Path, PathBuf};
use std::process::Command;

fn wedge(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_wedge"))
        .args(["--threads", "2", "--log", "off"])
        .args(args)
        .output()
        .expect("run wedge");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn temp_dir(name: &str) -> PathBuf {
    let dir =
        std::env::temp_dir().join(format!("wedge-selfplay-cli-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn run_args<'a>(dir: &'a Path, extra: &[&'a str]) -> Vec<&'a str> {
    let mut args = vec![
        "selfplay",
        "--out",
        dir.to_str().unwrap(),
        "--games",
        "3",
        "--batch-size",
        "2",
        "--depth",
        "1",
        "--exact-empties",
        "6",
        "--game-hash",
        "1",
        "--quiet",
    ];
    args.extend_from_slice(extra);
    args
}

#[test]
fn selfplay_command_runs_resumes_and_reports() {
    let dir = temp_dir("run");
    let (ok, out, err) = wedge(&run_args(&dir, &[]));
    assert!(ok, "{out}{err}");
    assert!(
        out.contains("2 batches (0 already there, 0 replaced), 3 games played"),
        "{out}"
    );
    assert!(dir.join("batch-000000.wsp").is_file());
    assert!(dir.join("batch-000001.wsp").is_file());
    let (ok, out, err) = wedge(&run_args(&dir, &[]));
    assert!(ok, "{out}{err}");
    assert!(
        out.contains("2 batches (2 already there, 0 replaced), 0 games played"),
        "{out}"
    );
    // Other settings into the same directory: refused, naming the file.
    let (ok, _, err) = wedge(&run_args(&dir, &["--opening-plies", "2-3"]));
    assert!(!ok);
    assert!(
        err.contains("batch-000000.wsp") && err.contains("settings"),
        "{err}"
    );
    let (ok, out, err) = wedge(&["selfplay", "--stats", dir.to_str().unwrap()]);
    assert!(ok, "{out}{err}");
    assert!(
        out.contains("2 batch files (0 unreadable), 3 games"),
        "{out}"
    );
    assert!(
        out.contains("exact values other than the final result: 0"),
        "{out}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn selfplay_command_leaves_wthor_games() {
    let wthor = data_path("wthor");
    let dir = temp_dir("wthor");
    let extra = ["--wthor", wthor.to_str().unwrap(), "--wthor-ratio", "1"];
    let (ok, out, err) = wedge(&run_args(&dir, &extra));
    assert!(ok, "{out}{err}");
    let (ok, out, err) = wedge(&["selfplay", "--stats", dir.to_str().unwrap()]);
    assert!(ok, "{out}{err}");
    assert!(
        out.contains("0 from random openings, 3 leaving WTHOR games"),
        "{out}"
    );
    assert!(out.contains("WTHOR starts 100.0%"), "{out}");
    std::fs::remove_dir_all(&dir).unwrap();
}
