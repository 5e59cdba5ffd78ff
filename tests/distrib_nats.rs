//! Self-play over NATS JetStream with a real `nats-server -js` (on a free localhost port, with
//! a temporary store): a coordinator and two worker processes write a directory byte-identical
//! to the local run's; corrupt messages on the unit subject are refused and logged while the
//! workers go on; a coordinator killed after queuing its units resumes from the published
//! results. These tests fail, never skip, when `nats-server` is missing (`.ci/run` installs it).

#[path = "common/data.rs"]
mod data;

use data::data_path;
use std::io::Read;
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// The `nats-server` binary: $NATS_SERVER, else on PATH, else where Debian installs it.
fn nats_server_binary() -> PathBuf {
    if let Some(p) = std::env::var_os("NATS_SERVER") {
        return PathBuf::from(p);
    }
    let path = std::env::var_os("PATH").unwrap_or_default();
    let dirs = std::env::split_paths(&path).chain(["/usr/sbin".into(), "/usr/local/bin".into()]);
    for dir in dirs {
        let candidate: PathBuf = dir.join("nats-server");
        if candidate.is_file() {
            return candidate;
        }
    }
    panic!(
        "nats-server not found (on PATH, /usr/sbin or $NATS_SERVER): these tests need a real \
         server; install it with `apt-get install nats-server` (.ci/run does)"
    );
}

/// A `nats-server -js` on a free port, killed when dropped.
struct Server {
    child: Child,
    url: String,
    dir: PathBuf,
}

impl Server {
    fn start(name: &str) -> Server {
        let dir = temp_dir(&format!("{name}-server"));
        let port = TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .expect("a free port")
            .port();
        let binary = nats_server_binary();
        let child = Command::new(&binary)
            .args(["-js", "-a", "127.0.0.1", "-p", &port.to_string(), "-sd"])
            .arg(dir.join("store"))
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {}: {e}", binary.display()));
        let mut server = Server {
            child,
            url: format!("nats://127.0.0.1:{port}"),
            dir,
        };
        let start = Instant::now();
        while TcpStream::connect(("127.0.0.1", port)).is_err() {
            if let Ok(Some(status)) = server.child.try_wait() {
                let mut err = String::new();
                if let Some(mut e) = server.child.stderr.take() {
                    let _ = e.read_to_string(&mut err);
                }
                panic!("nats-server exited ({status}) before listening:\n{err}");
            }
            assert!(
                start.elapsed() < Duration::from_secs(20),
                "nats-server did not listen on port {port} within 20 s"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
        server
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("wedge-distrib-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

fn wedge() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_wedge"));
    c.args(["--log", "off"]);
    c
}

/// The self-play arguments every run of a test shares: 4 batches of 2 tiny games.
fn selfplay_args(out: &Path) -> Vec<String> {
    sized_args(out, 2, 2, 8)
}

/// Self-play arguments: 8 games in batches of `batch` at `depth`, solved from `exact` empties.
fn sized_args(out: &Path, batch: u32, depth: u32, exact: u32) -> Vec<String> {
    let mut args: Vec<String> = [
        "selfplay",
        "--games",
        "8",
        "--seed",
        "11",
        "--game-hash",
        "1",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    for (k, v) in [
        ("--batch-size", batch),
        ("--depth", depth),
        ("--exact-empties", exact),
    ] {
        args.push(k.into());
        args.push(v.to_string());
    }
    args.push("--quiet".into());
    args.push("--out".into());
    args.push(out.to_str().unwrap().to_string());
    args
}

/// A worker process logging to `log`.
fn start_worker(url: &str, dir: &Path, name: &str) -> Child {
    let log = std::fs::File::create(dir.join(format!("{name}.log"))).unwrap();
    wedge()
        .args([
            "--threads",
            "1",
            "worker",
            "--queue",
            url,
            "--name",
            name,
            "--cache",
        ])
        .arg(dir.join(format!("cache-{name}")))
        .stdout(Stdio::null())
        .stderr(log)
        .spawn()
        .expect("start a worker")
}

/// Kills `worker` (SIGKILL) as soon as its log `dir/<name>.log` says `started`, and checks it
/// had not said `finished` yet: the kill landed in the middle of that unit.
fn kill_mid_unit(worker: &mut Child, dir: &Path, name: &str, started: &str, finished: &str) {
    let start = Instant::now();
    let log = || std::fs::read_to_string(dir.join(format!("{name}.log"))).unwrap_or_default();
    while !log().contains(started) {
        assert!(
            start.elapsed() < Duration::from_secs(120),
            "{name} never started a unit: {}",
            log()
        );
        std::thread::sleep(Duration::from_millis(5));
    }
    worker.kill().unwrap();
    worker.wait().unwrap();
    assert!(
        !log().contains(finished),
        "{name} finished its unit before the kill: {}",
        log()
    );
}

/// Waits for the coordinator to succeed within `limit`; returns what it printed.
fn finish_coordinator(coordinator: &mut Child, limit: Duration) -> String {
    let status = wait_for(coordinator, limit, "the coordinator");
    let mut out = String::new();
    coordinator
        .stdout
        .take()
        .unwrap()
        .read_to_string(&mut out)
        .unwrap();
    assert!(status.success(), "coordinator: {out}");
    out
}

/// Waits for `child` at most `limit`, killing it and failing past that.
fn wait_for(child: &mut Child, limit: Duration, what: &str) -> std::process::ExitStatus {
    let start = Instant::now();
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return status;
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            panic!("{what} did not finish within {limit:?}");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// Sends SIGTERM to `child` and waits for it to exit cleanly.
fn terminate(child: &mut Child, what: &str) {
    let ok = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .map(|s| s.success())
        .unwrap_or(false);
    assert!(ok, "could not signal {what}");
    let status = wait_for(child, Duration::from_secs(60), what);
    assert!(status.success(), "{what} exited with {status}");
}

/// The output of `wedge queue status` once `settled` holds on it, polled until `limit`; past
/// that, the last output as the error.
fn settled_status(
    url: &str,
    limit: Duration,
    settled: impl Fn(&str) -> bool,
) -> Result<String, String> {
    let start = Instant::now();
    loop {
        let text = run_ok(&["queue", "status", "--queue", url]);
        if settled(&text) {
            return Ok(text);
        }
        if start.elapsed() > limit {
            return Err(format!("not settled within {limit:?}:\n{text}"));
        }
        std::thread::sleep(Duration::from_millis(200));
    }
}

/// The files of a directory and their bytes, sorted by name.
fn files(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut v: Vec<(String, Vec<u8>)> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| {
            let e = e.unwrap();
            (
                e.file_name().to_string_lossy().into_owned(),
                std::fs::read(e.path()).unwrap(),
            )
        })
        .collect();
    v.sort();
    v
}

/// The local run's directory, the oracle.
fn local_run(dir: &Path) -> Vec<(String, Vec<u8>)> {
    local_run_with(dir, selfplay_args(&dir.join("local")), 4)
}

/// The local run with `args` (whose `--out` is `dir/local`), which must write `batches` files.
fn local_run_with(dir: &Path, args: Vec<String>, batches: usize) -> Vec<(String, Vec<u8>)> {
    let out = wedge()
        .args(["--threads", "2"])
        .args(args)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let f = files(&dir.join("local"));
    assert_eq!(f.len(), batches, "{batches} batch files expected");
    f
}

/// Runs the self-play of `args` on the queue at `url`, which must succeed and play 8 games.
fn queued_selfplay_ok(args: Vec<String>, url: &str) {
    let out = wedge().args(args).args(["--queue", url]).output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout.contains("8 games played"), "{stdout}");
}

/// Publishes raw payloads on unit subjects, as a foreign or broken producer would.
fn publish_raw(url: &str, payloads: &[(&str, Vec<u8>)]) {
    let rt = wedge_lab::distrib::runtime().unwrap();
    rt.block_on(async {
        let queue = wedge_lab::distrib::connect(url).await.unwrap();
        queue.units().await.unwrap();
        for (subject, bytes) in payloads {
            queue
                .js
                .publish(subject.to_string(), bytes.clone().into())
                .await
                .unwrap()
                .await
                .unwrap();
        }
    });
}

#[test]
fn distributed_selfplay_is_byte_identical_and_survives_corrupt_units() {
    let dir = temp_dir("identical");
    let expected = local_run(&dir);
    let server = Server::start("identical");
    let url = server.url.clone();
    // Garbage, a damaged unit and a unit of an unknown version, before any real unit.
    let real = wedge_lab::distrib::SelfplayUnit {
        id: wedge_lab::train::selfplay::BatchId {
            run_seed: 1,
            index: 0,
        },
        games: 1,
        settings: wedge_lab::train::selfplay::Settings::DEFAULT,
        weights_checksum: 0,
        probcut_checksum: 0,
        wthor_checksum: 0,
    }
    .to_bytes();
    let mut damaged = real.clone();
    damaged[30] ^= 1;
    let mut future =
        wedge_core::framing::Writer::new(&wedge_lab::distrib::SELFPLAY_UNIT_MAGIC, 9, real.len());
    future.bytes(&real[12..real.len() - 8]);
    let future = future.finish();
    publish_raw(
        &url,
        &[
            ("wedge.units.selfplay", b"not a unit".to_vec()),
            ("wedge.units.selfplay.x", damaged),
            ("wedge.units.other", future),
        ],
    );
    let mut w1 = start_worker(&url, &dir, "w1");
    let mut w2 = start_worker(&url, &dir, "w2");
    let distributed = dir.join("distributed");
    let mut coordinator = wedge()
        .args(selfplay_args(&distributed))
        .args(["--queue", &url])
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let out = finish_coordinator(&mut coordinator, Duration::from_secs(300));
    assert!(
        out.contains("4 batches (0 already there, 0 replaced), 8 games played"),
        "{out}"
    );
    assert_eq!(
        files(&distributed),
        expected,
        "distributed run differs from the local one"
    );

    // Rerun: nothing is asked for.
    let again = wedge()
        .args(selfplay_args(&distributed))
        .args(["--queue", &url])
        .output()
        .unwrap();
    let again_out = String::from_utf8_lossy(&again.stdout);
    assert!(again.status.success(), "{again_out}");
    assert!(
        again_out.contains("4 batches (4 already there, 0 replaced), 0 games played"),
        "{again_out}"
    );

    // The three messages that were no unit are recorded as terminated. A worker that could not
    // record one released it for a later delivery, so the queue settles within a few seconds.
    let logs = || {
        std::fs::read_to_string(dir.join("w1.log")).unwrap_or_default()
            + &std::fs::read_to_string(dir.join("w2.log")).unwrap_or_default()
    };
    let status_out = settled_status(&url, Duration::from_secs(120), |s| {
        s.contains("stream WEDGE_FAILED: 3 units terminated")
            && s.contains("stream WEDGE_UNITS: 0 units queued")
    })
    .unwrap_or_else(|s| panic!("{s}\nworker logs:\n{}", logs()));
    assert!(status_out.contains("0 results waiting"), "{status_out}");
    assert!(
        status_out.contains("workers seen in the last minute: 2"),
        "{status_out}"
    );
    assert!(
        status_out.contains("object store wedge-files: 2 files"),
        "{status_out}"
    );

    terminate(&mut w1, "worker 1");
    terminate(&mut w2, "worker 2");
    let logs = logs();
    // Each of the three was refused; one released after its record failed is refused again.
    let refused: std::collections::BTreeSet<&str> = logs
        .lines()
        .filter_map(|l| l.split("refused message ").nth(1))
        .filter_map(|rest| rest.split(' ').nth(2))
        .collect();
    assert_eq!(
        refused.into_iter().collect::<Vec<_>>(),
        [
            "wedge.units.other",
            "wedge.units.selfplay",
            "wedge.units.selfplay.x"
        ],
        "{logs}"
    );
    assert!(logs.contains("not a Wedge work unit"), "{logs}");
    assert!(logs.contains("checksum mismatch"), "{logs}");
    assert!(logs.contains("unit format version 9"), "{logs}");
    let units: u64 = logs
        .lines()
        .filter_map(|l| l.split("stopped after ").nth(1))
        .map(|rest| rest.split(' ').next().unwrap().parse::<u64>().unwrap())
        .sum();
    assert_eq!(units, 4, "each unit played once: {logs}");
    drop(server);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn distributed_selfplay_resumes_after_the_coordinator_is_killed() {
    let dir = temp_dir("resume");
    let expected = local_run(&dir);
    let server = Server::start("resume");
    let url = server.url.clone();
    let distributed = dir.join("distributed");
    // A first coordinator queues the units and is killed before any worker runs.
    let mut first = wedge()
        .args(selfplay_args(&distributed))
        .args(["--queue", &url])
        .stderr(Stdio::null())
        .stdout(Stdio::null())
        .spawn()
        .unwrap();
    let queued = settled_status(&url, Duration::from_secs(120), |t| {
        t.contains("stream WEDGE_UNITS: 4 units queued")
    })
    .unwrap_or_else(|t| panic!("units never queued: {t}"));
    assert!(
        queued.contains("workers seen in the last minute: 0"),
        "{queued}"
    );
    first.kill().unwrap();
    first.wait().unwrap();
    // One worker plays everything into the results stream with no coordinator there.
    let mut w1 = start_worker(&url, &dir, "w1");
    settled_status(&url, Duration::from_secs(300), |t| {
        t.contains("4 results waiting")
    })
    .unwrap_or_else(|t| panic!("results never came: {t}"));
    // The restarted coordinator takes the published results; nothing is queued twice.
    queued_selfplay_ok(selfplay_args(&distributed), &url);
    assert_eq!(files(&distributed), expected);
    terminate(&mut w1, "worker 1");
    let log = std::fs::read_to_string(dir.join("w1.log")).unwrap();
    assert!(
        log.contains("stopped after 4 units (8 games, 0 positions, 0 messages refused)"),
        "{log}"
    );
    drop(server);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn distributed_selfplay_survives_a_worker_killed_mid_unit() {
    let dir = temp_dir("kill");
    // One slow unit (8 games at depth 10), so the kill lands while it is being played.
    let args = |out: &Path| sized_args(out, 8, 10, 16);
    let expected = local_run_with(&dir, args(&dir.join("local")), 1);
    let server = Server::start("kill");
    let url = server.url.clone();
    let mut w1 = start_worker(&url, &dir, "w1");
    let distributed = dir.join("distributed");
    let mut coordinator = wedge()
        .args(args(&distributed))
        .args(["--queue", &url])
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    kill_mid_unit(&mut w1, &dir, "w1", "playing batch 0", "games in");
    // Its unit is redelivered to the next worker once its acknowledgement time runs out.
    let mut w2 = start_worker(&url, &dir, "w2");
    let out = finish_coordinator(&mut coordinator, Duration::from_secs(600));
    assert!(
        out.contains("1 batches (0 already there, 0 replaced), 8 games played"),
        "{out}"
    );
    let w2_log = std::fs::read_to_string(dir.join("w2.log")).unwrap();
    assert!(w2_log.contains("playing batch 0 of run 11"), "{w2_log}");
    assert_eq!(
        files(&distributed),
        expected,
        "distributed run differs from the local one"
    );
    terminate(&mut w2, "worker 2");
    drop(server);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_worker_values_book_positions_as_a_local_thread_does_and_refuses_a_damaged_unit() {
    use wedge_core::book::{BookBuilder, BookExcerpt, ValuationRequest};
    use wedge_core::eval::Weights;
    use wedge_core::search::{ProbCutModel, SearchValuer, Searcher, Selectivity};
    use wedge_lab::distrib::{valuation_result_from_bytes, ValuationUnit};
    use wedge_lab::train::selfplay::Model;

    let server = Server::start("valuation");
    let dir = temp_dir("valuation");
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let weights = Weights::load(&root.join("weights/default.wts")).unwrap();
    let probcut = ProbCutModel::load(&root.join("weights/default.probcut")).unwrap();
    let model = Model::new(&weights, probcut).unwrap();
    // A small book of random openings valued by depth-2 searches; its played positions valued
    // again by the unit (every legal move allowed, so the book answers at the first ply).
    let mut book = BookBuilder::new(50);
    let mut rng = wedge_core::rng::Rng::new(4);
    for _ in 0..12 {
        let (mut b, mut moves) = (wedge_core::board::Board::START, Vec::new());
        while moves.len() < 8 {
            let Some(m) = b.random_move(&mut rng) else {
                break;
            };
            b = b.apply(m).unwrap();
            moves.push(m);
        }
        book.add_game(&moves).unwrap();
    }
    let eval = model.eval.clone();
    let make = || SearchValuer::new(Searcher::new(eval.clone(), 1, 1), 2, Selectivity::NONE);
    book.sweep(Some(&make), 1, &|_, _| {});
    let items: Vec<ValuationRequest> = book
        .sorted_nodes()
        .into_iter()
        .filter(|(_, n)| n.is_played())
        .take(6)
        .map(|(board, _)| ValuationRequest {
            board,
            allowed: board.legal_moves(),
            exact: false,
            excerpt: BookExcerpt::around(&book, &board),
        })
        .collect();
    let unit = ValuationUnit {
        depth: 6,
        selectivity: Selectivity(2),
        table_mb: 4,
        weights_checksum: model.weights_checksum,
        probcut_checksum: model.probcut_checksum,
        items,
    };
    let expected = unit.run(model.eval.clone(), Some(model.probcut.clone()));
    assert!(expected.iter().all(|v| v.is_some()));

    let bytes = unit.to_bytes();
    let mut damaged = bytes.clone();
    damaged[40] ^= 0x04;
    let rt = wedge_lab::distrib::runtime().unwrap();
    rt.block_on(async {
        let queue = wedge_lab::distrib::connect(&server.url).await.unwrap();
        queue.units().await.unwrap();
        queue.results().await.unwrap();
        let store = queue.files().await.unwrap();
        wedge_lab::distrib::upload_model(&store, &weights, &model)
            .await
            .unwrap();
        for payload in [damaged, bytes] {
            queue
                .js
                .publish("wedge.units.valuation", payload.into())
                .await
                .unwrap()
                .await
                .unwrap();
        }
    });
    let mut worker = start_worker(&server.url, &dir, "v1");
    let subject = wedge_lab::distrib::result_subject(&unit);
    let start = Instant::now();
    let payload = loop {
        let found = rt.block_on(async {
            let queue = wedge_lab::distrib::connect(&server.url).await.unwrap();
            let results = queue.results().await.unwrap();
            results
                .get_last_raw_message_by_subject(&subject)
                .await
                .ok()
                .map(|m| m.payload.to_vec())
        });
        if let Some(p) = found {
            break p;
        }
        assert!(
            start.elapsed() < Duration::from_secs(120),
            "no result on {subject} within 120 s"
        );
        std::thread::sleep(Duration::from_millis(200));
    };
    assert_eq!(valuation_result_from_bytes(&payload, &unit), Ok(expected));
    terminate(&mut worker, "the worker");
    let log = std::fs::read_to_string(dir.join("v1.log")).unwrap();
    assert_eq!(log.matches("refused message").count(), 1, "{log}");
    assert!(log.contains("checksum mismatch"), "{log}");
    assert!(
        log.contains("stopped after 1 units (0 games, 6 positions, 1 messages refused)"),
        "{log}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Runs `wedge` with `args` and returns its standard output, failing on an error.
fn run_ok(args: &[&str]) -> String {
    let out = wedge().args(args).output().expect("run wedge");
    assert!(
        out.status.success(),
        "wedge {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// `dir/start.book`: the openings `range` of `books/openings-8ply.txt`, imported at depth 4.
fn start_book(dir: &Path, range: std::ops::Range<usize>) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let openings = std::fs::read_to_string(root.join("books/openings-8ply.txt")).unwrap();
    let lines: Vec<&str> = openings.lines().filter(|l| !l.starts_with('#')).collect();
    let games = dir.join("games.txt");
    std::fs::write(&games, lines[range].join("\n")).unwrap();
    let book = dir.join("start.book");
    let (games, book) = (games.to_str().unwrap(), book.to_str().unwrap());
    run_ok(&[
        "--threads",
        "1",
        "book",
        "import",
        games,
        "--book",
        book,
        "--depth",
        "4",
    ]);
}

/// A book expansion run twice from `dir/start.book` (openings `range`, see [`start_book`]):
/// here it is run at once into `dir/local.book`; the returned arguments run it on the queue at
/// `url` into `dir/queue.book`.
fn book_expansions(
    dir: &Path,
    range: std::ops::Range<usize>,
    expand: &[&str],
    url: &str,
) -> Vec<String> {
    start_book(dir, range);
    let p = |name: &str| dir.join(name).to_str().unwrap().to_string();
    for name in ["local.book", "queue.book"] {
        std::fs::copy(dir.join("start.book"), dir.join(name)).unwrap();
    }
    let head = |book: &str| ["--threads", "1", "book", "expand", "--book", book].map(String::from);
    let expand: Vec<String> = expand.iter().map(|s| s.to_string()).collect();
    let local: Vec<String> = [&head(&p("local.book"))[..], &expand[..]].concat();
    run_ok(&local.iter().map(String::as_str).collect::<Vec<_>>());
    let queue = ["--queue".to_string(), url.to_string()];
    [&head(&p("queue.book"))[..], &expand[..], &queue[..]].concat()
}

/// Checks `dir/queue.book` is `dir/local.book`, entry for entry.
fn assert_same_books(dir: &Path) {
    let p = |name: &str| dir.join(name).to_str().unwrap().to_string();
    for (book, text) in [("local.book", "local.txt"), ("queue.book", "queue.txt")] {
        run_ok(&["book", "export", "--book", &p(book), "--text", &p(text)]);
    }
    let read = |name: &str| std::fs::read_to_string(dir.join(name)).unwrap();
    assert_eq!(read("queue.txt"), read("local.txt"));
}

#[test]
fn a_book_expansion_on_two_workers_makes_the_local_book_and_a_rerun_takes_its_answers_back() {
    let server = Server::start("bookq");
    let dir = temp_dir("bookq");
    start_book(&dir, 0..16);
    let p = |name: &str| dir.join(name).to_str().unwrap().to_string();
    let expand = |book: &str, queue: Option<&str>| {
        std::fs::copy(dir.join("start.book"), dir.join(book)).unwrap();
        let mut args = vec!["--threads", "1", "book", "expand", "--book"];
        let path = p(book);
        args.push(&path);
        args.extend(["--budget", "40", "--depth", "4", "--batch", "8"]);
        if let Some(url) = queue {
            args.extend(["--queue", url]);
        }
        let out = run_ok(&args);
        let text = p(&format!("{book}.txt"));
        run_ok(&["book", "export", "--book", &path, "--text", &text]);
        (out, std::fs::read_to_string(&text).unwrap())
    };
    let (_, local) = expand("local.book", None);
    assert!(local.lines().count() > 100, "{local}");
    let mut w1 = start_worker(&server.url, &dir, "b1");
    let mut w2 = start_worker(&server.url, &dir, "b2");
    let (out, queued) = expand("queue.book", Some(&server.url));
    assert_eq!(
        queued, local,
        "the queue's book differs from the local one: {out}"
    );
    assert!(
        out.contains(" 0 answered by an earlier run, 0 results refused"),
        "{out}"
    );
    // A rerun (as after a coordinator stopped before publishing) finds every answer made.
    terminate(&mut w1, "worker b1");
    terminate(&mut w2, "worker b2");
    let (out, again) = expand("again.book", Some(&server.url));
    assert_eq!(again, local);
    assert!(out.contains("queue: 0 valuation units published"), "{out}");
    let logs = [1, 2].map(|i| std::fs::read_to_string(dir.join(format!("b{i}.log"))).unwrap());
    for log in &logs {
        assert!(log.contains("0 messages refused"), "{log}");
    }
    assert!(
        logs.iter().any(|l| l.contains("positions in")),
        "no worker valued: {logs:?}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_book_expansion_coordinator_killed_mid_run_is_resumed_by_a_rerun() {
    // The first coordinator queues its first level's units with no worker there, and is
    // killed; the workers then answer them, and a rerun from the (unchanged) published book
    // takes those answers back and ends with the local run's book.
    let server = Server::start("bookr");
    let dir = temp_dir("bookr");
    let expand = [
        "--budget",
        "24",
        "--depth",
        "4",
        "--batch",
        "8",
        "--save-every",
        "0",
    ];
    let args = book_expansions(&dir, 16..28, &expand, &server.url);
    let mut first = wedge()
        .args(&args)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    // Wait until it has queued units, then kill it.
    let start = Instant::now();
    let rt = wedge_lab::distrib::runtime().unwrap();
    loop {
        let queued = rt.block_on(async {
            let queue = wedge_lab::distrib::connect(&server.url).await.unwrap();
            let mut units = queue.units().await.unwrap();
            units.info().await.map(|i| i.state.messages).unwrap_or(0)
        });
        if queued > 0 {
            break;
        }
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "no unit queued within 60 s"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    first.kill().unwrap();
    first.wait().unwrap();
    let mut w = start_worker(&server.url, &dir, "r1");
    // Let the worker answer what the killed coordinator queued.
    let start = Instant::now();
    loop {
        let left = rt.block_on(async {
            let queue = wedge_lab::distrib::connect(&server.url).await.unwrap();
            let mut units = queue.units().await.unwrap();
            units.info().await.map(|i| i.state.messages).unwrap_or(1)
        });
        if left == 0 {
            break;
        }
        assert!(
            start.elapsed() < Duration::from_secs(120),
            "units left after 120 s"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    let out = run_ok(&args.iter().map(String::as_str).collect::<Vec<_>>());
    terminate(&mut w, "worker r1");
    assert!(!out.contains(" 0 answered by an earlier run"), "{out}");
    assert_same_books(&dir);
    let _ = std::fs::remove_dir_all(&dir);
}

/// `dir/ffo.obf`: FFO #1-#6 (18-22 empties), from `data/ffo`.
fn ffo_positions(dir: &Path) -> PathBuf {
    let path = data_path("ffo/fforum-1-19.obf");
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {} ({e})", path.display()));
    let file = dir.join("ffo.obf");
    std::fs::write(&file, text.lines().take(6).collect::<Vec<_>>().join("\n")).unwrap();
    file
}

/// A solve table's rows without the time columns (nodes and scores stay).
fn without_times(table: &str) -> Vec<String> {
    table
        .lines()
        .filter(|l| !l.starts_with("total"))
        .map(|l| {
            let cols: Vec<&str> = l.split_whitespace().collect();
            cols[..cols.len().min(7)].join(" ")
        })
        .collect()
}

#[test]
fn a_solve_over_two_workers_matches_the_local_one_and_refuses_a_damaged_answer() {
    use wedge_lab::distrib::SolveUnit;
    use wedge_lab::distrib::{result_subject, KeyedUnit};
    use wedge_lab::tools::solve::SolveSearch;

    let server = Server::start("solveq");
    let dir = temp_dir("solveq");
    let file = ffo_positions(&dir);
    let file = file.to_str().unwrap();
    let args = ["--threads", "1", "--hash", "16", "solve", file];
    let local = run_ok(&args);
    assert!(local.contains("checked 6, wrong 0"), "{local}");
    // A damaged answer waits on the first unit's subject (FFO #1 and #2, two per unit); exact
    // solves are sent the solver's weights.
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let model = wedge_lab::train::selfplay::Model::load(
        &root.join("weights/solver.wts"),
        Some(&root.join("weights/solver.probcut")),
    )
    .unwrap();
    let text = std::fs::read_to_string(file).unwrap();
    let boards: Vec<_> = wedge_core::formats::parse_obf_file(&text)
        .unwrap()
        .iter()
        .map(|e| e.position.board)
        .collect();
    let first = SolveUnit {
        search: SolveSearch::Exact,
        table_mb: 16,
        weights_checksum: model.weights_checksum,
        probcut_checksum: model.probcut_checksum,
        boards: boards[..2].to_vec(),
    };
    let rt = wedge_lab::distrib::runtime().unwrap();
    rt.block_on(async {
        let queue = wedge_lab::distrib::connect(&server.url).await.unwrap();
        queue.results().await.unwrap();
        let mut bytes = wedge_lab::distrib::solve_result_to_bytes(first.key_value(), &[]);
        bytes[12] ^= 1;
        queue
            .js
            .publish(result_subject(&first), bytes.into())
            .await
            .unwrap()
            .await
            .unwrap();
    });
    let mut w1 = start_worker(&server.url, &dir, "s1");
    let mut w2 = start_worker(&server.url, &dir, "s2");
    let queued_args = [&args[..], &["--queue", &server.url, "--per-unit", "2"]].concat();
    let out = wedge().args(&queued_args).output().unwrap();
    let (stdout, stderr) = (
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr),
    );
    assert!(out.status.success(), "{stderr}");
    // One thread per search from an empty table of the same size: the same nodes too.
    assert_eq!(without_times(&stdout), without_times(&local), "{stdout}");
    assert!(stdout.contains("checked 6, wrong 0"), "{stdout}");
    assert!(
        stderr.contains("refused the result of solve") && stderr.contains("checksum mismatch"),
        "{stderr}"
    );
    assert!(
        stderr.contains(
            "queue: 3 solve units published, 0 answered by an earlier run, 1 results refused"
        ),
        "{stderr}"
    );
    // A rerun (a coordinator stopped and started again) takes every answer back.
    terminate(&mut w1, "worker s1");
    terminate(&mut w2, "worker s2");
    let again = wedge().args(&queued_args).output().unwrap();
    let stderr = String::from_utf8_lossy(&again.stderr);
    assert!(again.status.success(), "{stderr}");
    assert_eq!(
        without_times(&String::from_utf8_lossy(&again.stdout)),
        without_times(&local)
    );
    assert!(
        stderr.contains("queue: 0 solve units published, 3 answered by an earlier run"),
        "{stderr}"
    );
    let logs = [1, 2].map(|i| std::fs::read_to_string(dir.join(format!("s{i}.log"))).unwrap());
    assert!(
        logs.iter().all(|l| l.contains("0 messages refused")),
        "{logs:?}"
    );
    let solved: usize = logs.iter().map(|l| l.matches("positions in").count()).sum();
    assert_eq!(solved, 3, "{logs:?}");
    let status = run_ok(&["queue", "status", "--queue", &server.url]);
    assert!(
        status.contains("0 results waiting for their coordinator, 3 kept for reruns")
            && status.contains("  solve: 3"),
        "{status}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_book_expansion_survives_a_worker_killed_mid_unit() {
    // The only worker is killed (SIGKILL) while it values the first unit; that unit comes back
    // to the next worker once its acknowledgement time runs out, and the book is the local one.
    let server = Server::start("bookk");
    let dir = temp_dir("bookk");
    let expand = ["--budget", "8", "--depth", "12", "--batch", "8"];
    let args = book_expansions(&dir, 28..34, &expand, &server.url);
    let mut w1 = start_worker(&server.url, &dir, "k1");
    let mut coordinator = wedge()
        .args(&args)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    kill_mid_unit(&mut w1, &dir, "k1", "valuing valuation", "positions in");
    let mut w2 = start_worker(&server.url, &dir, "k2");
    let out = finish_coordinator(&mut coordinator, Duration::from_secs(600));
    assert!(out.contains("0 results refused"), "{out}");
    terminate(&mut w2, "worker k2");
    assert_same_books(&dir);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Each game of a GGF file as its moves and result (times and evaluations left out).
fn games_of(path: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(path).unwrap();
    wedge_core::formats::parse_ggf_games(&text)
        .map(|g| {
            let g = g.unwrap();
            let moves: Vec<String> = g.game().moves().iter().map(|m| m.to_string()).collect();
            format!("{} {:?}", moves.join(" "), g.result)
        })
        .collect()
}

#[test]
fn a_match_on_two_workers_plays_the_local_games_a_rerun_plays_new_ones_and_resume_takes_them_back()
{
    let server = Server::start("matchq");
    let dir = temp_dir("matchq");
    let exe = env!("CARGO_BIN_EXE_wedge");
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let openings = std::fs::read_to_string(root.join("books/openings-8ply.txt")).unwrap();
    let three: Vec<&str> = openings
        .lines()
        .filter(|l| !l.starts_with('#'))
        .take(3)
        .collect();
    std::fs::write(dir.join("openings.txt"), three.join("\n")).unwrap();
    let p = |name: &str| dir.join(name).to_str().unwrap().to_string();
    // The second engine is the shipped Wedge at another table size, as the workers know it.
    let other = format!("{exe} --log off --hash 8 --no-book nboard");
    let common = |out: &str| {
        vec![
            "--hash".to_string(),
            "16".into(),
            "match".into(),
            "--depth".into(),
            "3".into(),
            "--depth".into(),
            "2".into(),
            "--games".into(),
            "6".into(),
            "--openings".into(),
            p("openings.txt"),
            "--name".into(),
            "first".into(),
            "--name".into(),
            "second".into(),
            "--out".into(),
            p(out),
        ]
    };
    let mut local = common("local.ggf");
    local.extend([
        "--engine".into(),
        format!("{exe} --log off --hash 16 --no-book nboard"),
        "--engine".into(),
        other.clone(),
    ]);
    let out = wedge().args(&local).output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let start_worker_with = |name: &str| {
        let log = std::fs::File::create(dir.join(format!("{name}.log"))).unwrap();
        wedge()
            .args([
                "--threads",
                "1",
                "worker",
                "--queue",
                &server.url,
                "--name",
                name,
            ])
            .arg("--cache")
            .arg(dir.join(format!("cache-{name}")))
            .arg("--engine")
            .arg(format!("other={other}"))
            .stdout(Stdio::null())
            .stderr(log)
            .spawn()
            .expect("start a worker")
    };
    let mut w1 = start_worker_with("m1");
    let mut w2 = start_worker_with("m2");
    let mut queued = common("queue.ggf");
    queued.extend(
        [
            "--engine",
            "wedge",
            "--engine",
            "other",
            "--queue",
            &server.url,
        ]
        .map(String::from),
    );
    let out = wedge().args(&queued).output().unwrap();
    let (stdout, stderr) = (
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr),
    );
    assert!(out.status.success(), "{stderr}");
    assert!(stdout.contains("on the workers of"), "{stdout}");
    assert_eq!(
        games_of(&dir.join("queue.ggf")),
        games_of(&dir.join("local.ggf"))
    );
    assert_eq!(games_of(&dir.join("local.ggf")).len(), 6);
    assert!(
        stderr.contains(
            "queue: 6 match units published, 0 answered by an earlier run, 0 results refused"
        ),
        "{stderr}"
    );
    let run_of = |stderr: &str| {
        let line = stderr.lines().find(|l| l.starts_with("wedge match: run "));
        line.map(|l| l["wedge match: run ".len()..][..16].to_string())
            .unwrap_or_else(|| panic!("no run id: {stderr}"))
    };
    let first_run = run_of(&stderr);
    // An identical rerun is a new run: its games are played again, none taken back.
    let rerun = wedge().args(&queued).output().unwrap();
    let stderr = String::from_utf8_lossy(&rerun.stderr);
    assert!(rerun.status.success(), "{stderr}");
    assert!(
        stderr.contains(
            "queue: 6 match units published, 0 answered by an earlier run, 0 results refused"
        ),
        "{stderr}"
    );
    let second_run = run_of(&stderr);
    assert_ne!(first_run, second_run);
    assert_eq!(
        games_of(&dir.join("queue.ggf")),
        games_of(&dir.join("local.ggf"))
    );
    terminate(&mut w1, "worker m1");
    terminate(&mut w2, "worker m2");
    let logs = ["m1", "m2"].map(|n| std::fs::read_to_string(dir.join(format!("{n}.log"))).unwrap());
    let played: usize = logs.iter().map(|l| l.matches("1 game in").count()).sum();
    assert_eq!(played, 12, "{logs:?}");
    // Resumed with no worker: the latest run's games all come back from the results stream.
    let resumed = [&queued[..], &["--resume".to_string()]].concat();
    let again = wedge().args(&resumed).output().unwrap();
    let stderr = String::from_utf8_lossy(&again.stderr);
    assert!(again.status.success(), "{stderr}");
    assert!(
        stderr.contains(&format!("wedge match: resuming run {second_run}")),
        "{stderr}"
    );
    assert!(
        stderr.contains("queue: 0 match units published, 6 answered by an earlier run"),
        "{stderr}"
    );
    assert_eq!(
        games_of(&dir.join("queue.ggf")),
        games_of(&dir.join("local.ggf"))
    );
    // Another match (other display names) has no run to resume.
    let mut other_match = resumed.clone();
    let names = other_match.iter().position(|a| a == "first").unwrap();
    other_match[names] = "third".into();
    let out = wedge().args(&other_match).output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{stderr}");
    assert!(stderr.contains("has no run of this match"), "{stderr}");
    let status = run_ok(&["queue", "status", "--queue", &server.url]);
    assert!(
        status.contains("12 kept for reruns") && status.contains("each kept 7 days"),
        "{status}"
    );
    // A match naming an engine no one has is refused before anything is queued.
    let mut bad = common("bad.ggf");
    bad.extend(
        [
            "--engine",
            "wedge",
            "--engine",
            "rm -rf",
            "--queue",
            &server.url,
        ]
        .map(String::from),
    );
    let out = wedge().args(&bad).output().unwrap();
    assert!(!out.status.success());
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("with --queue an engine is `wedge`"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn distributed_selfplay_from_wthor_lines_is_byte_identical() {
    // Every game leaves a WTHOR line; the worker has no WTHOR files, only the lines the
    // coordinator put in the object store.
    let wthor = data_path("wthor");
    let dir = temp_dir("wthorq");
    let args = |out: &Path| {
        let mut a = sized_args(out, 2, 2, 8);
        a.extend(["--wthor".into(), wthor.to_str().unwrap().into()]);
        a.extend(["--wthor-ratio".into(), "1".into()]);
        a
    };
    let expected = local_run_with(&dir, args(&dir.join("local")), 4);
    let server = Server::start("wthorq");
    let mut w = start_worker(&server.url, &dir, "t1");
    let distributed = dir.join("distributed");
    queued_selfplay_ok(args(&distributed), &server.url);
    assert_eq!(
        files(&distributed),
        expected,
        "distributed run differs from the local one"
    );
    terminate(&mut w, "worker t1");
    let log = std::fs::read_to_string(dir.join("t1.log")).unwrap();
    assert!(log.contains("stopped after 4 units (8 games"), "{log}");
    drop(server);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Runs `f` on a fresh connection to the queue at `url`.
fn with_queue<T>(url: &str, f: impl AsyncFnOnce(wedge_lab::distrib::Queue) -> T) -> T {
    let rt = wedge_lab::distrib::runtime().unwrap();
    rt.block_on(async {
        let queue = wedge_lab::distrib::connect(url).await.unwrap();
        f(queue).await
    })
}

#[test]
fn poison_units_are_terminated_reported_by_status_and_fail_their_coordinator() {
    use wedge_lab::distrib::KeyedUnit;
    use wedge_lab::distrib::SolveUnit;
    use wedge_lab::distrib::MAX_DELIVERIES;
    use wedge_lab::tools::solve::SolveSearch;

    let server = Server::start("poison");
    let dir = temp_dir("poison");
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let weights = wedge_core::eval::Weights::load(&root.join("weights/default.wts")).unwrap();
    let probcut =
        wedge_core::search::ProbCutModel::load(&root.join("weights/default.probcut")).unwrap();
    let model = wedge_lab::train::selfplay::Model::new(&weights, probcut).unwrap();
    let solve = |weights_checksum: u64| SolveUnit {
        search: SolveSearch::Exact,
        table_mb: 1,
        weights_checksum,
        probcut_checksum: model.probcut_checksum,
        boards: vec![wedge_core::board::Board::START],
    };
    // A unit whose earlier deliveries all ended with no answer (as when the workers that took
    // it were killed): the next worker terminates it before trying. And a unit naming weights
    // the object store lacks: terminated at its first delivery.
    let exhausted = solve(model.weights_checksum);
    let missing = solve(0xdead);
    with_queue(&server.url, async |queue| {
        // A results stream made by an older build, which kept every answer forever.
        queue
            .js
            .create_stream(async_nats::jetstream::stream::Config {
                name: "WEDGE_RESULTS".into(),
                subjects: vec!["wedge.results.>".into()],
                max_messages_per_subject: 1,
                ..Default::default()
            })
            .await
            .unwrap();
        let units = queue.units().await.unwrap();
        let store = queue.files().await.unwrap();
        wedge_lab::distrib::upload_model(&store, &weights, &model)
            .await
            .unwrap();
        let publish = async |unit: &SolveUnit| {
            queue
                .js
                .publish(
                    format!("wedge.units.solve.{}", unit.key()),
                    unit.to_bytes().into(),
                )
                .await
                .unwrap()
                .await
                .unwrap();
        };
        publish(&exhausted).await;
        let consumer = queue.workers_consumer(&units).await.unwrap();
        for delivery in 1..=MAX_DELIVERIES {
            let mut batch = consumer
                .fetch()
                .max_messages(1)
                .expires(Duration::from_secs(60))
                .messages()
                .await
                .unwrap();
            use futures_util::StreamExt;
            let message = batch.next().await.expect("the unit").unwrap();
            assert_eq!(message.info().unwrap().delivered, delivery);
            message
                .ack_with(async_nats::jetstream::AckKind::Nak(None))
                .await
                .unwrap();
        }
        publish(&missing).await;
    });
    // A match whose second engine no worker has: each game is released, then terminated.
    let openings = std::fs::read_to_string(root.join("books/openings-8ply.txt")).unwrap();
    let first = openings.lines().find(|l| !l.starts_with('#')).unwrap();
    std::fs::write(dir.join("openings.txt"), first).unwrap();
    let mut worker = start_worker(&server.url, &dir, "p1");
    let mut coordinator = wedge()
        .args(["--hash", "4", "match", "--depth", "1", "--games", "2"])
        .arg("--openings")
        .arg(dir.join("openings.txt"))
        .arg("--out")
        .arg(dir.join("poison.ggf"))
        .args(["--engine", "wedge", "--engine", "ntest"])
        .args(["--queue", &server.url])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let status = wait_for(
        &mut coordinator,
        Duration::from_secs(400),
        "the coordinator",
    );
    let mut stderr = String::new();
    coordinator
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut stderr)
        .unwrap();
    assert!(!status.success(), "the coordinator succeeded: {stderr}");
    let engine = "engine \"ntest\" is not one of this worker's";
    assert!(
        stderr.contains("queue: 2 units were terminated and have no answer:")
            && stderr.contains("match game 1 (")
            && stderr.contains("match game 2 (")
            && stderr.contains(&format!(
                "terminated after {MAX_DELIVERIES} deliveries by worker p1: {engine}"
            )),
        "{stderr}"
    );
    let status = run_ok(&["queue", "status", "--queue", &server.url]);
    assert!(
        status.contains("stream WEDGE_UNITS: 0 units queued")
            && status.contains("stream WEDGE_FAILED: 4 units terminated")
            && status.contains(&format!("solve {}: ", missing.key()))
            && status.contains(
                "terminated after 1 delivery by worker p1: object weights-000000000000dead.wts \
                 is not in the object store"
            )
            && status.contains(&format!("solve {}: ", exhausted.key()))
            && status.contains(&format!(
                "terminated after {} deliveries by worker p1: delivered {} times and never \
                 answered",
                MAX_DELIVERIES + 1,
                MAX_DELIVERIES + 1
            ))
            && status.matches(engine).count() == 2
            && status.contains("each kept 7 days"),
        "{status}"
    );
    terminate(&mut worker, "worker p1");
    let log = std::fs::read_to_string(dir.join("p1.log")).unwrap();
    assert!(
        log.contains(&format!(
            "{engine} (start it with --engine ntest=COMMAND); released for another try (delivery 1 \
             of at most {MAX_DELIVERIES})"
        )),
        "{log}"
    );
    assert!(
        log.contains(
            "stopped after 0 units (0 games, 0 positions, 0 messages refused); 4 units terminated"
        ),
        "{log}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_selfplay_run_whose_weights_object_is_damaged_fails_naming_its_batches_then_reruns() {
    // The weights the run names are in the object store already, damaged: the coordinator
    // does not upload them again, each unit is terminated at its first delivery, and the
    // coordinator fails naming every batch. With the object gone the rerun plays them.
    let dir = temp_dir("damaged");
    let server = Server::start("damaged");
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let weights = wedge_core::eval::Weights::load(&root.join("weights/default.wts")).unwrap();
    let probcut =
        wedge_core::search::ProbCutModel::load(&root.join("weights/default.probcut")).unwrap();
    let model = wedge_lab::train::selfplay::Model::new(&weights, probcut).unwrap();
    let name = wedge_lab::distrib::weights_name(model.weights_checksum);
    let store_damaged = async |queue: wedge_lab::distrib::Queue| {
        let store = queue.files().await.unwrap();
        store
            .put(name.as_str(), &mut &b"not weights"[..])
            .await
            .unwrap();
    };
    with_queue(&server.url, store_damaged);
    let mut worker = start_worker(&server.url, &dir, "d1");
    let distributed = dir.join("distributed");
    let out = wedge()
        .args(selfplay_args(&distributed))
        .args(["--queue", &server.url])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{stderr}");
    assert!(
        stderr.contains("4 units were terminated and have no answer:")
            && stderr.contains("batch 3 of run 11: terminated after 1 delivery by worker d1: ")
            && stderr.contains(&format!("object {name}: ")),
        "{stderr}"
    );
    let status = run_ok(&["queue", "status", "--queue", &server.url]);
    assert!(
        status.contains("stream WEDGE_FAILED: 4 units terminated"),
        "{status}"
    );
    with_queue(&server.url, async |queue| {
        queue
            .files()
            .await
            .unwrap()
            .delete(name.as_str())
            .await
            .unwrap();
    });
    queued_selfplay_ok(selfplay_args(&distributed), &server.url);
    let status = run_ok(&["queue", "status", "--queue", &server.url]);
    assert!(
        status.contains("stream WEDGE_FAILED: 0 units terminated"),
        "{status}"
    );
    terminate(&mut worker, "worker d1");
    let log = std::fs::read_to_string(dir.join("d1.log")).unwrap();
    assert!(
        log.contains(
            "stopped after 4 units (8 games, 0 positions, 0 messages refused); 4 units terminated"
        ),
        "{log}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
