//! `wedge match` end to end: the real binary against itself over both protocols, and against
//! small fake engines (shell scripts) that crash, play illegal moves, hang or lose on time.

use std::path::{Path, PathBuf};
use std::process::Command;
use wedge_core::formats::{parse_ggf_games, GgfGame};

#[path = "common/fake_engines.rs"]
mod fake_engines;
use fake_engines::fake_nboard;

const WEDGE: &str = env!("CARGO_BIN_EXE_wedge");

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("wedge-match-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn openings(dir: &Path) -> PathBuf {
    let p = dir.join("openings.txt");
    std::fs::write(&p, "# two openings\nf5d6c3d3c4\nf5f6e6f4\n").unwrap();
    p
}

/// Runs `wedge match ARGS --openings … --out …` and returns (success, stdout, the GGF games).
fn run_match(name: &str, args: &[&str]) -> (bool, String, Vec<GgfGame>) {
    let dir = temp_dir(name);
    let out = dir.join("games.ggf");
    let output = Command::new(WEDGE)
        .arg("match")
        .args(args)
        .arg("--openings")
        .arg(openings(&dir))
        .arg("--out")
        .arg(&out)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    let games = match std::fs::read_to_string(&out) {
        Ok(text) => parse_ggf_games(&text)
            .collect::<Result<Vec<_>, _>>()
            .unwrap_or_else(|e| panic!("bad GGF written: {e:?}\n{text}")),
        Err(_) => Vec::new(),
    };
    let _ = std::fs::remove_dir_all(&dir);
    (output.status.success(), format!("{stdout}{stderr}"), games)
}

fn wedge(protocol: &str) -> String {
    format!("{WEDGE} --hash 8 {protocol}")
}

/// GTP engine that answers every command with success, and `genmove` with `reply` (shell).
fn fake_gtp(reply: &str) -> String {
    format!(
        "sh -c 'while read -r id c a; do case \"$c\" in genmove) {reply};; *) printf \"=%s\\n\\n\" \"$id\";; esac; done'"
    )
}

fn assert_all_legal_and_over(games: &[GgfGame]) {
    for g in games {
        let game = g.game();
        assert!(game.is_over(), "unfinished game {g}");
        let result = g.result.unwrap().black_margin.unwrap();
        let (b, w) = game.disc_counts();
        assert_eq!(
            result.signum(),
            (b as f64 - w as f64).signum(),
            "result does not match the board: {g}"
        );
    }
}

#[test]
fn wedge_vs_wedge_over_both_protocols() {
    let (ok, out, games) = run_match(
        "both",
        &[
            "--engine",
            &wedge("nboard"),
            "--engine",
            &wedge("gtp"),
            "--protocol",
            "nboard",
            "--protocol",
            "gtp",
            "--depth",
            "1",
            "--games",
            "4",
            "--concurrency",
            "2",
        ],
    );
    assert!(ok, "{out}");
    assert!(out.contains("final result"), "{out}");
    assert!(out.contains("adjudications: none"), "{out}");
    assert_eq!(games.len(), 4, "{out}");
    assert_all_legal_and_over(&games);
    // Colours alternate: the NBoard engine is Black in games 1 and 3.
    assert_eq!(games[0].game().info.black, games[1].game().info.white);
    assert_eq!(games[0].game().moves()[..5], games[1].game().moves()[..5]);
}

#[test]
fn nboard_with_time_per_move() {
    // GTP times are whole seconds (too slow for a test), so both sides speak NBoard here and
    // get 0.05 s per move through the GGF clock.
    let (ok, out, games) = run_match(
        "timed",
        &[
            "--engine",
            &wedge("nboard"),
            "--engine",
            &wedge("nboard"),
            "--time-per-move",
            "0.05",
            "--time-margin",
            "2",
            "--games",
            "2",
        ],
    );
    assert!(ok, "{out}");
    assert_eq!(games.len(), 2, "{out}");
    assert_all_legal_and_over(&games);
}

#[test]
fn each_engine_plays_on_its_own_clock() {
    // Time odds: the first engine has 4 s a game, the second 1 s, whichever colour each has;
    // the records say so (`TB`, `TW`), and neither engine runs out of its own clock.
    let (ok, out, games) = run_match(
        "odds",
        &[
            "--engine",
            &wedge("nboard"),
            "--engine",
            &wedge("nboard"),
            "--clock",
            "4",
            "--clock",
            "1",
            "--time-margin",
            "2",
            "--games",
            "2",
        ],
    );
    assert!(ok, "{out}");
    assert!(out.contains("adjudications: none"), "{out}");
    assert_eq!(games.len(), 2, "{out}");
    assert_all_legal_and_over(&games);
    let mains = |g: &GgfGame| {
        assert_eq!(g.clock_both, None, "{g}");
        g.start_clocks().unwrap().map(|c| c.unwrap().main_ms)
    };
    // The first engine is Black in the first game, White in the second.
    assert_eq!(mains(&games[0]), [4000, 1000]);
    assert_eq!(mains(&games[1]), [1000, 4000]);
    // The same clock for both is written once.
    let (ok, out, games) = run_match(
        "even",
        &[
            "--engine",
            &wedge("nboard"),
            "--engine",
            &wedge("nboard"),
            "--clock",
            "1",
            "--time-margin",
            "2",
            "--games",
            "1",
        ],
    );
    assert!(ok, "{out}");
    let g = &games[0];
    assert!(g.clock_both.is_some() && g.clock_black.is_none() && g.clock_white.is_none());
    // Three clocks, or odds on a queue, are refused before anything is played.
    let (ok, out, _) = run_match(
        "three",
        &[
            "--engine", "a", "--engine", "b", "--clock", "1", "--clock", "2", "--clock", "3",
        ],
    );
    assert!(
        !ok && out.contains("--clock may be given once or twice, not 3 times"),
        "{out}"
    );
    let (ok, out, _) = run_match(
        "queued",
        &[
            "--engine",
            "wedge",
            "--engine",
            "wedge",
            "--clock",
            "1",
            "--clock",
            "2",
            "--queue",
            "nats://127.0.0.1:1",
        ],
    );
    assert!(
        !ok && out.contains("--queue plays both engines on one clock"),
        "{out}"
    );
}

/// Plays Wedge (depth 1, NBoard) against `bad` and checks every game is a forfeit of `bad`
/// with `category`, and that the match went on to the end.
fn forfeits(name: &str, bad: &str, protocol: &str, category: &str, extra: &[&str]) {
    let mut args = vec![
        "--engine".to_string(),
        wedge("nboard"),
        "--engine".to_string(),
        bad.to_string(),
        "--protocol".into(),
        "nboard".into(),
        "--protocol".into(),
        protocol.into(),
        "--depth".into(),
        "1".into(),
        "--games".into(),
        "3".into(),
        "--name".into(),
        "good".into(),
        "--name".into(),
        "bad".into(),
    ];
    args.extend(extra.iter().map(|s| s.to_string()));
    let refs: Vec<&str> = args.iter().map(String::as_str).collect();
    let (ok, out, games) = run_match(name, &refs);
    assert!(ok, "{out}");
    assert_eq!(games.len(), 3, "{out}");
    assert!(out.contains("adjudications: 3"), "{out}");
    assert_eq!(
        out.matches(&format!("bad forfeits ({category})")).count(),
        3,
        "{out}"
    );
    assert!(out.contains("W 3 D 0 L 0"), "{out}");
    for g in &games {
        let margin = g.result.unwrap().black_margin.unwrap();
        let bad_is_black = g.game().info.black.as_deref() == Some("bad");
        assert_eq!(margin, if bad_is_black { -64.0 } else { 64.0 }, "{g}");
        assert!(g.to_string().contains("C[adjudicated:"), "{g}");
    }
}

#[test]
fn crashing_engine_is_adjudicated() {
    forfeits("crash", &fake_nboard("exit 3"), "nboard", "crash", &[]);
}

#[test]
fn illegal_move_is_adjudicated() {
    // A1 is never legal in the first moves after these openings.
    forfeits(
        "illegal",
        &fake_nboard("echo \"=== A1\""),
        "nboard",
        "illegal move",
        &[],
    );
}

#[test]
fn garbage_gtp_move_is_adjudicated() {
    forfeits(
        "garbage",
        &fake_gtp("printf \"=%s zz9\\n\\n\" \"$id\""),
        "gtp",
        "illegal move",
        &[],
    );
}

#[test]
fn hung_engine_is_adjudicated() {
    forfeits(
        "hang",
        &fake_nboard("sleep 30"),
        "nboard",
        "hang",
        &["--move-timeout", "0.3"],
    );
}

#[test]
fn slow_engine_loses_on_time() {
    forfeits(
        "time",
        &fake_gtp("sleep 1; printf \"=%s PASS\\n\\n\" \"$id\""),
        "gtp",
        "time loss",
        &["--time-per-move", "0.1", "--time-margin", "0.2"],
    );
}

#[test]
fn sprt_stops_early() {
    let (ok, out, games) = run_match(
        "sprt",
        &[
            "--engine",
            &wedge("nboard"),
            "--engine",
            &fake_nboard("exit 1"),
            "--depth",
            "1",
            "--games",
            "100",
            "--sprt",
            "0",
            "10",
            "0.05",
            "0.05",
        ],
    );
    assert!(ok, "{out}");
    assert!(out.contains("H1 accepted"), "{out}");
    // Every game is a forfeit win: with the SPRT's prior of half a win and half a loss the LLR
    // for elo1 10 first passes ln(19) = 2.944 at the 14th straight win (2.978; 13 give 2.581).
    // The next game may already be under way when the 14th result arrives; it is finished and
    // kept, so 14 or 15 games are written.
    assert!(
        (14..=15).contains(&games.len()),
        "{} games\n{out}",
        games.len()
    );
}

#[test]
fn engine_that_cannot_start_is_an_error() {
    let (ok, out, _) = run_match(
        "nostart",
        &[
            "--engine",
            "/nonexistent/engine",
            "--engine",
            &wedge("nboard"),
            "--games",
            "2",
        ],
    );
    assert!(!ok);
    assert!(out.contains("cannot start"), "{out}");
}

#[test]
fn bad_openings_file_is_an_error() {
    let dir = temp_dir("badopen");
    let p = dir.join("o.txt");
    std::fs::write(&p, "f5d6\nnot a move\n").unwrap();
    let output = Command::new(WEDGE)
        .args(["match", "--engine", "x", "--engine", "y", "--openings"])
        .arg(&p)
        .output()
        .unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    assert!(!output.status.success());
    let err = String::from_utf8_lossy(&output.stderr);
    assert!(err.contains("line 2"), "{err}");
}

/// Two openings give four distinct games; the fifth and sixth play the first opening again
/// (at a fixed depth, the same games again), and the runner says so.
#[test]
fn games_past_the_openings_replay_them_and_the_runner_says_so() {
    let (ok, out, games) = run_match(
        "replay",
        &[
            "--engine",
            &wedge("nboard"),
            "--engine",
            &wedge("nboard"),
            "--depth",
            "1",
            "--games",
            "6",
        ],
    );
    assert!(ok, "{out}");
    assert!(
        out.contains("note: games after the first 4 play the openings again"),
        "{out}"
    );
    assert_eq!(games.len(), 6, "{out}");
    assert_eq!(games[4].game().moves(), games[0].game().moves());
    assert_eq!(games[5].game().moves(), games[1].game().moves());
}

/// The gate's fixed-depth match stops at two games an opening: more would repeat games
/// exactly and only inflate its SPRT.
#[test]
fn the_gate_plays_each_opening_once_a_colour_at_a_fixed_depth() {
    let dir = temp_dir("gate");
    let openings = dir.join("one.txt");
    std::fs::write(&openings, "f5d6c3d3c4\n").unwrap();
    let output = Command::new(WEDGE)
        .args([
            "gate",
            "weights/default.wts",
            "--current",
            "weights/default.wts",
        ])
        .args(["--depth", "1", "--games", "10", "--clock", "1"])
        .arg("--openings")
        .arg(&openings)
        .arg("--out")
        .arg(&dir)
        .output()
        .unwrap();
    let out = String::from_utf8_lossy(&output.stdout).into_owned()
        + &String::from_utf8_lossy(&output.stderr);
    assert!(
        out.contains("the depth match plays 2 games, not 10: 1 openings"),
        "{out}"
    );
    let text = std::fs::read_to_string(dir.join("depth.ggf")).unwrap();
    assert_eq!(parse_ggf_games(&text).count(), 2, "{out}");
    assert!(!output.status.success(), "two games decide nothing: {out}");
    let _ = std::fs::remove_dir_all(&dir);
}
