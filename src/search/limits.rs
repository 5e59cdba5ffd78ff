//! What a search is asked for (depth, selectivity, solve mode) and how long it may take
//! (a fixed budget per move, or a share of a game clock with increment).

use std::time::{Duration, Instant};

/// Multi-ProbCut level: how much forward pruning the midgame search may do. Level 0 is none
/// (100%); higher levels prune more. Stored in the table so a more selective result is never
/// taken for a less selective one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Selectivity(pub u8);

impl Selectivity {
    pub const NONE: Selectivity = Selectivity(0);
    /// The most selective level.
    pub const MAX: Selectivity = Selectivity(5);
    /// The midgame selectivity of play on a clock.
    pub const PLAY: Selectivity = Selectivity(4);
    /// The midgame selectivity of a fixed-depth level (`set depth N`): against NTest, 200
    /// games each, 100 % / 99 % / 98 % scored 44.8 / 43.5 / 42.5 % at depth 8 and 51.0 / 49.5 /
    /// 47.5 % at depth 12, with 99 % a quarter of full width's time (docs/strength.md).
    pub const LEVEL: Selectivity = Selectivity(1);
    /// Confidence percentages per level, as the peers print them (`depth@NN%`).
    pub const PERCENT: [u8; 6] = [100, 99, 98, 95, 87, 73];
    /// Cut thresholds in standard deviations per level (level 0 never cuts).
    pub const T: [f64; 6] = [f64::INFINITY, 2.6, 2.2, 1.7, 1.15, 0.65];

    pub fn percent(self) -> u8 {
        Self::PERCENT[self.0.min(5) as usize]
    }

    /// The level whose percentage is the closest at or above `percent`.
    pub fn from_percent(percent: u8) -> Selectivity {
        let mut level = 0;
        for (i, p) in Self::PERCENT.iter().enumerate() {
            if *p >= percent {
                level = i;
            }
        }
        Selectivity(level as u8)
    }
}

/// How to end the game part of a search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SolveMode {
    /// Exact final disc difference.
    Exact,
    /// Win, loss or draw only (a null window around 0).
    WinLossDraw,
}

/// Time allowed for one move.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum TimeControl {
    /// No limit: depth decides.
    Infinite,
    /// A fixed budget for this move.
    PerMove(Duration),
    /// A game clock: time left for the side to move and the increment per move.
    Clock {
        remaining: Duration,
        increment: Duration,
    },
}

/// A search request.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Limits {
    /// Deepest midgame iteration (plies). A depth reaching the end solves exactly.
    pub depth: u32,
    pub selectivity: Selectivity,
    /// Solve (exactly or win/loss/draw) once the position has at most `solve_empties` empties.
    pub solve: Option<SolveMode>,
    pub solve_empties: u32,
    /// Solve win/loss/draw once the position has at most this many empties (where
    /// `solve_empties` does not already solve it); 0: never.
    pub wld_empties: u32,
    pub time: TimeControl,
}

impl Limits {
    /// A fixed-depth midgame search without pruning.
    pub fn depth(depth: u32) -> Limits {
        Limits {
            depth,
            selectivity: Selectivity::NONE,
            solve: None,
            solve_empties: 0,
            wld_empties: 0,
            time: TimeControl::Infinite,
        }
    }

    /// An exact solve (or win/loss/draw) of the position, whatever its number of empties.
    pub fn solve(mode: SolveMode) -> Limits {
        Limits {
            depth: 60,
            selectivity: Selectivity::NONE,
            solve: Some(mode),
            solve_empties: 60,
            wld_empties: 0,
            time: TimeControl::Infinite,
        }
    }

    /// Whether these limits solve a root of `empties` empties (exactly or win/loss/draw) from
    /// the first iteration, with no clock to stop them: such a search ends in an exact answer.
    pub fn solves_untimed(&self, empties: u32) -> bool {
        let exact = self.solve.is_some() && empties <= self.solve_empties;
        (exact || empties <= self.wld_empties) && self.time == TimeControl::Infinite
    }

    /// Playing on a clock: selective midgame iterations as deep as time allows (at most
    /// `depth`), then probable, win/loss/draw and exact solves, each started only when the
    /// time left is expected to cover it.
    pub fn timed(time: TimeControl, depth: u32) -> Limits {
        Limits {
            depth,
            selectivity: Selectivity::PLAY,
            solve: Some(SolveMode::Exact),
            solve_empties: 60,
            wld_empties: 60,
            time,
        }
    }
}

/// When a search must stop: `soft` is checked between iterations (do not start another),
/// `hard` inside the search (abort now).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Deadline {
    pub soft: Option<Instant>,
    pub hard: Option<Instant>,
}

impl Deadline {
    pub const NONE: Deadline = Deadline {
        soft: None,
        hard: None,
    };

    /// Budget for a move with `empties` empty squares, starting at `start`.
    pub fn plan(time: TimeControl, empties: u32, start: Instant) -> Deadline {
        match time {
            TimeControl::Infinite => Deadline::NONE,
            TimeControl::PerMove(d) => Deadline {
                soft: Some(start + d.mul_f64(0.6)),
                hard: Some(start + d),
            },
            TimeControl::Clock {
                remaining,
                increment,
            } => {
                // Our moves still to play before the last 16 empties, which the solves play
                // in next to no time (against NTest on a 15 s clock, the old count of all but
                // the last 8 moves left a third of the clock unused).
                let moves_left = ((empties as f64 - 16.0) / 2.0).max(2.0);
                let reserve = remaining.mul_f64(0.05).min(Duration::from_secs(2));
                let usable = remaining.saturating_sub(reserve);
                let share = usable.div_f64(moves_left) + increment.mul_f64(0.8);
                let hard = share.mul_f64(2.5).min(usable.mul_f64(0.4));
                let soft = share.min(hard);
                Deadline {
                    soft: Some(start + soft),
                    hard: Some(start + hard.max(Duration::from_millis(5))),
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clock_budget_is_a_fraction_of_the_remaining_time() {
        let start = Instant::now();
        let clock = TimeControl::Clock {
            remaining: Duration::from_secs(60),
            increment: Duration::ZERO,
        };
        let d = Deadline::plan(clock, 40, start);
        let hard = d.hard.unwrap() - start;
        let soft = d.soft.unwrap() - start;
        assert!(soft <= hard);
        assert!(hard <= Duration::from_secs(24), "{hard:?}");
        assert!(soft >= Duration::from_secs(2), "{soft:?}");
        // Nearly out of time: still a small positive budget, never past the clock.
        let low = TimeControl::Clock {
            remaining: Duration::from_millis(50),
            increment: Duration::ZERO,
        };
        let d = Deadline::plan(low, 30, start);
        assert!(d.hard.unwrap() - start <= Duration::from_millis(50));
        let per_move = Deadline::plan(TimeControl::PerMove(Duration::from_secs(1)), 30, start);
        assert_eq!(per_move.hard.unwrap() - start, Duration::from_secs(1));
    }

    #[test]
    fn selectivity_percent_round_trip() {
        for level in 0..=5 {
            let s = Selectivity(level);
            assert_eq!(Selectivity::from_percent(s.percent()), s);
        }
        assert_eq!(Selectivity::from_percent(100), Selectivity::NONE);
    }
}
