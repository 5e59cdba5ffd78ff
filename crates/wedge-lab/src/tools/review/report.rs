//! A game review as people and programs read it: the table `wedge review` prints (the moves,
//! each side's mistakes and blunders, where the result was decided) and the JSON of `--json`,
//! which the page (`tools::review_html`) carries.

use super::{
    Decided, GameReview, MoveValue, ReviewError, ReviewSettings, Severity, SideSummary, ValueKind,
};
use crate::tools::json::Json;
use std::io::Write;
use std::path::Path;
use wedge_core::board::Move;
use wedge_core::formats::{format_position, format_transcript, Clock, Color};
use wedge_core::search::Score;
use wedge_engine::OfferedMove;

/// `+2.5` / `-3`: a value as the table prints it.
fn signed(s: Score) -> String {
    format!("{s:+}")
}

/// The first `n` moves of a line, then `...` when it goes on.
fn line_text(line: &[Move], n: usize) -> String {
    let mut s: Vec<String> = line.iter().take(n).map(Move::to_string).collect();
    if line.len() > n {
        s.push("...".into());
    }
    s.join(" ")
}

/// Moves numbered 1-based, as `23 b7` lists.
fn move_list(r: &GameReview, indices: &[usize]) -> String {
    indices
        .iter()
        .map(|&i| format!("{} {}", i + 1, r.moves[i].played))
        .collect::<Vec<_>>()
        .join(", ")
}

/// `a win by 4`, `a draw`, `a loss by 2`: a solved value for its side.
fn outcome_text(v: &MoveValue) -> String {
    let d = v.score.discs();
    match (v.kind, d.signum()) {
        (_, 0) => "a draw".into(),
        (ValueKind::WinLossDraw, 1) => "a win".into(),
        (ValueKind::WinLossDraw, _) => "a loss".into(),
        (_, 1) => format!("a win by {d}"),
        (_, _) => format!("a loss by {}", -d),
    }
}

/// What `decided` says of the game, in words.
pub(crate) fn decided_text(r: &GameReview) -> String {
    match r.decided() {
        Decided::At(i) => {
            let m = &r.moves[i];
            let j = m.judged.as_ref().expect("a judged move");
            format!(
                "decided at move {} ({} {}): {} instead of {} with {}",
                i + 1,
                m.color(),
                m.played,
                outcome_text(&j.played),
                outcome_text(&j.best),
                j.best.mv
            )
        }
        Decided::Before(i) => {
            let m = &r.moves[i];
            let j = m.judged.as_ref().expect("a judged move");
            format!(
                "decided before move {}, the first solved position ({} to move: {} with {})",
                i + 1,
                m.color(),
                outcome_text(&j.best),
                j.best.mv
            )
        }
        Decided::Unknown => "not known: no position of the game was solved".into(),
    }
}

/// Writes the review of one game as a table: a header, one row per move, each side's
/// summary and where the result was decided.
pub fn write_table(out: &mut dyn Write, r: &GameReview) -> std::io::Result<()> {
    let (black, white) = r.names();
    let result = r.final_for_black().map_or("unfinished".to_string(), |d| {
        format!("final score Black {d:+}")
    });
    writeln!(
        out,
        "{}: Black {black}, White {white}; {} moves; {result}",
        r.source(),
        r.moves.len()
    )?;
    writeln!(
        out,
        "{:>4} {:<5} {:>3} {:<4} {:>7} {:<4} {:>7} {:>6} {:<3} {:<8} {:<30} book",
        "move", "side", "emp", "play", "value", "best", "value", "loss", "", "by", "best line"
    )?;
    for (i, m) in r.moves.iter().enumerate() {
        let side = match m.color() {
            Color::Black => "Black",
            Color::White => "White",
        };
        let empties = m.before.board.empty_count();
        let book = m.book.map_or(String::new(), |b| {
            let played = b
                .played
                .map_or("-".to_string(), |p| format!("{:+}", p.score));
            format!(
                "{} {:+}{}, played {played}",
                b.best.sq,
                b.best.score,
                if b.best.solved { " exact" } else { "" }
            )
        });
        match &m.judged {
            None => writeln!(
                out,
                "{:>4} {side:<5} {empties:>3} {:<4} {:>7} {:<4} {:>7} {:>6} {:<3} {:<8} {:<30} {book}",
                i + 1,
                m.played,
                "",
                "",
                "",
                "",
                "",
                "pass",
                ""
            )?,
            Some(j) => {
                let mark = m.severity().map_or("", Severity::mark);
                let kind = if j.best.kind == j.played.kind {
                    j.best.kind.label()
                } else {
                    format!("{}/{}", j.best.kind.label(), j.played.kind.label())
                };
                writeln!(
                    out,
                    "{:>4} {side:<5} {empties:>3} {:<4} {:>7} {:<4} {:>7} {:>6} {mark:<3} {kind:<8} {:<30} {book}",
                    i + 1,
                    m.played.to_string(),
                    signed(j.played.score),
                    j.best.mv.to_string(),
                    signed(j.best.score),
                    m.loss().map_or("-".to_string(), |l| l.to_string()),
                    line_text(&j.best.pv, 8)
                )?;
            }
        }
    }
    for color in [Color::Black, Color::White] {
        let s = r.side(color);
        writeln!(
            out,
            "{color}: total loss {}, average {:.2} per move over {} moves; {} mistakes{}; {} \
             blunders{}",
            s.total_loss,
            s.average_loss(),
            s.judged,
            s.mistakes.len(),
            if s.mistakes.is_empty() {
                String::new()
            } else {
                format!(" ({})", move_list(r, &s.mistakes))
            },
            s.blunders.len(),
            if s.blunders.is_empty() {
                String::new()
            } else {
                format!(" ({})", move_list(r, &s.blunders))
            },
        )?;
    }
    writeln!(out, "Result {}", decided_text(r))
}

fn color_name(c: Color) -> &'static str {
    match c {
        Color::Black => "black",
        Color::White => "white",
    }
}

fn side_json(s: &SideSummary) -> Json {
    Json::object([
        ("judged", Json::from(s.judged)),
        ("total_loss", Json::from(s.total_loss.as_f64())),
        ("average_loss", Json::from(s.average_loss())),
        (
            "mistakes",
            Json::Array(s.mistakes.iter().map(|&i| Json::from(i + 1)).collect()),
        ),
        (
            "blunders",
            Json::Array(s.blunders.iter().map(|&i| Json::from(i + 1)).collect()),
        ),
    ])
}

/// A record's clock as JSON: its main time and increment in seconds.
fn clock_json(c: &Clock) -> Json {
    Json::object([
        ("main", Json::from(c.main_ms as f64 / 1000.0)),
        ("increment", Json::from(c.increment_ms as f64 / 1000.0)),
    ])
}

/// One game's review as JSON (moves numbered from 1; values in discs for the side to move,
/// `value_for_black` after the move for Black; `seconds` and the clocks as the record notes
/// them, `clock_left` the mover's before the move).
pub(crate) fn game_json(r: &GameReview) -> Json {
    let for_black = r.values_for_black();
    let moves = r.moves.iter().zip(&for_black).map(|(m, after)| {
        let judged = m.judged.as_ref();
        Json::object([
            ("color", Json::from(color_name(m.color()))),
            ("empties", Json::from(m.before.board.empty_count())),
            ("board", Json::from(format_position(&m.before))),
            ("played", Json::from(m.played.to_string())),
            ("seconds", Json::or_null(m.seconds)),
            ("clock_left", Json::or_null(m.clock_left)),
            (
                "played_value",
                Json::or_null(judged.map(|j| j.played.to_json())),
            ),
            ("best", Json::or_null(judged.map(|j| j.best.to_json()))),
            ("loss", Json::or_null(m.loss().map(|l| l.as_f64()))),
            ("severity", Json::or_null(m.severity().map(Severity::name))),
            ("value_for_black", Json::or_null(after.map(|s| s.as_f64()))),
            (
                "book",
                Json::or_null(m.book.map(|b| {
                    Json::object([
                        ("best", offered_json(&b.best)),
                        ("played", Json::or_null(b.played.as_ref().map(offered_json))),
                    ])
                })),
            ),
        ])
    });
    let decided = match r.decided() {
        Decided::At(i) => Json::object([("at", Json::from(i + 1)), ("before", Json::Null)]),
        Decided::Before(i) => Json::object([("at", Json::Null), ("before", Json::from(i + 1))]),
        Decided::Unknown => Json::Null,
    };
    let info = &r.game.info;
    Json::object([
        ("file", Json::from(r.path.display().to_string())),
        ("place", Json::from(r.place.to_string())),
        ("black", Json::or_null(info.black.clone())),
        ("white", Json::or_null(info.white.clone())),
        (
            "black_clock",
            Json::or_null(r.clocks[0].as_ref().map(clock_json)),
        ),
        (
            "white_clock",
            Json::or_null(r.clocks[1].as_ref().map(clock_json)),
        ),
        ("start", Json::from(format_position(&r.game.start()))),
        ("transcript", Json::from(format_transcript(r.game.moves()))),
        ("final_for_black", Json::or_null(r.final_for_black())),
        ("moves", Json::Array(moves.collect())),
        ("black_summary", side_json(&r.side(Color::Black))),
        ("white_summary", side_json(&r.side(Color::White))),
        ("decided", decided),
        ("decided_text", Json::from(decided_text(r))),
    ])
}

/// The whole run as JSON: the settings, the book, every game reviewed and every error.
pub fn run_json(
    settings: &ReviewSettings,
    book: Option<&Path>,
    reviews: &[GameReview],
    errors: &[ReviewError],
) -> Json {
    let errors = errors.iter().map(|e| {
        Json::object([
            ("file", Json::from(e.path().display().to_string())),
            ("place", Json::or_null(e.place().map(|p| p.to_string()))),
            ("error", Json::from(e.to_string())),
        ])
    });
    Json::object([
        ("settings", settings.to_json()),
        ("book", Json::or_null(book.map(|p| p.display().to_string()))),
        (
            "games",
            Json::Array(reviews.iter().map(game_json).collect()),
        ),
        ("errors", Json::Array(errors.collect())),
    ])
}

fn offered_json(m: &OfferedMove) -> Json {
    Json::object([
        ("move", Json::from(m.sq.to_string())),
        ("value", Json::from(m.score)),
        ("depth", Json::from(m.depth)),
        ("solved", Json::from(m.solved)),
    ])
}
