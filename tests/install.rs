//! `wedge install` into an empty prefix: the installed executable, started from a folder that
//! holds nothing else, loads the installed weights and book (its log names them: the source
//! tree it was built from is looked at only after them) and plays over NBoard and GTP.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

fn temp_dir(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("wedge-install-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Runs the installed `wedge ARGS` in `cwd` with `input` on stdin; (stdout, stderr, success).
fn run_installed(
    bin: &Path,
    cwd: &Path,
    home: &Path,
    args: &[&str],
    input: &str,
) -> (String, String, bool) {
    let mut child = Command::new(bin)
        .args(args)
        .current_dir(cwd)
        .env_remove("WEDGE_HOME")
        .env_remove("XDG_DATA_HOME")
        .env("HOME", home)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start the installed wedge");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        out.status.success(),
    )
}

#[test]
fn the_installed_engine_plays_from_an_empty_folder() {
    let dir = temp_dir("gui");
    let prefix = dir.join("prefix");
    let out = Command::new(env!("CARGO_BIN_EXE_wedge"))
        .args(["install", "--prefix", prefix.to_str().unwrap()])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let bin = prefix.join("bin/wedge");
    let data = prefix.join("share/wedge");
    for f in [
        "weights/default.wts",
        "weights/default.probcut",
        "weights/solver.wts",
        "weights/solver.probcut",
        "books/default.book",
    ] {
        let installed = data.join(f);
        assert_eq!(
            std::fs::read(&installed).unwrap(),
            std::fs::read(Path::new(env!("CARGO_MANIFEST_DIR")).join(f)).unwrap(),
            "{f}"
        );
        assert!(
            stdout.contains(&installed.display().to_string()),
            "{stdout}"
        );
    }
    assert!(
        stdout.contains(&format!("{} --hash 64 nboard", bin.display())),
        "{stdout}"
    );

    let empty = dir.join("empty");
    let home = dir.join("home");
    std::fs::create_dir_all(&empty).unwrap();
    std::fs::create_dir_all(&home).unwrap();
    let nboard = "nboard 2\nset depth 2\n\
        set game (;GM[Othello]PC[NBoard]TY[8]BO[8 ---------------------------O*------*O--------------------------- *];)\n\
        ping 1\nhint 4\ngo\n";
    let (out, err, ok) = run_installed(
        &bin,
        &empty,
        &home,
        &["--log", "info", "--hash", "16", "nboard"],
        nboard,
    );
    assert!(ok, "{out}{err}");
    // The first move comes from the installed book, with the installed weights loaded.
    assert!(out.lines().any(|l| l.starts_with("book ")), "{out}");
    assert!(out.lines().any(|l| l.starts_with("=== ")), "{out}");
    let weights = data.join("weights/default.wts").display().to_string();
    let book = data.join("books/default.book").display().to_string();
    assert!(err.contains(&format!("weights {weights}")), "{err}");
    assert!(err.contains(&format!("book {book}")), "{err}");

    let (out, err, ok) = run_installed(
        &bin,
        &empty,
        &home,
        &["--hash", "16", "gtp"],
        "name\ngenmove b\nquit\n",
    );
    assert!(ok, "{out}{err}");
    assert!(out.starts_with("= Wedge"), "{out}");
    assert!(
        out.lines()
            .any(|l| matches!(l, "= D3" | "= C4" | "= F5" | "= E6")),
        "{out}"
    );
    // Nothing was written beside the user's folder.
    assert_eq!(std::fs::read_dir(&empty).unwrap().count(), 0);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn install_names_the_folder_it_cannot_write() {
    let dir = temp_dir("readonly");
    let file = dir.join("not-a-folder");
    std::fs::write(&file, b"x").unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_wedge"))
        .args(["install", "--prefix", file.to_str().unwrap()])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(
        err.contains(&format!("cannot create {}", file.join("bin").display())),
        "{err}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
