//! The book across processes: several engine processes read one book file at once while a
//! writer republishes it, an NBoard engine answers from the book, and engines learning games
//! at the same time keep every game in the user's book and never write the shipped one; any
//! input stops a learn at once and leaves the book as it was, never answering `learned`, and
//! the game kept is stored when the engine is next idle (a later start included); a game that
//! cannot be stored is never called learned.

use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};
use wedge_core::board::{Board, Move, Square};
use wedge_core::book::BookBuilder;
use wedge_core::rng::Rng;

mod common;
use common::FakeValuer;

fn games(n: usize, seed: u64) -> Vec<Vec<Move>> {
    let mut rng = Rng::new(seed);
    (0..n)
        .map(|_| {
            let mut b = Board::START;
            let mut v = Vec::new();
            for _ in 0..12 {
                let Some(m) = b.random_move(&mut rng) else {
                    break;
                };
                b = b.apply(m).unwrap();
                v.push(m);
            }
            v
        })
        .collect()
}

fn temp_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("wedge-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn build(path: &Path, n: usize, seed: u64) -> BookBuilder {
    let mut b = BookBuilder::new(46);
    for g in games(n, seed) {
        b.add_game(&g).unwrap();
    }
    b.sweep(Some(&|| FakeValuer), 1, &|_, _| {});
    b.publish(path).unwrap();
    b
}

/// `wedge nboard` with `args`; the user's data directory is a fresh one in the test's
/// directory, so that no test ever writes the real one.
fn nboard_command(args: &[&std::ffi::OsStr]) -> Command {
    let data = std::env::temp_dir().join(format!("wedge-book-data-{}", std::process::id()));
    let mut c = Command::new(env!("CARGO_BIN_EXE_wedge"));
    c.args(["nboard", "--hash", "1"])
        .args(args)
        .env("XDG_DATA_HOME", &data)
        .env("HOME", &data)
        .env_remove("WEDGE_HOME");
    c
}

/// Runs `wedge nboard` on `book` with `script` as its input; its output.
fn nboard(book: &Path, script: &[u8]) -> String {
    nboard_with(&["--book".as_ref(), book.as_os_str()], script)
}

/// Runs `wedge nboard` with `args` and `script` as its input; its output.
fn nboard_with(args: &[&std::ffi::OsStr], script: &[u8]) -> String {
    let mut child = nboard_command(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(script).unwrap();
    let out = child.wait_with_output().unwrap();
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn several_processes_read_one_book_while_it_is_republished() {
    let dir = temp_dir("book-procs");
    let path = dir.join("shared.book");
    let mut b = build(&path, 30, 1);
    let readers: Vec<_> = (0..4)
        .map(|_| {
            Command::new(env!("CARGO_BIN_EXE_wedge"))
                .args(["book", "bench", "--probes", "20000", "--book"])
                .arg(&path)
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    for (i, g) in games(40, 2).iter().enumerate() {
        b.add_game(g).unwrap();
        b.sweep(Some(&|| FakeValuer), 1, &|_, _| {});
        b.info.description = format!("version {i}");
        b.publish(&path).unwrap();
    }
    for r in readers {
        let out = r.wait_with_output().unwrap();
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success(),
            "{text} {}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(text.contains("probe of a stored position"), "{text}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn an_nboard_engine_plays_and_hints_from_the_book() {
    let dir = temp_dir("book-nboard");
    let path = dir.join("play.book");
    let b = build(&path, 30, 3);
    let f5 = Board::START
        .apply(Move::Play(Square::from_coords(5, 4).unwrap()))
        .unwrap();
    let node = b
        .node_of(&f5)
        .expect("every game starts with a move equivalent to f5");
    let text = nboard(
        &path,
        b"nboard 2\nset depth 2\nset game (;GM[Othello]PC[t]PB[a]PW[b]RE[?]TI[5:00]TY[8]\
BO[8 ---------------------------O*------*O--------------------------- *]B[F5];)\n\
hint 3\ngo\nping 1\nquit\n",
    );
    let book_lines: Vec<&str> = text.lines().filter(|l| l.starts_with("book ")).collect();
    assert!(!book_lines.is_empty(), "{text}");
    // The best book line carries the position's value, from the side to move (White).
    let value = node.value as f64;
    assert!(
        book_lines[0].contains(&format!(" {value:+.2} ")),
        "{book_lines:?} vs {value}"
    );
    let go = text
        .lines()
        .find(|l| l.starts_with("=== "))
        .expect("a move");
    let best_move = book_lines[0].split_whitespace().nth(1).unwrap();
    assert!(
        go.starts_with(&format!("=== {best_move}/")),
        "{go} vs {best_move}"
    );
    assert!(text.contains("pong 1"), "{text}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// An NBoard game record of `moves` (transcript) from the start.
fn game_record(moves: &str) -> String {
    let mut record = String::from(
        "set game (;GM[Othello]PC[t]PB[a]PW[b]RE[?]TI[5:00]TY[8]\
         BO[8 ---------------------------O*------*O--------------------------- *]",
    );
    let mut black = true;
    for m in moves.as_bytes().chunks(2) {
        let m = std::str::from_utf8(m).unwrap().to_ascii_uppercase();
        record += &format!("{}[{m}]", if black { "B" } else { "W" });
        black = !black;
    }
    record + ";)\n"
}

/// The position after `moves` (a transcript without passes).
fn after(moves: &str) -> Board {
    moves.as_bytes().chunks(2).fold(Board::START, |b, m| {
        let sq: Square = std::str::from_utf8(m).unwrap().parse().unwrap();
        b.apply(Move::Play(sq)).unwrap()
    })
}

/// An empty user's book whose positions are valued by depth-2 searches (fast learning).
fn empty_user_book(path: &Path) {
    empty_user_book_of_depth(path, 2);
}

fn empty_user_book_of_depth(path: &Path, depth: u8) {
    let mut b = BookBuilder::new(50);
    b.info.search_depth = depth;
    b.publish(path).unwrap();
}

/// Starts `wedge nboard ARGS` (stderr to `stderr`) and sends it a session learning `game`.
fn spawn_learning(args: &[&std::ffi::OsStr], stderr: Stdio, game: &str) -> Child {
    let mut child = nboard_command(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(stderr)
        .spawn()
        .unwrap();
    send_learning(&mut child, game);
    child
}

/// Sends an NBoard session that learns `game` to `child`, keeping its input open: any input
/// during the learn would interrupt it.
fn send_learning(child: &mut Child, game: &str) {
    let script = format!("nboard 2\nset depth 1\n{}learn\n", game_record(game));
    let stdin = child.stdin.as_mut().unwrap();
    stdin.write_all(script.as_bytes()).unwrap();
    stdin.flush().unwrap();
}

/// True for the line that ends a learn: `learned`, or a status line saying why not.
fn ends_learn(line: &str) -> bool {
    line == "learned" || line.starts_with("status learn") || line.starts_with("status error")
}

/// Waits for the end of the learn, pings and waits for the `pong`, then quits; everything
/// the child wrote.
fn finish_learning(child: &mut Child) -> String {
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut text = String::new();
    while !text.lines().any(ends_learn) {
        if stdout.read_line(&mut text).unwrap() == 0 {
            break;
        }
    }
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(b"ping 1\n").unwrap();
    stdin.flush().unwrap();
    while !text.lines().any(|l| l == "pong 1") {
        if stdout.read_line(&mut text).unwrap() == 0 {
            break;
        }
    }
    stdin.write_all(b"quit\n").unwrap();
    drop(stdin);
    stdout.read_to_string(&mut text).unwrap();
    text
}

#[test]
fn nboard_learn_adds_the_game_to_the_users_book_not_to_the_book_played() {
    let dir = temp_dir("book-learn");
    let path = dir.join("play.book");
    build(&path, 5, 9);
    let played = std::fs::read(&path).unwrap();
    let learned = dir.join("learned.book");
    empty_user_book(&learned);
    // A game none of the random book games played: f5 f4 e3 f6 d3 (then learn).
    let args = [
        "--book".as_ref(),
        path.as_os_str(),
        "--learn-book".as_ref(),
        learned.as_os_str(),
    ];
    let mut child = spawn_learning(&args, Stdio::null(), "f5f4e3f6d3");
    let text = finish_learning(&mut child);
    assert!(child.wait().unwrap().success());
    let learned_at = text.lines().position(|l| l == "learned").expect("learned");
    let pong = text.lines().position(|l| l == "pong 1").expect("pong");
    assert!(learned_at < pong, "{text}");
    assert_eq!(
        std::fs::read(&path).unwrap(),
        played,
        "the book played is not written"
    );
    let book = wedge_core::book::Book::open(&learned, wedge_core::book::Verify::Full).unwrap();
    let p = book
        .probe(&after("f5f4e3f6d3"))
        .expect("the learnt game's last position");
    assert!(p.valued && p.games == 1);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Starts `wedge nboard` learning `game` into `learned`; returns the child once it says that
/// it waits for the book's lock, with the stderr lines it wrote so far.
fn start_learner(learned: &Path, game: &str) -> (std::process::Child, Vec<String>) {
    let args = [
        "--log".as_ref(),
        "info".as_ref(),
        "--learn-book".as_ref(),
        learned.as_os_str(),
    ];
    let mut child = spawn_learning(&args, Stdio::piped(), game);
    let mut stderr = BufReader::new(child.stderr.take().unwrap());
    let mut lines = Vec::new();
    let mut line = String::new();
    while stderr.read_line(&mut line).unwrap() > 0 {
        lines.push(std::mem::take(&mut line));
        if lines.last().unwrap().contains("waiting for its lock") {
            break;
        }
    }
    assert!(
        lines
            .last()
            .is_some_and(|l| l.contains("waiting for its lock")),
        "{lines:?}"
    );
    // The rest of stderr is read when the child is done.
    child.stderr = Some(stderr.into_inner());
    (child, lines)
}

#[test]
fn two_engines_learning_at_once_both_keep_their_game() {
    let dir = temp_dir("book-learn-race");
    let learned = dir.join("learned.book");
    empty_user_book(&learned);
    let games = ["f5d6c3d3c4", "f5f6e6f4e3"];
    // Both engines wait for the lock this test holds, then keep their game in the journal and
    // learn every game waiting: whichever publishes a game first, each is published once.
    let lock = wedge_core::book::BookLock::acquire(&learned).unwrap();
    let learners: Vec<_> = games.iter().map(|g| start_learner(&learned, g)).collect();
    drop(lock);
    for (mut child, mut lines) in learners {
        let out = finish_learning(&mut child);
        let mut err = String::new();
        child
            .stderr
            .take()
            .unwrap()
            .read_to_string(&mut err)
            .unwrap();
        lines.push(err);
        assert!(child.wait().unwrap().success());
        assert!(out.lines().any(|l| l == "learned"), "{out}");
        let log = lines.concat();
        assert!(log.contains("learned: "), "{log}");
    }
    let book = wedge_core::book::Book::open(&learned, wedge_core::book::Verify::Full).unwrap();
    for game in games {
        for n in (0..=game.len()).step_by(2) {
            let p = book
                .probe(&after(&game[..n]))
                .expect("every position of both games");
            assert!(p.valued, "{}", &game[..n]);
        }
        assert_eq!(book.probe(&after(game)).unwrap().games, 1);
    }
    // Both games went through the start and f5 (and its symmetric images): counted twice.
    assert_eq!(book.probe(&Board::START).unwrap().games, 2);
    assert_eq!(book.probe(&after("f5")).unwrap().games, 2);
    let names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert!(
        names.iter().all(|n| !n.contains(".tmp.")),
        "no temporary file is left: {names:?}"
    );
    assert!(
        !names.iter().any(|n| n.ends_with(".pending")),
        "no game waits: {names:?}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `quit` or the end of input while a learn's searches would run for hours (depth 40): the
/// engine exits promptly (generous bound) and the user's book is as it was, with nothing left
/// beside it.
#[test]
fn quit_and_end_of_input_stop_a_learn_and_leave_the_book_whole() {
    for quit in [true, false] {
        let dir = temp_dir(&format!("book-learn-stop-{quit}"));
        let learned = dir.join("learned.book");
        empty_user_book_of_depth(&learned, 40);
        let before = std::fs::read(&learned).unwrap();
        let args = ["--learn-book".as_ref(), learned.as_os_str()];
        let mut child = spawn_learning(&args, Stdio::null(), "f5f4e3f6d3");
        // Let the learn get under way (either order must work; this is no timing check).
        std::thread::sleep(Duration::from_millis(300));
        let mut stdin = child.stdin.take().unwrap();
        if quit {
            stdin.write_all(b"quit\n").unwrap();
        }
        drop(stdin);
        let asked = Instant::now();
        let status = loop {
            if let Some(status) = child.try_wait().unwrap() {
                break status;
            }
            if asked.elapsed() > Duration::from_secs(10) {
                let _ = child.kill();
                panic!(
                    "still learning 10 s after {}",
                    if quit { "quit" } else { "EOF" }
                );
            }
            std::thread::sleep(Duration::from_millis(20));
        };
        assert!(status.success(), "{status:?}");
        assert!(
            std::fs::read(&learned).unwrap() == before,
            "an interrupted learn publishes nothing"
        );
        let mut names: Vec<String> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        assert_eq!(
            names,
            ["learned.book", "learned.book.pending"],
            "no temporary or lock file is left; the game waits in the journal"
        );
        assert_eq!(
            std::fs::read_to_string(dir.join("learned.book.pending")).unwrap(),
            "f5f4e3f6d3\n"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

#[test]
fn learning_with_the_shipped_book_writes_the_users_data_directory_only() {
    let shipped =
        wedge_core::paths::find_data_file("books", "default.book").expect("books/default.book");
    let shipped_dir = shipped.parent().unwrap().to_path_buf();
    let listing = |dir: &Path| -> Vec<String> {
        let mut v: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        v.sort();
        v
    };
    let before = std::fs::read(&shipped).unwrap();
    let files_before = listing(&shipped_dir);
    let dir = temp_dir("book-learn-xdg");
    let (xdg, home) = (dir.join("xdg"), dir.join("home"));
    std::fs::create_dir_all(&home).unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_wedge"))
        .args(["nboard", "--hash", "1"])
        .env("XDG_DATA_HOME", &xdg)
        .env("HOME", &home)
        .env_remove("WEDGE_HOME")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    send_learning(&mut child, "f5f4e3f6d3");
    let text = finish_learning(&mut child);
    assert!(child.wait().unwrap().success());
    assert!(text.lines().any(|l| l == "learned"), "{text}");
    assert!(
        std::fs::read(&shipped).unwrap() == before,
        "the shipped book is byte for byte what it was"
    );
    assert_eq!(
        listing(&shipped_dir),
        files_before,
        "nothing is added beside it"
    );
    let learned = xdg.join("wedge").join("learned.book");
    let book = wedge_core::book::Book::open(&learned, wedge_core::book::Verify::Full).unwrap();
    let p = book
        .probe(&after("f5f4e3f6d3"))
        .expect("the game is learnt");
    assert!(p.valued && p.games == 1);
    // A new user's book takes the shipped book's settings.
    let shipped_book =
        wedge_core::book::Book::open(&shipped, wedge_core::book::Verify::Full).unwrap();
    assert_eq!(book.info().search_depth, shipped_book.info().search_depth);
    assert_eq!(book.info().min_empties, shipped_book.info().min_empties);
    assert_eq!(
        listing(&home),
        Vec::<String>::new(),
        "XDG_DATA_HOME wins over HOME"
    );
    // The learned game adds to the shipped book and never replaces its values: the book's
    // answers for the moves the game did not play, at the start (all four first moves) and
    // after f5 d6, are those of the shipped book alone.
    let book_lines = |learn_book: &Path, moves: &str| -> Vec<String> {
        let args = [
            "--threads".as_ref(),
            "1".as_ref(),
            "--learn-book".as_ref(),
            learn_book.as_os_str(),
        ];
        let script = format!("nboard 2\nset depth 1\n{}hint 4\n", game_record(moves));
        nboard_with(&args, script.as_bytes())
            .lines()
            .filter(|l| l.starts_with("book "))
            .map(str::to_string)
            .collect()
    };
    let none = dir.join("no-such.book");
    for moves in ["", "f5d6"] {
        let shipped_only = book_lines(&none, moves);
        assert!(!shipped_only.is_empty(), "{moves}");
        assert_eq!(book_lines(&learned, moves), shipped_only, "after {moves:?}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn book_randomness_draws_a_new_seed_in_every_process_unless_one_is_given() {
    let dir = temp_dir("book-seed");
    let path = dir.join("random.book");
    build(&path, 30, 3);
    // The seed an engine logs, and its moves from the book after f5.
    let run = |extra: &[&str]| -> (String, Vec<String>) {
        let mut args: Vec<&std::ffi::OsStr> = vec![
            "--log".as_ref(),
            "info".as_ref(),
            "--book".as_ref(),
            path.as_os_str(),
            "--book-randomness".as_ref(),
            "8".as_ref(),
        ];
        args.extend(extra.iter().map(std::ffi::OsStr::new));
        let mut child = nboard_command(&args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let script = format!(
            "nboard 2\nset depth 1\n{}go\ngo\ngo\ngo\nping 1\nquit\n",
            game_record("f5")
        );
        child
            .stdin
            .take()
            .unwrap()
            .write_all(script.as_bytes())
            .unwrap();
        let out = child.wait_with_output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        let seed = err
            .split("seed ")
            .nth(1)
            .and_then(|s| s.split_whitespace().next())
            .unwrap_or_else(|| panic!("no seed logged: {err}"))
            .to_string();
        let moves = String::from_utf8_lossy(&out.stdout)
            .lines()
            .filter(|l| l.starts_with("=== "))
            .map(str::to_string)
            .collect();
        (seed, moves)
    };
    let (a, _) = run(&[]);
    let (b, _) = run(&[]);
    assert_ne!(a, b, "every process draws its own seed");
    let (c, moves_c) = run(&["--book-seed", "7"]);
    let (d, moves_d) = run(&["--book-seed", "7"]);
    assert_eq!((c.as_str(), d.as_str()), ("7", "7"));
    assert_eq!(moves_c.len(), 4);
    assert_eq!(moves_c, moves_d, "a given seed repeats the choices");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn book_expand_prints_progress_lines_where_no_bar_shows() {
    let dir = temp_dir("book-expand-progress");
    let path = dir.join("grown.book");
    let out = Command::new(env!("CARGO_BIN_EXE_wedge"))
        .args(["book", "expand", "--budget", "3", "--depth", "1", "--book"])
        .arg(&path)
        .output()
        .unwrap();
    assert!(out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    // The first line comes with the first expansion, the next ones every 10 s.
    let lines: Vec<&str> = err.lines().filter(|l| l.starts_with("expand: ")).collect();
    assert!(
        lines
            .first()
            .is_some_and(|l| l.starts_with("expand: 1 expansions, 2 positions, ")),
        "{err}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Waits until `path` no longer exists (generous bound).
fn wait_gone(path: &Path, limit: Duration) {
    let start = Instant::now();
    while path.exists() {
        assert!(
            start.elapsed() < limit,
            "{} still there after {limit:?}",
            path.display()
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// A `ping` during a learn whose searches would run for hours is answered at once, with no
/// `learned` before it; the game waits in the journal, and the next engine started on the book
/// stores it while idle.
#[test]
fn a_ping_stops_a_learn_and_the_next_start_stores_the_game() {
    let dir = temp_dir("book-learn-ping");
    let learned = dir.join("learned.book");
    empty_user_book_of_depth(&learned, 40);
    let journal = dir.join("learned.book.pending");
    let args = ["--learn-book".as_ref(), learned.as_os_str()];
    let mut child = nboard_command(&args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let (tx, lines) = std::sync::mpsc::channel();
    let stdout = child.stdout.take().unwrap();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            let Ok(line) = line else { break };
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    let until = |done: &dyn Fn(&str) -> bool| -> Vec<String> {
        let mut seen = Vec::new();
        loop {
            let line = lines
                .recv_timeout(Duration::from_secs(60))
                .unwrap_or_else(|_| panic!("no answer; got {seen:?}"));
            let stop = done(&line);
            seen.push(line);
            if stop {
                return seen;
            }
        }
    };
    let script = format!("nboard 2\nset depth 1\n{}", game_record("f5f4e3f6d3"));
    stdin.write_all(script.as_bytes()).unwrap();
    let mut latencies = Vec::new();
    for n in 1..=3 {
        writeln!(stdin, "learn").unwrap();
        stdin.flush().unwrap();
        until(&|l| l == "status Learning");
        // Let the searches get under way (either order must work; this is no timing check).
        std::thread::sleep(Duration::from_millis(200));
        let sent = Instant::now();
        writeln!(stdin, "ping {n}").unwrap();
        stdin.flush().unwrap();
        let seen = until(&|l| l.starts_with("pong"));
        latencies.push(sent.elapsed());
        assert_eq!(seen.last().unwrap(), &format!("pong {n}"), "{seen:?}");
        assert!(!seen.iter().any(|l| l == "learned"), "{seen:?}");
        assert!(
            seen.iter()
                .any(|l| l.starts_with("status learn: interrupted")
                    && l.contains("kept to be learned later")),
            "{seen:?}"
        );
    }
    latencies.sort();
    eprintln!("ping during a learn answered in {latencies:?}");
    assert!(latencies[1] < Duration::from_secs(5), "{latencies:?}");
    writeln!(stdin, "quit").unwrap();
    drop(stdin);
    assert!(child.wait().unwrap().success());
    assert_eq!(
        std::fs::read_to_string(&journal).unwrap(),
        "f5f4e3f6d3\n",
        "the interrupted learns kept the game, once"
    );
    // The book is now valued by fast searches; the next engine learns the games while idle.
    std::fs::remove_file(&learned).unwrap();
    empty_user_book(&learned);
    let mut child = nboard_command(&args)
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    wait_gone(&journal, Duration::from_secs(120));
    drop(child.stdin.take());
    assert!(child.wait().unwrap().success());
    let book = wedge_core::book::Book::open(&learned, wedge_core::book::Verify::Full).unwrap();
    assert_eq!(book.probe(&after("f5f4e3f6d3")).unwrap().games, 1);
    let names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(
        names,
        ["learned.book"],
        "no journal, lock or learner file is left"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A user's book that cannot be written (its folder is a file): no `learned`, a status line
/// naming what failed, and the engine goes on playing.
#[test]
fn a_learn_that_cannot_be_stored_is_never_called_learned() {
    let dir = temp_dir("book-learn-unwritable");
    let blocker = dir.join("not-a-folder");
    std::fs::write(&blocker, b"x").unwrap();
    let learned = blocker.join("learned.book");
    let args = ["--learn-book".as_ref(), learned.as_os_str()];
    let mut child = spawn_learning(&args, Stdio::null(), "f5f4e3f6d3");
    let text = finish_learning(&mut child);
    assert!(child.wait().unwrap().success());
    assert!(!text.lines().any(|l| l == "learned"), "{text}");
    let status = text
        .lines()
        .find(|l| l.starts_with("status error: learn:"))
        .unwrap_or_else(|| panic!("{text}"));
    assert!(status.contains(&blocker.display().to_string()), "{status}");
    assert!(
        status.contains("1 game(s) kept to be learned later, 1 of them in memory only"),
        "{status}"
    );
    assert!(text.lines().any(|l| l == "pong 1"), "{text}");
    std::fs::remove_dir_all(&dir).unwrap();
}
