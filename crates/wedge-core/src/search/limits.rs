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
    /// The midgame selectivity of a fixed-depth level (`set depth N`): 99 %, about as strong as
    /// full width at a quarter of its time (the matches: docs/strength.md, 2026-11-25).
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
                let reserve = remaining.mul_f64(0.05).min(Duration::from_secs(2));
                let usable = remaining.saturating_sub(reserve);
                let share = usable.mul_f64(clock_share(empties)) + increment.mul_f64(0.8);
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

/// Empties at or below which a clock's plan expects the game solved: a 15 s game is mostly
/// solved by 26 empties, and the clock left then goes unused (`docs/tuning.md`, "Session 72").
const CLOCK_SOLVED: u32 = 26;
/// Our moves from this many empties down to just above [`CLOCK_PASSES`] weigh
/// [`CLOCK_ENDGAME_WEIGHT`] in the clock's plan (earlier ones, 1): the moves that decide the
/// game get the time.
const CLOCK_ENDGAME: u32 = 32;
/// See [`CLOCK_ENDGAME`].
const CLOCK_ENDGAME_WEIGHT: f64 = 1.75;
/// Empties at or below which (down to just above [`CLOCK_SOLVED`]) our moves run the passes
/// to the end and stop when the next pass will not fit, whatever their share: they weigh
/// [`CLOCK_PASSES_WEIGHT`], so that the plan keeps little for them (`docs/tuning.md`,
/// "Session 72").
const CLOCK_PASSES: u32 = 28;
/// See [`CLOCK_PASSES`].
const CLOCK_PASSES_WEIGHT: f64 = 0.4;
/// What the move at [`CLOCK_SOLVED`] empties or fewer weighs: all the moves from there on.
const CLOCK_SOLVE_WEIGHT: f64 = 0.3;
const _: () = assert!(CLOCK_SOLVED < CLOCK_PASSES && CLOCK_PASSES < CLOCK_ENDGAME);

/// The weight of our move at `empties` empties in the clock's plan.
fn clock_weight(empties: u32) -> f64 {
    if empties <= CLOCK_SOLVED {
        CLOCK_SOLVE_WEIGHT
    } else if empties <= CLOCK_PASSES {
        CLOCK_PASSES_WEIGHT
    } else if empties <= CLOCK_ENDGAME {
        CLOCK_ENDGAME_WEIGHT
    } else {
        1.0
    }
}

/// The share of the usable clock planned for our move at `empties` empties: its weight over
/// the weights of our moves from here to the solve, the solve counted once (measured in
/// `docs/tuning.md`, "Session 46").
fn clock_share(empties: u32) -> f64 {
    let ahead: f64 = (CLOCK_SOLVED + 1..=empties)
        .rev()
        .step_by(2)
        .map(clock_weight)
        .sum::<f64>()
        + CLOCK_SOLVE_WEIGHT;
    clock_weight(empties) / ahead
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
    fn clock_plan_spends_the_clock_by_the_solve_and_most_before_it() {
        // Our moves from the opening to the solve, each spending exactly its planned share:
        // the clock is never overdrawn, and the solve has what is left.
        let mut left = 1.0;
        let mut spent = std::collections::BTreeMap::new();
        for empties in (CLOCK_SOLVED..=58).rev().step_by(2) {
            let used = left * clock_share(empties);
            spent.insert(empties, used);
            left -= used;
            assert!(left >= 0.0, "{empties}: {left}");
        }
        assert!(left < 0.01, "{left}");
        // The moves just before the passes to the end get more than an opening move, the
        // moves of those passes less, and the solve less again.
        assert!(spent[&(CLOCK_PASSES + 2)] > 1.5 * spent[&56], "{spent:?}");
        assert!(spent[&CLOCK_PASSES] < spent[&56], "{spent:?}");
        assert!(spent[&CLOCK_SOLVED] < spent[&CLOCK_PASSES], "{spent:?}");
        assert_eq!(clock_share(12), 1.0);
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
