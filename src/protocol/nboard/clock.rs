//! NBoard has no time command: the time left comes from the game record, the start clock
//! (`TI`, or `TB`/`TW`) minus the times recorded in that colour's moves, plus the increment
//! after each of them, plus the one-time extension once the main time is gone.

use crate::formats::{parse_clock, ClockError, Color, GgfGame};
use crate::search::TimeControl;
use std::time::Duration;

/// The clock of the side to move, or `None` when the record has no clock.
pub fn time_left(record: &GgfGame) -> Result<Option<TimeControl>, ClockError> {
    let side = record.game().position().to_move;
    let text = match side {
        Color::Black => record.clock_black.as_ref(),
        Color::White => record.clock_white.as_ref(),
    }
    .or(record.clock_both.as_ref());
    let Some(text) = text else {
        return Ok(None);
    };
    let clock = parse_clock(text)?;
    let positions = record.game().positions();
    let mut moves = 0i64;
    let mut used_ms = 0i64;
    for (before, note) in positions.iter().zip(record.notes()) {
        if before.to_move == side {
            moves += 1;
            let secs = note.time.unwrap_or(0.0).max(0.0);
            used_ms = used_ms.saturating_add((secs * 1000.0).min(1e15) as i64);
        }
    }
    let main = clock.main_ms as i64;
    let increment = clock.increment_ms as i64;
    let mut remaining = main
        .saturating_add(increment.saturating_mul(moves))
        .saturating_sub(used_ms);
    if remaining <= 0 {
        remaining = remaining.saturating_add(clock.extension_or_default() as i64);
    }
    Ok(Some(TimeControl::Clock {
        remaining: Duration::from_millis(remaining.max(0) as u64),
        increment: Duration::from_millis(clock.increment_ms),
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::parse_ggf;

    fn left(ggf: &str) -> Option<TimeControl> {
        time_left(&parse_ggf(ggf).unwrap()).unwrap()
    }

    #[test]
    fn subtracts_the_side_to_move_times() {
        let bo = "BO[8 ---------------------------O*------*O--------------------------- *]";
        let g = format!("(;GM[Othello]TI[5:00]{bo}B[F5//10.5]W[F6//3]B[E6//20];)");
        assert_eq!(
            left(&g),
            Some(TimeControl::Clock {
                remaining: Duration::from_millis(297_000),
                increment: Duration::ZERO
            })
        );
        let g = format!("(;GM[Othello]TB[1:00/2]TW[0:10]{bo}B[F5//10]W[F6//30];)");
        // Black: 60 + 2 - 10 = 52 s.
        assert_eq!(
            left(&g),
            Some(TimeControl::Clock {
                remaining: Duration::from_secs(52),
                increment: Duration::from_secs(2)
            })
        );
        // White to move, 20 s past its main time: the 2:00 extension is added once.
        let g = format!("(;GM[Othello]TB[1:00]TW[0:10]{bo}B[F5//10]W[F6//30]B[E6//1];)");
        assert_eq!(
            left(&g),
            Some(TimeControl::Clock {
                remaining: Duration::from_secs(100),
                increment: Duration::ZERO
            })
        );
        assert_eq!(left(&format!("(;GM[Othello]{bo};)")), None);
        assert!(time_left(&parse_ggf(&format!("(;GM[Othello]TI[x]{bo};)")).unwrap()).is_err());
    }
}
