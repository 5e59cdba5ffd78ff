//! `wedge selfplay --queue URL`: the run's batches missing from the directory (as the local run
//! finds them) become units on the queue, identified by their content so republishing is
//! idempotent (`Nats-Msg-Id`); results already published are taken first, the rest as they
//! come; each is checked against its unit and written atomically, byte for byte the file the
//! local run writes. Restarted, it resumes: batches on disk are not asked for again. A unit the
//! workers terminate (or whose results are refused too often) is reported as it ends; once the
//! rest are written, the run fails naming them.

use super::error::{nats, DistribError};
use super::files;
use super::result::{self, key_of_subject, SELFPLAY_PREFIX, WORKER_HEADER};
use super::setup::{self, Follower, SELFPLAY_UNITS};
use super::termination::{self, Terminations, MAX_DELIVERIES};
use super::unit::SelfplayUnit;
use crate::train::selfplay::{pending_batches, RunPlan, RunSummary, SelfPlay, SelfplayRun};
use crate::train::selfplay::{CHECKSUM_LEN, HEADER_LEN};
use crate::train::Progress;
use async_nats::jetstream::{consumer::DeliverPolicy, stream};
use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::time::Duration;
use wedge_core::eval::Weights;

/// A generous bound on a game's bytes in a batch file (5-byte header, a move and a value byte
/// per ply, passes included), to check a batch fits in one message.
const MAX_GAME_BYTES: usize = 200;

/// A unit on the queue and where its batch goes.
struct Wanted {
    unit: SelfplayUnit,
    path: PathBuf,
}

/// Checks a result for a wanted unit and writes it; `Err` says why it is refused.
fn accept(selfplay: &SelfPlay, wanted: &Wanted, bytes: &[u8]) -> Result<u64, DistribError> {
    let expected = selfplay.header(wanted.unit.id);
    let batch = result::check(bytes, &expected, wanted.unit.games).map_err(|source| {
        DistribError::Object {
            name: result::subject(&wanted.unit),
            source,
        }
    })?;
    batch
        .write(&wanted.path)
        .map_err(crate::train::selfplay::SelfplayError::from)?;
    Ok(batch.games.len() as u64)
}

/// `wedge selfplay --queue URL`: the batches of `run` missing from its directory played by the
/// queue's workers, on a runtime of its own.
pub fn run_selfplay_on_queue(url: &str, run: &SelfplayRun) -> Result<RunSummary, DistribError> {
    let weights =
        Weights::load(&run.weights).map_err(crate::train::selfplay::SelfplayError::from)?;
    super::runtime()?.block_on(run_selfplay(
        url,
        &run.out,
        &run.selfplay,
        &weights,
        &run.plan,
        run.quiet,
    ))
}

/// Runs the batches of `plan` missing from `dir` over the queue at `url`.
pub async fn run_selfplay(
    url: &str,
    dir: &Path,
    selfplay: &SelfPlay,
    weights: &Weights,
    plan: &RunPlan,
    quiet: bool,
) -> Result<RunSummary, DistribError> {
    let (mut summary, todo) = pending_batches(dir, selfplay, plan, quiet)?;
    let queue = setup::connect(url).await?;
    let max_payload = queue.client.server_info().max_payload;
    let largest = HEADER_LEN + CHECKSUM_LEN + plan.batch_size as usize * MAX_GAME_BYTES;
    if largest > max_payload {
        return Err(DistribError::Usage(format!(
            "batches of {} games may not fit in the server's {max_payload}-byte messages: use --batch-size {} or less (or raise max_payload)",
            plan.batch_size,
            (max_payload.saturating_sub(HEADER_LEN + CHECKSUM_LEN)) / MAX_GAME_BYTES
        )));
    }
    let units = queue.units().await?;
    let results = queue.results().await?;
    queue.workers_consumer(&units).await?;
    // Followed before anything is published, so no termination is missed.
    let mut terminations = Terminations::follow(&queue, SELFPLAY_UNITS).await?;
    let store = queue.files().await?;
    let mut uploaded = files::upload(&store, weights, &selfplay.model).await?;
    let lines = selfplay.wthor.as_ref();
    if let Some(lines) = lines {
        uploaded += usize::from(files::upload_lines(&store, lines).await?);
    }
    let wthor_checksum = lines.map_or(0, |l| l.checksum());

    let mut wanted: HashMap<String, Wanted> = HashMap::new();
    for (id, games, path) in todo {
        let unit = SelfplayUnit {
            id,
            games,
            settings: selfplay.settings,
            weights_checksum: selfplay.model.weights_checksum,
            probcut_checksum: selfplay.model.probcut_checksum,
            wthor_checksum,
        };
        wanted.insert(unit.key(), Wanted { unit, path });
    }
    let total_games: u64 = wanted.values().map(|w| u64::from(w.unit.games)).sum();
    let mut progress = Progress::new("games", total_games, quiet);
    let mut done_games = 0u64;
    let mut written: HashSet<String> = HashSet::new();

    // Results published before (an earlier coordinator stopped before taking them).
    let mut published_before = 0;
    let mut keys: Vec<String> = wanted.keys().cloned().collect();
    keys.sort_by_key(|k| wanted[k].unit.id.index);
    let mut retry_ids: HashMap<String, String> = HashMap::new();
    let mut refusals: HashMap<String, i64> = HashMap::new();
    for key in &keys {
        let subject = result::subject(&wanted[key].unit);
        let Ok(message) = results.get_last_raw_message_by_subject(&subject).await else {
            continue;
        };
        let seq = message.sequence;
        if take(
            selfplay,
            &results,
            &mut wanted,
            key,
            &message.payload,
            seq,
            &mut written,
            &mut done_games,
        )
        .await?
        {
            published_before += 1;
        } else {
            refusals.insert(key.clone(), 1);
            // Its unit was played: a republication under its own id would be a duplicate.
            retry_ids.insert(
                key.clone(),
                format!("{}-retry-{seq}", wanted[key].unit.message_id()),
            );
        }
    }
    // The rest as units. A duplicate is either still queued (or under way), or was played and
    // its result lost: then it is queued again under a new id.
    let mut order: Vec<&Wanted> = wanted.values().collect();
    order.sort_by_key(|w| w.unit.id.index);
    // A record of an earlier run's termination would say nothing of these new deliveries.
    termination::clear(&queue, SELFPLAY_UNITS, wanted.keys().map(String::as_str)).await?;
    let mut acks = Vec::with_capacity(order.len());
    for w in &order {
        let key = w.unit.key();
        let id = retry_ids
            .get(&key)
            .cloned()
            .unwrap_or_else(|| w.unit.message_id());
        acks.push((w, publish_unit(&queue.js, &w.unit, &id).await?));
    }
    let mut duplicates = 0;
    for (w, ack) in acks {
        let ack = ack.await.map_err(nats("publishing a unit"))?;
        if !ack.duplicate {
            continue;
        }
        duplicates += 1;
        let queued = units
            .get_last_raw_message_by_subject(&unit_subject(&w.unit))
            .await
            .is_ok();
        if !queued {
            let id = format!("{}-again-{}", w.unit.message_id(), ack.sequence);
            publish_unit(&queue.js, &w.unit, &id)
                .await?
                .await
                .map_err(nats("publishing a unit"))?;
        }
    }
    if !quiet {
        eprintln!(
            "self-play into {} over {url}: {} batches, {} already there, {published_before} results taken from the queue, {} units queued ({duplicates} were queued already); {uploaded} files uploaded",
            dir.display(),
            summary.batches,
            summary.skipped,
            order.len()
        );
    }
    progress.set(done_games);

    // Results as they come.
    let mut messages = Follower::new(
        &results,
        format!("{SELFPLAY_PREFIX}>"),
        DeliverPolicy::All,
        "following the results",
    )
    .await?;
    let mut ended: Vec<(String, String)> = Vec::new();
    while !wanted.is_empty() {
        let message = tokio::select! {
            m = messages.next() => m?,
            t = terminations.next() => {
                let (key, why) = t?;
                if let Some(w) = wanted.remove(&key) {
                    let what = w.unit.describe();
                    progress.println(&format!("wedge selfplay: {what}: {why}"));
                    ended.push((what, why.to_string()));
                }
                continue;
            }
            _ = tokio::time::sleep(Duration::from_secs(60)) => {
                if !quiet {
                    let workers = super::exchange::workers_seen(&queue)
                        .await
                        .map_or("workers unknown".to_string(), |n| {
                            format!("{n} workers seen in the last minute")
                        });
                    progress.println(&format!(
                        "waiting for {} batches; {workers} (is a `wedge worker --queue {url}` running?)",
                        wanted.len()
                    ));
                }
                continue;
            }
        };
        let Some(key) = key_of_subject(&message.subject).map(str::to_string) else {
            continue;
        };
        let seq = message.info().map_or(0, |i| i.stream_sequence);
        if written.contains(&key) {
            // A second copy of a result already written (a unit played twice).
            let _ = results.delete_message(seq).await;
            continue;
        }
        if !wanted.contains_key(&key) {
            continue; // another run's result
        }
        if !take(
            selfplay,
            &results,
            &mut wanted,
            &key,
            &message.payload,
            seq,
            &mut written,
            &mut done_games,
        )
        .await?
        {
            let worker = message
                .headers
                .as_ref()
                .and_then(|h| h.get(WORKER_HEADER))
                .map_or("?".to_string(), |v| v.to_string());
            let refused = refusals.entry(key.clone()).or_insert(0);
            *refused += 1;
            if *refused >= MAX_DELIVERIES {
                let what = wanted[&key].unit.describe();
                let why = format!(
                    "its results were refused {refused} times, the last from worker {worker}"
                );
                progress.println(&format!("wedge selfplay: {what}: {why}"));
                ended.push((what, why));
                wanted.remove(&key);
                continue;
            }
            let w = &wanted[&key];
            let retry = format!("{}-retry-{seq}", w.unit.message_id());
            progress.println(&format!(
                "batch {} from worker {worker} refused: queued again",
                w.unit.id.index
            ));
            publish_unit(&queue.js, &w.unit, &retry)
                .await?
                .await
                .map_err(nats("publishing a unit"))?;
        }
        progress.set(done_games);
    }
    progress.finish(done_games);
    if !ended.is_empty() {
        return Err(termination::ended_error(&ended));
    }
    summary.games_played = done_games;
    Ok(summary)
}

/// The subject of `unit`'s message: its own, so the stream tells whether it is still queued.
fn unit_subject(unit: &SelfplayUnit) -> String {
    format!("{SELFPLAY_UNITS}.{}", unit.key())
}

/// Publishes `unit` with de-duplication id `id`; returns the server's acknowledgement to await.
async fn publish_unit(
    js: &async_nats::jetstream::Context,
    unit: &SelfplayUnit,
    id: &str,
) -> Result<async_nats::jetstream::context::PublishAckFuture, DistribError> {
    let mut headers = async_nats::HeaderMap::new();
    headers.insert(async_nats::header::NATS_MESSAGE_ID, id);
    js.publish_with_headers(unit_subject(unit), headers, unit.to_bytes().into())
        .await
        .map_err(nats("publishing a unit"))
}

/// Takes the result `bytes` (stream sequence `seq`) of wanted unit `key`: written and removed
/// from the stream when valid (true); when refused, logged, removed, and false.
#[allow(clippy::too_many_arguments)]
async fn take(
    selfplay: &SelfPlay,
    results: &stream::Stream,
    wanted: &mut HashMap<String, Wanted>,
    key: &str,
    bytes: &[u8],
    seq: u64,
    written: &mut HashSet<String>,
    done_games: &mut u64,
) -> Result<bool, DistribError> {
    let Some(w) = wanted.get(key) else {
        return Ok(false);
    };
    let accepted = match accept(selfplay, w, bytes) {
        Ok(games) => {
            *done_games += games;
            wanted.remove(key);
            written.insert(key.to_string());
            true
        }
        Err(DistribError::Object { name, source }) => {
            eprintln!("wedge selfplay: result {name} refused: {source}");
            false
        }
        Err(e) => return Err(e),
    };
    // Written to disk (or worthless): the stream need not keep it.
    let _ = results.delete_message(seq).await;
    Ok(accepted)
}
