//! `wedge book expand --queue URL`: the book's valuations made by the workers of a queue. Each
//! empties level's requests go out as valuation units of a few positions (idempotent by their
//! content: a unit already answered, by this run or an earlier one that was stopped, is taken
//! from the results stream at once); the answers are checked against their units and applied in
//! order, so the book is the one the local run with the same batches makes.

use super::error::DistribError;
use super::exchange::{self, QueueCounts};
use super::setup::{self, Queue};
use super::valuation::ValuationUnit;
use crate::train::selfplay::Model;
use wedge_core::book::{LevelValuer, Valuation, ValuationRequest};
use wedge_core::eval::Weights;
use wedge_core::search::Selectivity;

/// Positions per valuation unit: one, so that the few positions of an empties level spread over
/// all workers (measured: two workers 1.63-1.66x the in-process speed with four a unit, 1.80x
/// with one; docs/distributed.md).
pub const POSITIONS_PER_UNIT: usize = 1;

/// A [`LevelValuer`] whose valuations are made by the workers of a queue.
pub struct QueueValuer {
    rt: tokio::runtime::Runtime,
    queue: Queue,
    /// The settings of every unit (its positions left empty).
    template: ValuationUnit,
    failure: Option<String>,
    pub counts: QueueCounts,
}

impl QueueValuer {
    /// Connects to `url`, makes sure the streams exist and uploads the model; units will ask
    /// for searches of `depth` plies with tables of `table_mb` MB.
    pub fn connect(
        url: &str,
        weights: &Weights,
        model: &Model,
        depth: u32,
        table_mb: usize,
    ) -> Result<QueueValuer, DistribError> {
        let rt = super::runtime()?;
        let queue = rt.block_on(setup::coordinator(url, &[(weights, model)]))?;
        Ok(QueueValuer {
            rt,
            queue,
            template: ValuationUnit {
                depth: depth.clamp(1, 60) as u8,
                selectivity: Selectivity::NONE,
                table_mb: table_mb as u32,
                weights_checksum: model.weights_checksum,
                probcut_checksum: model.probcut_checksum,
                items: Vec::new(),
            },
            failure: None,
            counts: QueueCounts::default(),
        })
    }
}

impl LevelValuer for QueueValuer {
    fn value_level(
        &mut self,
        requests: &[ValuationRequest],
        finished: &(dyn Fn() + Sync),
    ) -> Vec<Option<Valuation>> {
        if self.failure.is_some() {
            return vec![None; requests.len()];
        }
        let units: Vec<ValuationUnit> = requests
            .chunks(POSITIONS_PER_UNIT)
            .map(|chunk| ValuationUnit {
                items: chunk.to_vec(),
                ..self.template.clone()
            })
            .collect();
        let answered = self.rt.block_on(exchange::answers(
            &self.queue,
            &units,
            "wedge book expand",
            &mut |_, values: &Vec<Option<Valuation>>| {
                for _ in values {
                    finished();
                }
            },
            &|| false,
            &mut self.counts,
        ));
        match answered {
            // Never stopped: every unit has its answer.
            Ok(values) => values.into_iter().flatten().flatten().collect(),
            Err(e) => {
                self.failure = Some(e.to_string());
                vec![None; requests.len()]
            }
        }
    }

    fn failure(&self) -> Option<String> {
        self.failure.clone()
    }
}
