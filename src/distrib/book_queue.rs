//! `wedge book expand --queue URL`: the book's valuations made by the workers of a queue. Each
//! empties level's requests go out as valuation units of a few positions (idempotent by their
//! content: a unit already answered, by this run or an earlier one that was stopped, is taken
//! from the results stream at once); the answers are checked against their units and applied in
//! order, so the book is the one the local run with the same batches makes.

use super::error::{nats, DistribError};
use super::files;
use super::result::{valuation_subject, WORKER_HEADER};
use super::setup::{self, Queue};
use super::valuation::{result_from_bytes, ValuationUnit};
use crate::book::{LevelValuer, Valuation, ValuationRequest};
use crate::eval::Weights;
use crate::search::Selectivity;
use crate::train::selfplay::Model;
use std::collections::{BTreeMap, HashSet};
use std::time::{Duration, Instant};

/// The subject valuation units are published on.
pub const VALUATION_UNITS: &str = "wedge.units.valuation";

/// Positions per valuation unit.
pub const POSITIONS_PER_UNIT: usize = 4;

/// A [`LevelValuer`] whose valuations are made by the workers of a queue.
pub struct QueueValuer {
    rt: tokio::runtime::Runtime,
    queue: Queue,
    /// The settings of every unit (its positions left empty).
    template: ValuationUnit,
    failure: Option<String>,
    pub counts: QueueCounts,
}

/// What went through the queue.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct QueueCounts {
    /// Units published.
    pub units: u64,
    /// Units whose answer was in the results stream already (an earlier, stopped run's).
    pub answered_before: u64,
    /// Results refused (damaged or foreign), their units queued again.
    pub refused: u64,
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
        let queue = rt.block_on(async {
            let queue = setup::connect(url).await?;
            queue.units().await?;
            queue.results().await?;
            files::upload(&queue.files().await?, weights, model).await?;
            Ok::<_, DistribError>(queue)
        })?;
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

/// Publishes the units without an answer yet and waits for all answers; the valuations in the
/// units' order.
async fn value_units(
    queue: &Queue,
    units: &[ValuationUnit],
    finished: &(dyn Fn() + Sync),
    counts: &mut QueueCounts,
) -> Result<Vec<Vec<Option<Valuation>>>, DistribError> {
    let results = queue.results().await?;
    let mut answers: BTreeMap<usize, Vec<Option<Valuation>>> = BTreeMap::new();
    let mut pending: HashSet<usize> = HashSet::new();
    for (i, unit) in units.iter().enumerate() {
        let subject = valuation_subject(unit);
        let before = results.get_last_raw_message_by_subject(&subject).await.ok();
        match before.map(|m| result_from_bytes(&m.payload, unit)) {
            Some(Ok(values)) => {
                counts.answered_before += 1;
                for _ in 0..values.len() {
                    finished();
                }
                answers.insert(i, values);
            }
            _ => {
                publish(queue, unit, &format!("valuation-{}", unit.key())).await?;
                counts.units += 1;
                pending.insert(i);
            }
        }
    }
    let mut last_word = Instant::now();
    while !pending.is_empty() {
        tokio::time::sleep(Duration::from_millis(20)).await;
        let waiting: Vec<usize> = pending.iter().copied().collect();
        for i in waiting {
            let unit = &units[i];
            let Ok(message) = results
                .get_last_raw_message_by_subject(&valuation_subject(unit))
                .await
            else {
                continue;
            };
            match result_from_bytes(&message.payload, unit) {
                Ok(values) => {
                    for _ in 0..values.len() {
                        finished();
                    }
                    answers.insert(i, values);
                    pending.remove(&i);
                }
                Err(e) => {
                    let worker = message
                        .headers
                        .get(WORKER_HEADER)
                        .map_or("?".to_string(), |v| v.to_string());
                    eprintln!(
                        "wedge book expand: refused the result of valuation {} from worker \
                         {worker}: {e}; queued again",
                        unit.key()
                    );
                    counts.refused += 1;
                    let _ = results.delete_message(message.sequence).await;
                    let retry = format!("valuation-{}-retry-{}", unit.key(), message.sequence);
                    publish(queue, unit, &retry).await?;
                    counts.units += 1;
                }
            }
        }
        if last_word.elapsed() >= Duration::from_secs(30) {
            eprintln!(
                "wedge book expand: waiting for {} of {} valuation units",
                pending.len(),
                units.len()
            );
            last_word = Instant::now();
        }
    }
    Ok(answers.into_values().collect())
}

/// Publishes `unit` with the de-duplication id `id`.
async fn publish(queue: &Queue, unit: &ValuationUnit, id: &str) -> Result<(), DistribError> {
    let mut headers = async_nats::HeaderMap::new();
    headers.insert(async_nats::header::NATS_MESSAGE_ID, id);
    queue
        .js
        .publish_with_headers(VALUATION_UNITS, headers, unit.to_bytes().into())
        .await
        .map_err(nats("publishing a valuation unit"))?
        .await
        .map_err(nats("publishing a valuation unit"))?;
    Ok(())
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
        let answered =
            self.rt
                .block_on(value_units(&self.queue, &units, finished, &mut self.counts));
        match answered {
            Ok(values) => values.into_iter().flatten().collect(),
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
