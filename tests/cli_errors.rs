//! Outside inputs the command line refuses at once, with a message that says what is wrong
//! and stays readable: a `--hash` beyond the memory limit, OBF files with a huge bad line or
//! no position.

use std::io::Write;
use std::process::{Command, Output, Stdio};

/// Runs `sh -c script` with `wedge` as `$WEDGE` and `input` on stdin.
fn shell(script: &str, input: &[u8]) -> Output {
    let mut child = Command::new("sh")
        .args(["-c", script])
        .env("WEDGE", env!("CARGO_BIN_EXE_wedge"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // The engine may exit before reading its input.
    let _ = child.stdin.take().unwrap().write_all(input);
    child.wait_with_output().unwrap()
}

#[cfg(target_os = "linux")]
#[test]
fn a_hash_beyond_the_address_space_limit_fails_at_start_with_the_limit_named() {
    let out = shell(
        "ulimit -v 1048576 && exec \"$WEDGE\" --hash 4096 --no-book nboard",
        b"nboard 2\nping 1\n",
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stdout}{stderr}");
    assert_eq!(stdout, "", "nothing is answered before the error");
    assert_eq!(
        stderr.trim_end(),
        "wedge: --hash 4096: cannot get 4096 MB for the transposition table: 4096 MB is \
         more than the 1024 MB address space this process may use (ulimit -v); try a \
         smaller --hash"
    );
}

/// `--solver-weights` naming no file, or a file that is not weights, stops the command with
/// the option or the file named (before any search).
#[test]
fn missing_or_bad_solver_weights_are_refused_by_name() {
    let dir = std::env::temp_dir().join(format!("wedge-cli-solver-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let missing = dir.join("missing.wts");
    let bad = dir.join("bad.wts");
    std::fs::write(&bad, b"not weights").unwrap();
    let obf = dir.join("one.obf");
    let start = "---------------------------OX------XO--------------------------- X;\n";
    std::fs::write(&obf, start).unwrap();
    // The exit code and standard error of `wedge --solver-weights FILE CMD`.
    let run = |file: &std::path::Path, cmd: &str| {
        let script = format!(
            "exec \"$WEDGE\" --no-book --solver-weights {} {cmd}",
            file.display()
        );
        let out = shell(&script, b"nboard 2\nping 1\n");
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stderr).trim_end().to_string(),
        )
    };
    let solve = format!("solve {}", obf.display());
    for cmd in ["nboard", solve.as_str()] {
        let expected = format!(
            "wedge: --solver-weights {}: no such file",
            missing.display()
        );
        assert_eq!(run(&missing, cmd), (Some(1), expected), "{cmd}");
    }
    let (code, stderr) = run(&bad, "nboard");
    assert_eq!(code, Some(1), "{stderr}");
    assert!(stderr.contains(&bad.display().to_string()), "{stderr}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `--solver-probcut` with no solver's weights to apply it to (none given, and no `solver.wts`
/// beside the weights) is refused by name instead of being ignored.
#[test]
fn a_solver_probcut_without_solver_weights_is_refused_by_name() {
    let dir = std::env::temp_dir().join(format!("wedge-cli-solver-pc-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let weights = dir.join("play.wts");
    let shipped = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("weights/default.wts");
    std::fs::copy(shipped, &weights).unwrap();
    let model = dir.join("model.probcut");
    let script = format!(
        "exec \"$WEDGE\" --no-book --weights {} --solver-probcut {} nboard",
        weights.display(),
        model.display()
    );
    let out = shell(&script, b"nboard 2\nping 1\n");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert_eq!(
        stderr.trim_end(),
        format!(
            "wedge: --solver-probcut {}: no solver's weights to go with it (give \
             --solver-weights, or put solver.wts beside the weights)",
            model.display()
        )
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A depth search on a queue searches with `--weights` alone, so the solver's files named for
/// it are refused by name, before any connection, instead of being ignored.
#[test]
fn solver_files_for_a_queued_depth_search_are_refused_by_name() {
    let obf = concat!(env!("CARGO_MANIFEST_DIR"), "/weights/heldout-2017-2020.obf");
    for flag in ["--solver-weights", "--solver-probcut"] {
        let out = Command::new(env!("CARGO_BIN_EXE_wedge"))
            .args([flag, "elsewhere.wts", "solve", obf, "--depth", "4"])
            .args(["--queue", "nats://127.0.0.1:9"])
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{stderr}");
        assert_eq!(
            stderr.trim_end(),
            format!(
                "wedge: {flag} elsewhere.wts: a --depth search on a queue searches with --weights \
                 alone (the solver's files guide exact and --wld solves); leave it out, or search \
                 without --queue"
            )
        );
    }
}

#[test]
fn a_huge_bad_obf_line_is_quoted_in_part() {
    let dir = std::env::temp_dir().join(format!("wedge-cli-obf-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("bad.obf");
    // A valid board, then a 5 MB field that is no move.
    let board = "-".repeat(27) + "OX------XO" + &"-".repeat(27) + " X";
    std::fs::write(&file, format!("{board}; {}:+2;\n", "Z".repeat(5 << 20))).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_wedge"))
        .arg("solve")
        .arg(&file)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        stderr.trim_end(),
        format!(
            "wedge: {}: OBF line 1, column 69: \"{}…\" (5242880 bytes) is not a move",
            file.display(),
            "Z".repeat(80)
        )
    );
    // A file with no position says so rather than failing.
    let empty = dir.join("empty.obf");
    std::fs::write(&empty, "% only a comment\n").unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_wedge"))
        .arg("solve")
        .arg(&empty)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr).trim_end(),
        format!("wedge: {}: no position in the file", empty.display())
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_shipped_book_is_refused_as_the_book_to_learn_into() {
    let shipped =
        wedge::paths::find_data_file("books", "default.book").expect("books/default.book");
    let out = Command::new(env!("CARGO_BIN_EXE_wedge"))
        .arg("--learn-book")
        .arg(&shipped)
        .arg("nboard")
        .env_remove("WEDGE_HOME")
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr).trim_end(),
        format!(
            "wedge: --learn-book {} is the shipped book, which play never writes; learned \
             games need a book of their own",
            shipped.display()
        )
    );
}
