//! NBoard has no time command: the time left comes from the game record, the start clock
//! (`TI`, or `TB`/`TW`) spent by the times recorded in that colour's moves ([`ClockSpent`]).

use std::time::Duration;
use wedge_core::formats::{Clock, ClockError, ClockSpent, Color, GgfGame};
use wedge_core::search::TimeControl;

/// The start clocks of a game record (`TB`/`TW`, else `TI`), parsed when the game is set so
/// that a bad clock is refused there rather than found at `go`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct StartClocks {
    black: Option<Clock>,
    white: Option<Clock>,
}

impl StartClocks {
    /// The clocks `record` declares (none: no clock).
    pub fn of(record: &GgfGame) -> Result<StartClocks, ClockError> {
        let [black, white] = record.start_clocks()?;
        Ok(StartClocks { black, white })
    }
}

/// The clock of the side to move in `record`, whose start clocks are `clocks`, or `None`
/// when it has no clock.
pub fn time_left(record: &GgfGame, clocks: &StartClocks) -> Option<TimeControl> {
    let side = record.game().position().to_move;
    let clock = match side {
        Color::Black => clocks.black,
        Color::White => clocks.white,
    }?;
    let mut spent = ClockSpent::new(clock);
    let positions = record.game().positions();
    for (before, note) in positions.iter().zip(record.notes()) {
        if before.to_move == side {
            spent.spend(note.time);
        }
    }
    Some(TimeControl::Clock {
        remaining: Duration::from_millis(spent.left_ms()),
        increment: Duration::from_millis(clock.increment_ms),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use wedge_core::formats::parse_ggf;

    fn left(ggf: &str) -> Option<TimeControl> {
        let record = parse_ggf(ggf).unwrap();
        time_left(&record, &StartClocks::of(&record).unwrap())
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
        let bad = parse_ggf(&format!("(;GM[Othello]TI[x]{bo};)")).unwrap();
        assert!(StartClocks::of(&bad).is_err());
    }
}
