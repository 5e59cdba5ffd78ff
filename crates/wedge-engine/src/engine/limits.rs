//! The search limits every protocol plays with: a level's depth and solve points, or the
//! clock's ([`limits_for_play`], [`limits_for_depth`]).

use std::time::Duration;
use wedge_core::search::{Limits, Selectivity, TimeControl};

/// A level's exact solves start at this many empties more than its midgame depth, and its
/// win/loss/draw solves at [`WLD_MARGIN`] more (the endgame depth is the engine's choice, as
/// NBoard leaves it; NTest's depth 8 solves exactly from 13 and win/loss/draw from 17).
pub const EXACT_MARGIN: u32 = 6;
pub const WLD_MARGIN: u32 = 9;

/// Empties at or below which pondering runs the passes to the end (probable solves, then
/// win/loss/draw, then exact), as a 15 s game's moves from about there do; above, it deepens
/// the midgame, as they do.
const PONDER_SOLVE: u32 = 34;

/// The clock a ponder plans with: long enough that every step of the clock's schedule fits,
/// so that it runs them all, in the clock's order, until a task stops it.
const PONDER_CLOCK: Duration = Duration::from_secs(24 * 3600);

/// What the worker ponders with after a move searched with `limits` on a clock: the same
/// search on [`PONDER_CLOCK`], solving from [`PONDER_SOLVE`] empties at most.
pub(super) fn limits_for_ponder(limits: &Limits) -> Limits {
    Limits {
        time: TimeControl::Clock {
            remaining: PONDER_CLOCK,
            increment: Duration::ZERO,
        },
        solve_empties: limits.solve_empties.min(PONDER_SOLVE),
        wld_empties: limits.wld_empties.min(PONDER_SOLVE),
        ..*limits
    }
}

/// What every protocol searches with for a move: a level set by the user (`set depth N`,
/// `wedge-depth N`) fixes the midgame depth and the solve points and a clock can only shorten
/// the move; without a level, or at the top level (60, which match runners send on a clock),
/// the clock decides how deep to go and where to solve.
pub fn limits_for_play(level: Option<u32>, time: TimeControl) -> Limits {
    match level {
        Some(depth) if depth < 60 || time == TimeControl::Infinite => Limits {
            time,
            ..limits_for_depth(depth)
        },
        _ => Limits::timed(time, 60),
    }
}

/// The level every protocol uses for "search to midgame depth `depth`", with no clock: a
/// selective midgame search to that depth, a win/loss/draw solve from `depth + WLD_MARGIN`
/// empties and an exact one from `depth + EXACT_MARGIN`.
pub fn limits_for_depth(depth: u32) -> Limits {
    let depth = depth.clamp(1, 60);
    Limits {
        selectivity: Selectivity::LEVEL,
        solve: Some(wedge_core::search::SolveMode::Exact),
        solve_empties: (depth + EXACT_MARGIN).min(60),
        wld_empties: (depth + WLD_MARGIN).min(60),
        ..Limits::depth(depth)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use wedge_core::search::SolveMode;

    #[test]
    fn a_level_keeps_its_depth_and_solve_points_on_a_clock() {
        let clock = TimeControl::Clock {
            remaining: Duration::from_secs(300),
            increment: Duration::ZERO,
        };
        let level = limits_for_play(Some(4), clock);
        assert_eq!(
            level,
            Limits {
                time: clock,
                ..limits_for_depth(4)
            }
        );
        assert_eq!(
            (level.depth, level.solve_empties, level.wld_empties),
            (4, 10, 13)
        );
        assert_eq!(level.solve, Some(SolveMode::Exact));
        // Without a level, or at the top one, the clock decides.
        assert_eq!(limits_for_play(None, clock), Limits::timed(clock, 60));
        assert_eq!(limits_for_play(Some(60), clock), Limits::timed(clock, 60));
        // Without a clock a level is the level, the top one included.
        let untimed = TimeControl::Infinite;
        assert_eq!(limits_for_play(Some(60), untimed), limits_for_depth(60));
    }
}
