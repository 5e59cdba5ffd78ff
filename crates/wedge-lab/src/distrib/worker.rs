//! `wedge worker`: takes units from the shared consumer one at a time (self-play batches, book
//! valuations, solves, match games), fetches what they name (weights and ProbCut models, WTHOR
//! lines: cached, verified; a match's engines: its own executable, or those it was given with
//! `--engine NAME=COMMAND`), runs the unit on its threads while telling the server it is in
//! progress, publishes the result and acknowledges the unit. A unit that fails is released for
//! another delivery, or terminated (with a record of why, see `termination`) when the failure is
//! its own fault or it had its deliveries; a message that is not a valid unit is terminated at
//! once. The worker goes on either way. SIGTERM or SIGINT: the current unit is finished and the
//! worker exits; a second signal releases the unit (nak) at once.

use super::error::{nats, DistribError};
use super::exchange::{result_subject, KeyedUnit};
use super::files::Files;
use super::match_game::{self, MatchUnit, QueuedEngine, QueuedSide};
use super::message::MessageError;
use super::result::{self, WORKER_HEADER};
use super::setup::{self, Queue, ACK_WAIT};
use super::solve::{self, SolveUnit};
use super::termination::{self, Fault, Termination, Verdict, MAX_DELIVERIES};
use super::unit::SelfplayUnit;
use super::valuation::{self, ValuationUnit};
use crate::tools::match_runner::{self as matches, EngineSpec, GameLimits, MatchTimeControl};
use crate::train::selfplay::SelfPlay;
use async_nats::jetstream::{AckKind, Message};
use futures_util::StreamExt;
use std::path::PathBuf;
use std::time::{Duration, Instant};
use tokio::signal::unix::{signal, Signal, SignalKind};
use wedge_core::search::TranspositionTable;

/// How a worker runs.
#[derive(Clone, Debug)]
pub struct WorkerOptions {
    pub url: String,
    /// Threads the games of a batch are played on.
    pub threads: usize,
    /// Where fetched weights and ProbCut models are kept.
    pub cache: PathBuf,
    /// The name in heartbeats and result headers (default: host and process id).
    pub name: String,
    /// Exit after this many units (default: run until signalled).
    pub max_units: Option<u64>,
    /// The engines match units may name, and their command lines (`--engine NAME=COMMAND`).
    pub engines: Vec<(String, String)>,
}

/// What a worker did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct WorkerSummary {
    pub units: u64,
    /// Self-play and match games played.
    pub games: u64,
    /// Book positions valued and positions solved.
    pub positions: u64,
    pub refused: u64,
    /// Units terminated after failing (messages refused not counted).
    pub terminated: u64,
    /// True when it stopped on a second signal and released its unit.
    pub released: bool,
}

/// The default worker name: the host name and the process id.
pub fn default_name() -> String {
    let host = std::fs::read_to_string("/proc/sys/kernel/hostname")
        .ok()
        .or_else(|| std::env::var("HOSTNAME").ok())
        .unwrap_or_else(|| "host".into());
    format!("{}-{}", host.trim(), std::process::id())
}

/// A name usable as a key-value key (letters, digits, `-`, `_`, `.`, `=`, `/`).
fn key_of(name: &str) -> String {
    name.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || "-_=".contains(c) {
                c
            } else {
                '_'
            }
        })
        .collect()
}

/// SIGTERM and SIGINT, as one stream of stop requests.
struct Signals {
    term: Signal,
    int: Signal,
}

impl Signals {
    fn new() -> Result<Signals, DistribError> {
        let io = |source| DistribError::Io {
            path: PathBuf::from("signal handler"),
            source,
        };
        Ok(Signals {
            term: signal(SignalKind::terminate()).map_err(io)?,
            int: signal(SignalKind::interrupt()).map_err(io)?,
        })
    }

    async fn recv(&mut self) {
        tokio::select! {
            _ = self.term.recv() => {}
            _ = self.int.recv() => {}
        }
    }
}

/// Publishes the worker's heartbeat (it expires unless refreshed).
async fn beat(queue: &Queue, key: &str, state: &str, summary: &WorkerSummary) {
    let text = format!(
        "{state}; {} units, {} games, {} positions, {} refused, {} terminated",
        summary.units, summary.games, summary.positions, summary.refused, summary.terminated
    );
    let subject = format!("{}{key}", setup::WORKERS_PREFIX);
    let sent = async {
        queue
            .js
            .publish(subject, text.into_bytes().into())
            .await?
            .await
    };
    if let Err(e) = sent.await {
        tracing::warn!("worker heartbeat: {e}");
    }
}

/// What became of one message.
enum Outcome {
    /// Games played and positions valued.
    Done(u64, u64),
    Refused,
    Released,
    Terminated,
    /// Released on a second signal: exit now.
    Abandoned,
}

/// Runs a worker until signalled (or `max_units` units are done).
pub async fn run(opts: &WorkerOptions) -> Result<WorkerSummary, DistribError> {
    let mut signals = Signals::new()?;
    let queue = setup::connect(&opts.url).await?;
    let units = queue.units().await?;
    queue.results().await?;
    let consumer = queue.workers_consumer(&units).await?;
    let workers = queue.workers().await?;
    let mut files = Files::new(queue.files().await?, opts.cache.clone());
    let key = key_of(&opts.name);
    let mut summary = WorkerSummary::default();
    eprintln!(
        "wedge worker {}: taking units from {} on {} threads",
        opts.name, opts.url, opts.threads
    );
    beat(&queue, &key, "idle", &summary).await;
    let mut last_beat = Instant::now();
    let mut stopping = false;
    while !stopping && opts.max_units.is_none_or(|m| summary.units < m) {
        if last_beat.elapsed() >= Duration::from_secs(10) {
            beat(&queue, &key, "idle", &summary).await;
            last_beat = Instant::now();
        }
        let fetch = consumer
            .fetch()
            .max_messages(1)
            .expires(Duration::from_secs(5))
            .messages();
        let mut batch = tokio::select! {
            b = fetch => b.map_err(nats("fetching a unit"))?,
            _ = signals.recv() => break,
        };
        let next = tokio::select! {
            m = batch.next() => m,
            _ = signals.recv() => break,
        };
        let Some(message) = next else { continue };
        let message = match message {
            Ok(m) => m,
            Err(e) => {
                eprintln!("wedge worker {}: fetching a unit: {e}; retrying", opts.name);
                tokio::time::sleep(Duration::from_secs(1)).await;
                continue;
            }
        };
        let outcome = handle(
            &queue,
            &message,
            &mut files,
            opts,
            &mut signals,
            &mut stopping,
            (&key, &summary),
        )
        .await?;
        match outcome {
            Outcome::Done(games, positions) => {
                summary.units += 1;
                summary.games += games;
                summary.positions += positions;
            }
            Outcome::Refused => summary.refused += 1,
            Outcome::Terminated => summary.terminated += 1,
            Outcome::Released => {}
            Outcome::Abandoned => {
                summary.released = true;
                break;
            }
        }
        beat(&queue, &key, "idle", &summary).await;
        last_beat = Instant::now();
    }
    let _ = workers
        .purge()
        .filter(format!("{}{key}", setup::WORKERS_PREFIX))
        .await;
    eprintln!(
        "wedge worker {}: stopped after {} units ({} games, {} positions, {} messages refused); {} units terminated",
        opts.name, summary.units, summary.games, summary.positions, summary.refused, summary.terminated
    );
    Ok(summary)
}

/// Why a message is refused: it is no unit of any kind.
#[derive(Debug, thiserror::Error)]
enum NotAUnit {
    #[error(transparent)]
    Selfplay(#[from] super::unit::UnitError),
    #[error(transparent)]
    Keyed(#[from] MessageError),
}

/// A unit taken from the queue.
enum Work {
    Selfplay(SelfplayUnit),
    Valuation(ValuationUnit),
    Solve(SolveUnit),
    Match(Box<MatchUnit>),
}

/// A unit with what it needs fetched: runs it on the given threads and gives the result
/// message's bytes.
type Job = Box<dyn FnOnce(usize) -> Result<Vec<u8>, String> + Send>;

impl Work {
    /// The unit in a message, by its magic; why not, for a message that is none.
    fn parse(bytes: &[u8]) -> Result<Work, NotAUnit> {
        if bytes.starts_with(&valuation::MAGIC) {
            Ok(Work::Valuation(ValuationUnit::from_bytes(bytes)?))
        } else if bytes.starts_with(&solve::MAGIC) {
            Ok(Work::Solve(SolveUnit::from_bytes(bytes)?))
        } else if bytes.starts_with(&match_game::MAGIC) {
            Ok(Work::Match(Box::new(MatchUnit::from_bytes(bytes)?)))
        } else {
            Ok(Work::Selfplay(SelfplayUnit::from_bytes(bytes)?))
        }
    }

    fn describe(&self) -> String {
        match self {
            Work::Selfplay(u) => u.describe(),
            Work::Valuation(u) => u.describe(),
            Work::Solve(u) => u.describe(),
            Work::Match(u) => u.describe(),
        }
    }

    /// What the unit holds, for the logs, and the games and positions it adds to the summary.
    fn size(&self) -> (String, u64, u64) {
        match self {
            Work::Selfplay(u) => (format!("{} games", u.games), u64::from(u.games), 0),
            Work::Valuation(u) => {
                let n = u.items.len();
                (format!("{n} positions"), 0, n as u64)
            }
            Work::Solve(u) => {
                let n = u.boards.len();
                (format!("{n} positions"), 0, n as u64)
            }
            Work::Match(_) => ("1 game".into(), 1, 0),
        }
    }

    fn doing(&self) -> &'static str {
        match self {
            Work::Selfplay(_) | Work::Match(_) => "playing",
            Work::Valuation(_) => "valuing",
            Work::Solve(_) => "solving",
        }
    }

    fn result_subject(&self) -> String {
        match self {
            Work::Selfplay(u) => result::subject(u),
            Work::Valuation(u) => result_subject(u),
            Work::Solve(u) => result_subject(u),
            Work::Match(u) => result_subject(u.as_ref()),
        }
    }

    /// Fetches what the unit needs (weights and ProbCut model, WTHOR lines, a match's engines)
    /// and gives the job that runs it.
    async fn prepare(self, files: &mut Files, opts: &WorkerOptions) -> Result<Job, DistribError> {
        Ok(match self {
            Work::Selfplay(u) => {
                let model = files.model(u.weights_checksum, u.probcut_checksum).await?;
                let lines = match u.wthor_checksum {
                    0 => None,
                    checksum => Some(files.wthor(checksum).await?),
                };
                Box::new(move |threads| {
                    let selfplay =
                        SelfPlay::new(model, lines, u.settings).map_err(|e| e.to_string())?;
                    let batch = selfplay
                        .play_batch(u.id, u.games, threads)
                        .map_err(|e| e.to_string())?;
                    Ok(batch.to_bytes())
                })
            }
            Work::Valuation(u) => {
                table_fits(u.table_mb)?;
                let model = files.model(u.weights_checksum, u.probcut_checksum).await?;
                Box::new(move |threads| {
                    let valuations = u.run_on(model.eval, Some(model.probcut), threads);
                    Ok(valuation::result_to_bytes(u.key_value(), &valuations))
                })
            }
            Work::Solve(u) => {
                table_fits(u.table_mb)?;
                let model = files.model(u.weights_checksum, u.probcut_checksum).await?;
                Box::new(move |threads| {
                    let reports = u.run(model.eval, Some(model.probcut), threads);
                    Ok(solve::result_to_bytes(u.key_value(), &reports))
                })
            }
            Work::Match(u) => {
                let specs = [
                    engine_spec(&u.sides[0], u.time, files, opts).await?,
                    engine_spec(&u.sides[1], u.time, files, opts).await?,
                ];
                Box::new(move |_| {
                    let limits = GameLimits {
                        move_timeout: u.move_timeout,
                        time_margin: u.time_margin,
                    };
                    let first_is_black = u.first_is_black();
                    let outcome = matches::play_one(
                        &specs,
                        &u.opening,
                        first_is_black,
                        &limits,
                        u.start_timeout,
                    )
                    .map_err(|e| e.to_string())?;
                    Ok(match_game::result_to_bytes(u.key_value(), &outcome))
                })
            }
        })
    }
}

/// Fails when a table of `mb` MB is more memory than this worker may use.
fn table_fits(mb: u32) -> Result<(), DistribError> {
    TranspositionTable::check_size(mb as usize).map_err(|e| DistribError::Unable(e.to_string()))
}

/// One side of a match unit as this worker starts it: its own executable with the weights and
/// ProbCut model the unit names (fetched by checksum), or a command it was given under the
/// unit's name. Never a command from the message.
async fn engine_spec(
    side: &QueuedSide,
    time: MatchTimeControl,
    files: &mut Files,
    opts: &WorkerOptions,
) -> Result<EngineSpec, DistribError> {
    let (command, protocol) = match &side.engine {
        QueuedEngine::Wedge {
            weights_checksum,
            probcut_checksum,
            solver,
            hash_mb,
        } => {
            table_fits(*hash_mb)?;
            let (w, p) = files
                .model_files(*weights_checksum, *probcut_checksum)
                .await?;
            let exe = std::env::current_exe().map_err(|source| DistribError::Io {
                path: PathBuf::from("the wedge executable"),
                source,
            })?;
            let quote = |p: &std::path::Path| format!("\"{}\"", p.display());
            // Without solver weights the play weights guide solves, as they do locally (the
            // cache holds no `solver.wts` beside them).
            let solver_options = match solver {
                Some(s) => {
                    let (sw, sp) = files.model_files(s.weights, s.probcut).await?;
                    format!(
                        " --solver-weights {} --solver-probcut {}",
                        quote(&sw),
                        quote(&sp)
                    )
                }
                None => String::new(),
            };
            let command = format!(
                "{} --log warn --hash {hash_mb} --weights {} --probcut {}{solver_options} \
                 --no-book nboard",
                quote(&exe),
                quote(&w),
                quote(&p)
            );
            (command, matches::EngineProtocol::Nboard)
        }
        QueuedEngine::Named { name, protocol } => {
            let Some((_, command)) = opts.engines.iter().find(|(n, _)| n == name) else {
                return Err(DistribError::Unable(format!(
                    "engine {name:?} is not one of this worker's (start it with --engine {name}=COMMAND)"
                )));
            };
            (command.clone(), *protocol)
        }
    };
    Ok(EngineSpec {
        command,
        protocol,
        depth: side.depth.map(u32::from),
        time,
        name: side.display.clone(),
    })
}

/// Whose fault a failure to prepare a unit is: an object the store lacks or holds damaged is
/// the unit's; anything else (the connection, an engine or memory this worker lacks) this
/// worker's.
fn fault_of(e: &DistribError) -> Fault {
    match e {
        DistribError::Object { .. } | DistribError::MissingObject { .. } => Fault::Unit,
        _ => Fault::Worker,
    }
}

/// Releases `message` for another delivery after `delay` (a failure is only logged: the unit
/// comes back anyway once its acknowledgement time runs out).
async fn release(message: &Message, delay: Option<Duration>) {
    if let Err(e) = message.ack_with(AckKind::Nak(delay)).await {
        tracing::warn!("releasing a unit: {e}");
    }
}

/// Records why the unit of `message` ends, then terminates it; true when it is. When the
/// record cannot be made the unit is released instead, so that a later delivery tries again
/// and its coordinator is never left waiting.
async fn terminate(queue: &Queue, message: &Message, name: &str, ended: &Termination) -> bool {
    if let Err(e) = termination::record(queue, &message.subject, ended).await {
        eprintln!("wedge worker {name}: {e}; released instead of terminated");
        release(message, Some(termination::release_delay(ended.deliveries))).await;
        return false;
    }
    if let Err(e) = message.ack_with(AckKind::Term).await {
        tracing::warn!("terminating a unit: {e}");
    }
    true
}

/// The `delivered`-th delivery of `what` failed with `fault` and `reason`: the unit is released
/// for another, or terminated when it is the unit's fault or the unit had its deliveries.
async fn give_up(
    queue: &Queue,
    message: &Message,
    name: &str,
    what: &str,
    (fault, reason): (Fault, String),
    delivered: i64,
) -> Outcome {
    match termination::verdict(fault, delivered) {
        Verdict::Release(delay) => {
            eprintln!(
                "wedge worker {name}: {what}: {reason}; released for another try (delivery \
                 {delivered} of at most {MAX_DELIVERIES})"
            );
            release(message, Some(delay)).await;
            Outcome::Released
        }
        Verdict::Terminate => {
            let ended = Termination::now(delivered, name, reason);
            eprintln!("wedge worker {name}: {what}: {ended}");
            if terminate(queue, message, name, &ended).await {
                Outcome::Terminated
            } else {
                Outcome::Released
            }
        }
    }
}

/// Runs one message's unit, or refuses it.
async fn handle(
    queue: &Queue,
    message: &Message,
    files: &mut Files,
    opts: &WorkerOptions,
    signals: &mut Signals,
    stopping: &mut bool,
    (key, summary): (&str, &WorkerSummary),
) -> Result<Outcome, DistribError> {
    let name = &opts.name;
    let (seq, delivered) = message
        .info()
        .map_or((0, 1), |i| (i.stream_sequence, i.delivered));
    let work = match Work::parse(&message.payload) {
        Ok(w) => w,
        Err(e) => {
            eprintln!(
                "wedge worker {name}: refused message {seq} on {} ({} bytes): {e}",
                message.subject,
                message.payload.len()
            );
            let ended = Termination::now(delivered, name, format!("not a unit: {e}"));
            return Ok(if terminate(queue, message, name, &ended).await {
                eprintln!("wedge worker {name}: message {seq} terminated");
                Outcome::Refused
            } else {
                Outcome::Released
            });
        }
    };
    let what = work.describe();
    if termination::exhausted(delivered) {
        let reason = format!(
            "delivered {delivered} times and never answered (the workers that took it stopped \
             before finishing it: killed, crashed or out of memory)"
        );
        return Ok(give_up(
            queue,
            message,
            name,
            &what,
            (Fault::Unit, reason),
            delivered,
        )
        .await);
    }
    let doing = work.doing();
    let (subject, (size, games, positions)) = (work.result_subject(), work.size());
    let job = match work.prepare(files, opts).await {
        Ok(job) => job,
        Err(e) => {
            let failure = (fault_of(&e), e.to_string());
            return Ok(give_up(queue, message, name, &what, failure, delivered).await);
        }
    };
    beat(queue, key, &format!("{doing} {what}"), summary).await;
    eprintln!("wedge worker {name}: {doing} {what} ({size})");
    let threads = opts.threads;
    let start = Instant::now();
    let mut task = tokio::task::spawn_blocking(move || job(threads));
    let mut tick = tokio::time::interval(ACK_WAIT / 3);
    tick.tick().await;
    let done = loop {
        tokio::select! {
            r = &mut task => break r,
            _ = tick.tick() => {
                // Still alive: the unit must not be redelivered to someone else yet.
                if let Err(e) = message.ack_with(AckKind::Progress).await {
                    tracing::warn!("in-progress report for {what}: {e}");
                }
                beat(queue, key, &format!("{doing} {what}"), summary).await;
            }
            _ = signals.recv() => {
                if *stopping {
                    eprintln!("wedge worker {name}: second signal: releasing {what} and exiting");
                    let _ = message.ack_with(AckKind::Nak(None)).await;
                    return Ok(Outcome::Abandoned);
                }
                *stopping = true;
                eprintln!(
                    "wedge worker {name}: finishing {what}, then exiting (signal again to release it now)"
                );
            }
        }
    };
    let bytes = match done.unwrap_or_else(|e| Err(format!("the work stopped: {e}"))) {
        Ok(bytes) => bytes,
        Err(reason) => {
            let failure = (Fault::Worker, reason);
            return Ok(give_up(queue, message, name, &what, failure, delivered).await);
        }
    };
    let mut headers = async_nats::HeaderMap::new();
    headers.insert(WORKER_HEADER, name.as_str());
    let published = async {
        queue
            .js
            .publish_with_headers(subject, headers, bytes.into())
            .await?
            .await
    }
    .await;
    if let Err(e) = published {
        let failure = (Fault::Worker, format!("publishing its result: {e}"));
        return Ok(give_up(queue, message, name, &what, failure, delivered).await);
    }
    message
        .double_ack()
        .await
        .map_err(nats(format!("acknowledging {what}")))?;
    eprintln!(
        "wedge worker {name}: {what}: {size} in {:.1} s",
        start.elapsed().as_secs_f64()
    );
    Ok(Outcome::Done(games, positions))
}
