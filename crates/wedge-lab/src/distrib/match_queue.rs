//! `wedge match --queue URL`: every game of the match is a match-game unit played by a worker;
//! each record is checked against its unit and handed to the match's tally as it comes. A run
//! of the match gets a new run id, part of every unit, so a rerun plays new games; the queue
//! remembers the latest run of each match, which `--resume` continues (its games already
//! played are taken back, idempotent by their content). When the SPRT decides, the games not
//! yet played are taken off the queue.

use super::error::{nats, DistribError};
use super::exchange::{self, QueueCounts};
use super::match_game::{MatchUnit, QueuedSide};
use super::setup::{self, Queue, RETENTION, RUNS_PREFIX};
use crate::tools::match_runner::{distinct_games, Event, GameSource, MatchConfig, MatchError};
use crate::train::selfplay::Model;
use async_nats::jetstream::stream::LastRawMessageErrorKind;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Mutex};
use std::time::Duration;
use wedge_core::eval::Weights;
use wedge_core::framing::fnv1a64;

/// The games of a match, played on the workers of a queue.
pub struct QueueGames<'a> {
    pub url: &'a str,
    /// The two sides as units name them.
    pub sides: [QueuedSide; 2],
    /// The weights (and their models) of the Wedge sides, uploaded for the workers.
    pub models: Vec<(Weights, Model)>,
    pub start_timeout: Duration,
    /// Continue the latest run of this match (its games played are taken back) instead of
    /// starting a new one.
    pub resume: bool,
    /// What went through the queue, once the match is over.
    pub counts: Mutex<QueueCounts>,
}

impl QueueGames<'_> {
    /// The unit of game `index` of `cfg` in run `run` (a unit carries one time control for
    /// both engines: the first engine's; the command refuses odds on a queue).
    fn unit(&self, cfg: &MatchConfig, index: usize, run: u64) -> MatchUnit {
        MatchUnit {
            sides: self.sides.clone(),
            time: cfg.engines[0].time,
            move_timeout: cfg.limits.move_timeout,
            time_margin: cfg.limits.time_margin,
            start_timeout: self.start_timeout,
            opening: cfg.openings[(index / 2) % cfg.openings.len()].clone(),
            game: index as u32,
            run,
        }
    }

    /// What makes a match the same one: its units outside any run for one pass over the
    /// openings (each with both colours), so that `--games` may differ.
    fn identity(&self, cfg: &MatchConfig) -> u64 {
        let mut bytes = Vec::new();
        for i in 0..distinct_games(cfg.openings.len()) {
            bytes.extend(self.unit(cfg, i, 0).to_bytes());
        }
        fnv1a64(&bytes)
    }

    async fn run(
        &self,
        cfg: &MatchConfig,
        tx: &mpsc::Sender<Event>,
        stop: &AtomicBool,
    ) -> Result<(), DistribError> {
        let models: Vec<_> = self.models.iter().map(|(w, m)| (w, m)).collect();
        let queue = setup::coordinator(self.url, &models).await?;
        let run = run_id(&queue, self.identity(cfg), self.resume).await?;
        let units: Vec<MatchUnit> = (0..cfg.games).map(|i| self.unit(cfg, i, run)).collect();
        let mut counts = QueueCounts::default();
        let mut answered = |i: usize, outcome: &crate::tools::match_runner::GameOutcome| {
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

/// The run of the match with `identity` whose games are played: the latest one the queue
/// remembers when `resume`, else a new one, remembered from now on.
async fn run_id(queue: &Queue, identity: u64, resume: bool) -> Result<u64, DistribError> {
    let runs = queue.runs().await?;
    let subject = format!("{RUNS_PREFIX}match.{identity:016x}");
    if !resume {
        let run = wedge_core::rng::fresh_seed();
        queue
            .js
            .publish(subject.clone(), format!("{run:016x}").into())
            .await
            .map_err(nats(format!("recording the run on {subject}")))?
            .await
            .map_err(nats(format!("recording the run on {subject}")))?;
        eprintln!(
            "wedge match: run {run:016x} (a rerun with --resume takes back its games and plays the rest)"
        );
        return Ok(run);
    }
    let message = match runs.get_last_raw_message_by_subject(&subject).await {
        Ok(m) => m,
        Err(e) if e.kind() == LastRawMessageErrorKind::NoMessageFound => {
            return Err(DistribError::Usage(format!(
                "--resume: {} has no run of this match (the same engines, options and openings) \
                 from the last {} days",
                queue.url,
                RETENTION.as_secs() / 86_400
            )))
        }
        Err(e) => return Err(nats(format!("reading {subject}"))(e)),
    };
    let text = String::from_utf8_lossy(&message.payload);
    let run = Some(text.as_ref())
        .filter(|t| t.len() == 16)
        .and_then(|t| u64::from_str_radix(t, 16).ok())
        .ok_or_else(|| DistribError::Nats {
            what: format!("reading {subject}"),
            message: format!(
                "not a run id: {:?}",
                &text[..wedge_core::formats::floor_char_boundary(&text, 40)]
            ),
        })?;
    eprintln!("wedge match: resuming run {run:016x}");
    Ok(run)
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
