//! `wedge solve FILE --queue URL`: the file's positions go out as solve units of a few
//! positions each (idempotent by their content: a unit answered before, by this run or an
//! earlier one that was stopped, is taken from the results stream at once); each answer is
//! checked against its unit and handed back in the file's order.

use super::error::DistribError;
use super::exchange::{self, QueueCounts};
use super::setup;
use super::solve::{SolveSearch, SolveUnit};
use crate::train::selfplay::Model;
use wedge_core::board::Board;
use wedge_core::eval::Weights;
use wedge_core::search::Report;

/// How `wedge solve --queue` asks.
pub struct QueueSolve<'a> {
    pub url: &'a str,
    pub weights: &'a Weights,
    pub model: &'a Model,
    pub search: SolveSearch,
    pub table_mb: u32,
    /// Positions per unit.
    pub per_unit: usize,
}

/// Solves `boards` on the queue's workers; `report(i, r)` is called for position `i` (0-based),
/// in order, as soon as it and every position before it are answered.
pub fn solve(
    how: &QueueSolve<'_>,
    boards: &[Board],
    report: &mut dyn FnMut(usize, &Report),
) -> Result<QueueCounts, DistribError> {
    let units: Vec<SolveUnit> = boards
        .chunks(how.per_unit.max(1))
        .map(|chunk| SolveUnit {
            search: how.search,
            table_mb: how.table_mb,
            weights_checksum: how.model.weights_checksum,
            probcut_checksum: how.model.probcut_checksum,
            boards: chunk.to_vec(),
        })
        .collect();
    let per_unit = how.per_unit.max(1);
    let mut counts = QueueCounts::default();
    let rt = super::runtime()?;
    rt.block_on(async {
        let queue = setup::coordinator(how.url, &[(how.weights, how.model)]).await?;
        // Answers come in any order; the rows go out in the file's.
        let mut held: Vec<Option<Vec<Report>>> = vec![None; units.len()];
        let mut next = 0;
        let mut answered = |i: usize, reports: &Vec<Report>| {
            held[i] = Some(reports.clone());
            while let Some(Some(done)) = held.get(next) {
                for (j, r) in done.iter().enumerate() {
                    report(next * per_unit + j, r);
                }
                next += 1;
            }
        };
        exchange::answers(
            &queue,
            &units,
            "wedge solve",
            &mut answered,
            &|| false,
            &mut counts,
        )
        .await?;
        Ok::<_, DistribError>(())
    })?;
    Ok(counts)
}
