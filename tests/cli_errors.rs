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
        wedge_core::paths::find_data_file("books", "default.book").expect("books/default.book");
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

/// A scratch directory of one test, removed when dropped.
struct Scratch(std::path::PathBuf);

impl Scratch {
    fn new(name: &str) -> Scratch {
        let dir = std::env::temp_dir().join(format!("wedge-cli-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        Scratch(dir)
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Makes a FIFO at `path` (nothing ever writes to it: opening it to read would block).
fn mkfifo(path: std::path::PathBuf) -> std::path::PathBuf {
    let made = Command::new("mkfifo").arg(&path).status().unwrap();
    assert!(made.success(), "mkfifo {}", path.display());
    path
}

/// Runs `wedge ARGS` with no input: its exit code, standard output and standard error. A
/// process that has not exited after 10 s (a refusal takes milliseconds; the bound only
/// spares a loaded machine) is killed and the test fails.
fn wedge_bounded<S: AsRef<std::ffi::OsStr>>(args: &[S]) -> (Option<i32>, String, String) {
    use std::io::Read;
    let args: Vec<&std::ffi::OsStr> = args.iter().map(AsRef::as_ref).collect();
    let mut child = Command::new(env!("CARGO_BIN_EXE_wedge"))
        .args(&args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let read = |mut pipe: Box<dyn Read + Send>| {
        std::thread::spawn(move || {
            let mut text = String::new();
            let _ = pipe.read_to_string(&mut text);
            text
        })
    };
    let stdout = read(Box::new(child.stdout.take().unwrap()));
    let stderr = read(Box::new(child.stderr.take().unwrap()));
    let start = std::time::Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if start.elapsed() > std::time::Duration::from_secs(10) {
            let _ = child.kill();
            let _ = child.wait();
            panic!("wedge {args:?} still ran after 10 s: blocked on its input?");
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    };
    let (stdout, stderr) = (stdout.join().unwrap(), stderr.join().unwrap());
    (status.code(), stdout, stderr.trim_end().to_string())
}

/// `wedge ARGS` fails (exit 1) at once with exactly `expected` on standard error.
#[track_caller]
fn refused<S: AsRef<std::ffi::OsStr> + std::fmt::Debug>(args: &[S], expected: String) {
    let (code, _, stderr) = wedge_bounded(args);
    assert_eq!((code, stderr), (Some(1), expected), "{args:?}");
}

/// A FIFO or a device given where a file is read is refused at once, by name and kind, and
/// never opened (opening a FIFO with no writer blocks; reading /dev/zero never ends).
#[cfg(unix)]
#[test]
fn fifos_and_devices_given_as_inputs_are_refused_by_name_and_kind() {
    let dir = Scratch::new("fifo");
    let fifo = mkfifo(dir.0.join("input"));
    let f = fifo.to_str().unwrap();
    let obf = dir.0.join("one.obf");
    std::fs::write(
        &obf,
        "-".repeat(27) + "OX------XO" + &"-".repeat(27) + " X;\n",
    )
    .unwrap();
    let obf = obf.to_str().unwrap();
    let is_fifo = "it is a FIFO (named pipe), not a regular file";
    refused(
        &["--book", f, "book", "stats"],
        format!("wedge: cannot read the book {f}: {is_fifo}"),
    );
    refused(
        &["--learn-book", f, "nboard"],
        format!("wedge: --learn-book {f}: {is_fifo}; name a book file"),
    );
    refused(
        &["--no-book", "--probcut", f, "solve", obf],
        format!("wedge: {f}: cannot read: {is_fifo}"),
    );
    refused(
        &["--no-book", "--solver-weights", f, "nboard"],
        format!("wedge: weights file {f}: cannot read or write it: {is_fifo}"),
    );
    for command in [&["solve", obf][..], &["nboard"]] {
        refused(
            &[&["--no-book", "--weights", f], command].concat(),
            format!("wedge: weights file {f}: cannot read or write it: {is_fifo}"),
        );
    }
    refused(&["solve", f], format!("wedge: cannot read {f}: {is_fifo}"));
    refused(
        &["solve", "/dev/zero"],
        "wedge: cannot read /dev/zero: it is a character device, not a regular file".into(),
    );
    // Game files: GGF and WTHOR by name, and a WTHOR file in a directory of them.
    for name in ["games.ggf", "WTH_2000.wtb"] {
        let games = mkfifo(dir.0.join(name));
        let games = games.to_str().unwrap();
        refused(
            &["openings", "--from-games", games],
            format!("wedge: cannot read {games}: {is_fifo}"),
        );
    }
    let wthor = dir.0.join("wthor");
    std::fs::create_dir(&wthor).unwrap();
    let in_dir = mkfifo(wthor.join("WTH_1999.wtb"));
    let work = dir.0.join("work");
    let out = dir.0.join("out.wts");
    refused(
        &[
            "train".as_ref(),
            "--quiet".as_ref(),
            "--wthor".as_ref(),
            wthor.as_os_str(),
            "--work".as_ref(),
            work.as_os_str(),
            "--out".as_ref(),
            out.as_os_str(),
        ],
        format!("wedge: cannot read {}: {is_fifo}", in_dir.display()),
    );
    // A self-play directory that is a FIFO; a batch file that is one is listed unreadable.
    refused(
        &["selfplay", "--stats", f],
        format!("wedge: {f}: it is a FIFO (named pipe), not a directory"),
    );
    let batches = dir.0.join("batches");
    std::fs::create_dir(&batches).unwrap();
    let batch = mkfifo(batches.join("batch-000000.wsp"));
    let (code, stdout, stderr) =
        wedge_bounded(&["selfplay".as_ref(), "--stats".as_ref(), batches.as_os_str()]);
    assert_eq!(code, Some(0), "{stderr}");
    assert!(
        stdout.contains(&format!("{}: ", batch.display())) && stdout.contains(is_fifo),
        "{stdout}"
    );
}

/// A directory given as the weights says it is one (not "no weights file").
#[test]
fn a_directory_as_the_weights_is_called_one() {
    let dir = Scratch::new("weights-dir");
    let d = dir.0.to_str().unwrap();
    let obf = concat!(env!("CARGO_MANIFEST_DIR"), "/weights/heldout-2017-2020.obf");
    for command in [&["nboard"][..], &["eval", obf]] {
        refused(
            &[&["--no-book", "--weights", d], command].concat(),
            format!(
                "wedge: weights file {d}: cannot read or write it: it is a directory, not a \
                 regular file"
            ),
        );
    }
}

/// A ProbCut file holding only its header has no model in it: refused, not taken as empty.
#[test]
fn a_probcut_file_with_only_its_header_is_refused() {
    let dir = Scratch::new("probcut-header");
    let model = dir.0.join("header.probcut");
    std::fs::write(&model, "wedge-probcut 1\nevaluation default.wts\n").unwrap();
    let m = model.to_str().unwrap();
    let obf = concat!(env!("CARGO_MANIFEST_DIR"), "/weights/heldout-2017-2020.obf");
    refused(
        &["--no-book", "--probcut", m, "solve", obf, "--depth", "2"],
        format!("wedge: {m}: no model in the file (no pair line)"),
    );
}

/// `eval` has one table size option, the global `--hash`: a size out of its range is a usage
/// error naming it, a size the system refuses names it too, and `--hash-mb` is no option.
#[test]
fn eval_table_sizes_are_refused_with_the_option_named() {
    let obf = concat!(env!("CARGO_MANIFEST_DIR"), "/weights/heldout-2017-2020.obf");
    let (code, _, stderr) = wedge_bounded(&["eval", obf, "--depth", "2", "--hash", "100000000000"]);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(
        stderr.contains("'100000000000' for '--hash <HASH>'") && stderr.contains("1..=65536"),
        "{stderr}"
    );
    let (code, _, stderr) = wedge_bounded(&["eval", obf, "--hash-mb", "64"]);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(
        stderr.contains("unexpected argument '--hash-mb'"),
        "{stderr}"
    );
    #[cfg(target_os = "linux")]
    {
        let out = shell(
            &format!("ulimit -v 1048576 && exec \"$WEDGE\" --hash 4096 eval {obf} --depth 2"),
            b"",
        );
        assert_eq!(
            (
                out.status.code(),
                String::from_utf8_lossy(&out.stderr).trim_end()
            ),
            (
                Some(1),
                "wedge: --hash 4096: cannot get 4096 MB for the transposition table: 4096 MB is \
                 more than the 1024 MB address space this process may use (ulimit -v); try a \
                 smaller --hash"
            )
        );
    }
}

/// `openings --from-games` says which games it skipped and why.
#[test]
fn openings_from_games_reports_the_games_it_skips() {
    use wedge_core::formats::{read_wthor_games, write_wthor_games};
    let dir = Scratch::new("openings-skipped");
    let source = std::fs::read(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/data/wthor/WTH_1977.wtb"
    ))
    .unwrap();
    let games = read_wthor_games(&source).unwrap();
    let mut records: Vec<_> = games.games().take(3).collect();
    records[1].moves[0] = 99;
    let wtb = dir.0.join("WTH_2001.wtb");
    std::fs::write(&wtb, write_wthor_games(&games.header, &records).unwrap()).unwrap();
    let lines = dir.0.join("lines.txt");
    std::fs::write(&lines, "f5d6c3d3\nf5d6c3d3c4f4\nf5a1\n").unwrap();
    let (code, stdout, stderr) = wedge_bounded(&[
        "openings".as_ref(),
        "--plies".as_ref(),
        "2".as_ref(),
        "--from-games".as_ref(),
        wtb.as_os_str(),
        lines.as_os_str(),
    ]);
    assert_eq!(code, Some(0), "{stderr}");
    let report: Vec<&str> = stderr.lines().collect();
    assert_eq!(report.len(), 3, "{stderr}");
    assert_eq!(
        report[0],
        "skipped 2 games (damaged, or not from the standard start):"
    );
    assert!(
        report[1].starts_with(&format!("  file {} game 2: ", wtb.display())),
        "{stderr}"
    );
    assert!(
        report[2].starts_with(&format!("  file {} line 3: ", lines.display())),
        "{stderr}"
    );
    assert!(stdout.contains("4 games read"), "{stdout}");
}
