//! `wedge match --queue URL`: every game of the match is a match-game unit played by a worker
//! (idempotent by its content, so a coordinator stopped and rerun takes back the games already
//! played); each record is checked against its unit and handed to the match's tally as it
//! comes. When the SPRT decides, the games not yet played are taken off the queue.

use super::error::DistribError;
use super::exchange::{self, QueueCounts};
use super::match_game::{MatchUnit, QueuedSide};
use super::setup;
use crate::eval::Weights;
use crate::tools::match_runner::{Event, GameSource, MatchConfig, MatchError};
use crate::train::selfplay::Model;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Mutex};
use std::time::Duration;

/// The games of a match, played on the workers of a queue.
pub struct QueueGames<'a> {
    pub url: &'a str,
    /// The two sides as units name them.
    pub sides: [QueuedSide; 2],
    /// The weights (and their models) of the Wedge sides, uploaded for the workers.
    pub models: Vec<(Weights, Model)>,
    pub start_timeout: Duration,
    /// What went through the queue, once the match is over.
    pub counts: Mutex<QueueCounts>,
}

impl QueueGames<'_> {
    /// The unit of game `index` of `cfg`.
    fn unit(&self, cfg: &MatchConfig, index: usize) -> MatchUnit {
        MatchUnit {
            sides: self.sides.clone(),
            time: cfg.limits.time,
            move_timeout: cfg.limits.move_timeout,
            time_margin: cfg.limits.time_margin,
            start_timeout: self.start_timeout,
            opening: cfg.openings[(index / 2) % cfg.openings.len()].clone(),
            game: index as u32,
        }
    }

    async fn run(
        &self,
        cfg: &MatchConfig,
        tx: &mpsc::Sender<Event>,
        stop: &AtomicBool,
    ) -> Result<(), DistribError> {
        let models: Vec<_> = self.models.iter().map(|(w, m)| (w, m)).collect();
        let queue = setup::coordinator(self.url, &models).await?;
        let units: Vec<MatchUnit> = (0..cfg.games).map(|i| self.unit(cfg, i)).collect();
        let mut counts = QueueCounts::default();
        let mut answered = |i: usize, outcome: &crate::tools::match_runner::game::GameOutcome| {
            let event = Event::Done {
                index: i,
                first_is_black: units[i].first_is_black(),
                outcome: Box::new(outcome.clone()),
            };
            if tx.send(event).is_err() {
                stop.store(true, Ordering::Relaxed);
            }
        };
        let stopped = || stop.load(Ordering::Relaxed);
        let result = exchange::answers(
            &queue,
            &units,
            "wedge match",
            &mut answered,
            &stopped,
            &mut counts,
        )
        .await;
        *self.counts.lock().unwrap_or_else(|e| e.into_inner()) = counts;
        result.map(|_| ())
    }
}

impl GameSource for QueueGames<'_> {
    fn play(&self, cfg: &MatchConfig, tx: mpsc::Sender<Event>, stop: &AtomicBool) {
        let played = super::runtime().and_then(|rt| rt.block_on(self.run(cfg, &tx, stop)));
        if let Err(e) = played {
            let _ = tx.send(Event::Fatal(MatchError::Queue(e.to_string())));
        }
    }

    fn describe(&self, _: &MatchConfig) -> String {
        format!("on the workers of {}", self.url)
    }
}
