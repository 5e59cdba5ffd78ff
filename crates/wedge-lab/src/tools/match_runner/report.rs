//! The running line printed after each game and the final table.

use super::config::MatchConfig;
use super::stats::{format_discs, format_elo, SprtDecision};
use super::summary::{ForfeitNote, MatchSummary};

/// `game 12/200  Wedge6 (W) vs Wedge4: +10   W 7 D 1 L 4  score 62.5%  Elo +88.7 [...]`.
pub(crate) fn running_line(
    s: &MatchSummary,
    index: usize,
    total: usize,
    first_is_black: bool,
    first_margin: i32,
    forfeit: Option<&ForfeitNote>,
) -> String {
    let t = &s.tally;
    let mut line = format!(
        "game {:>4}/{total}  {} ({}) vs {}: {:+3}  W {} D {} L {}  score {:5.1}%  Elo {}",
        index + 1,
        s.names[0],
        if first_is_black { "B" } else { "W" },
        s.names[1],
        first_margin,
        t.wins,
        t.draws,
        t.losses,
        100.0 * t.score().unwrap_or(0.5),
        format_elo(t)
    );
    if let Some(f) = forfeit {
        line.push_str(&format!("  [{} forfeits: {}]", s.names[f.engine], f.reason));
    }
    line
}

/// The final summary table, the forfeits and the SPRT verdict.
pub(crate) fn final_table(s: &MatchSummary, cfg: &MatchConfig) -> String {
    let t = &s.tally;
    let mut out = String::new();
    out.push_str("\nfinal result\n");
    out.push_str(&format!(
        "{:<24} {:>6} {:>5} {:>5} {:>5} {:>7} {:>15} {:>8}  {}\n",
        "engine", "games", "wins", "draws", "losses", "score", "discs [95%]", "s/game", "Elo [95%]"
    ));
    let engines = [
        (&s.names[0], *t, s.seconds[0]),
        (&s.names[1], t.flipped(), s.seconds[1]),
    ];
    for (name, tally, seconds) in engines {
        out.push_str(&format!(
            "{:<24} {:>6} {:>5} {:>5} {:>5} {:>6.1}% {:>15} {:>8.3}  {}\n",
            name,
            tally.games(),
            tally.wins,
            tally.draws,
            tally.losses,
            100.0 * tally.score().unwrap_or(0.5),
            format_discs(&tally),
            seconds / tally.games().max(1) as f64,
            format_elo(&tally)
        ));
    }
    if s.forfeits.is_empty() {
        out.push_str("adjudications: none\n");
    } else {
        out.push_str(&format!("adjudications: {}\n", s.forfeits.len()));
        for f in &s.forfeits {
            out.push_str(&format!(
                "  game {}: {} forfeits ({}): {}\n",
                f.game,
                s.names[f.engine],
                f.reason.category(),
                f.reason
            ));
        }
    }
    if let (Some(sprt), Some((decision, llr))) = (&cfg.sprt, s.sprt) {
        let (lo, hi) = sprt.bounds();
        let verdict = match decision {
            SprtDecision::H1 => format!("H1 accepted (Elo >= {})", sprt.elo1),
            SprtDecision::H0 => format!("H0 accepted (Elo <= {})", sprt.elo0),
            SprtDecision::Continue => "no decision yet".to_string(),
        };
        out.push_str(&format!(
            "SPRT elo0 {} elo1 {} alpha {} beta {}: LLR {:+.3} in [{:.3}, {:.3}]: {}\n",
            sprt.elo0, sprt.elo1, sprt.alpha, sprt.beta, llr, lo, hi, verdict
        ));
    }
    out.push_str(&format!(
        "games written to {} ({} records)\n",
        cfg.out.display(),
        s.records.len()
    ));
    out
}
