//! Asking the workers of a queue for the answers of content-keyed units (book valuations,
//! solves): answers an earlier run left in the results stream are taken first, the rest are
//! published under ids made from their content (so republishing is idempotent) and followed on
//! the results stream as they come. A refused answer is deleted and its unit queued again. The
//! answers are kept in the stream (for `setup::RETENTION`), so a coordinator stopped and rerun
//! takes them back. A unit the workers terminate is reported, never waited for.

use super::error::{nats, DistribError};
use super::result::WORKER_HEADER;
use super::setup::{Follower, Queue};
use super::termination::{self, Terminations, MAX_DELIVERIES};
use async_nats::jetstream::consumer::DeliverPolicy;
use std::collections::HashMap;
use std::time::{Duration, Instant};

/// A unit whose answer is a function of its bytes alone.
pub trait KeyedUnit {
    type Answer;
    type Error: std::fmt::Display;
    /// What units of this kind are called in logs ("valuation", "solve").
    const KIND: &'static str;
    /// The subject units of this kind are published under (`<subject>.<key>`).
    const UNITS_SUBJECT: &'static str;
    /// The prefix of their answers' subjects (`<prefix><key>`).
    const RESULTS_PREFIX: &'static str;

    fn to_bytes(&self) -> Vec<u8>;

    /// The unit's identity: a checksum of its bytes.
    fn key_value(&self) -> u64 {
        wedge_core::framing::fnv1a64(&self.to_bytes())
    }

    /// [`KeyedUnit::key_value`] in hexadecimal (subjects, message ids, logs).
    fn key(&self) -> String {
        format!("{:016x}", self.key_value())
    }

    /// The unit in log lines and errors ("solve 0123456789abcdef").
    fn describe(&self) -> String {
        format!("{} {}", Self::KIND, self.key())
    }
    /// The answer in a result message, checked against the unit.
    fn answer(&self, bytes: &[u8]) -> Result<Self::Answer, Self::Error>;
}

/// The answer subject of `unit`.
pub fn result_subject<U: KeyedUnit>(unit: &U) -> String {
    format!("{}{}", U::RESULTS_PREFIX, unit.key())
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

/// The answers of `units`, in their order; `answered(i, answer)` is called as each comes.
/// `command` names the coordinator in its log lines. Once `stop()` says so, the units still
/// unanswered are taken off the queue and their answers are `None`. Units the workers
/// terminate, and units whose answers are refused [`MAX_DELIVERIES`] times, are logged as they
/// end; once every other unit is answered, they make the error.
pub async fn answers<U: KeyedUnit>(
    queue: &Queue,
    units: &[U],
    command: &str,
    answered: &mut dyn FnMut(usize, &U::Answer),
    stop: &dyn Fn() -> bool,
    counts: &mut QueueCounts,
) -> Result<Vec<Option<U::Answer>>, DistribError> {
    let results = queue.results().await?;
    // Followed from now on, before anything is published, so no answer is missed.
    let mut messages = Follower::new(
        &results,
        format!("{}>", U::RESULTS_PREFIX),
        DeliverPolicy::New,
        "following the results",
    )
    .await?;
    let mut terminations = Terminations::follow(queue, U::UNITS_SUBJECT).await?;
    let mut pending: HashMap<String, usize> = HashMap::new();
    let mut got: Vec<Option<U::Answer>> = units.iter().map(|_| None).collect();
    let mut refusals: HashMap<String, i64> = HashMap::new();
    let mut to_publish = Vec::new();
    for (i, unit) in units.iter().enumerate() {
        let subject = result_subject(unit);
        let id = match results.get_last_raw_message_by_subject(&subject).await {
            Ok(message) => match unit.answer(&message.payload) {
                Ok(answer) => {
                    counts.answered_before += 1;
                    answered(i, &answer);
                    got[i] = Some(answer);
                    continue;
                }
                Err(e) => {
                    let worker = message
                        .headers
                        .get(WORKER_HEADER)
                        .map_or("?".to_string(), |v| v.to_string());
                    refuse::<U>(command, unit, &worker, &e, counts);
                    refusals.insert(unit.key(), 1);
                    let _ = results.delete_message(message.sequence).await;
                    format!("{}-{}-retry-{}", U::KIND, unit.key(), message.sequence)
                }
            },
            Err(_) => format!("{}-{}", U::KIND, unit.key()),
        };
        to_publish.push((i, id));
    }
    // A record of an earlier run's termination would say nothing of these new deliveries.
    let keys: Vec<String> = to_publish.iter().map(|(i, _)| units[*i].key()).collect();
    termination::clear(queue, U::UNITS_SUBJECT, keys.iter().map(String::as_str)).await?;
    for ((i, id), key) in to_publish.into_iter().zip(keys) {
        publish(queue, &units[i], &id).await?;
        counts.units += 1;
        pending.insert(key, i);
    }
    let started = Instant::now();
    let queued = pending.len();
    let mut last_word = Instant::now();
    let mut ended: Vec<(String, String)> = Vec::new();
    while !pending.is_empty() {
        if stop() {
            let stream = queue.units().await?;
            for key in pending.keys() {
                let subject = format!("{}.{key}", U::UNITS_SUBJECT);
                let _ = stream.purge().filter(subject).await;
            }
            return Ok(got);
        }
        if last_word.elapsed() >= PROGRESS_EVERY {
            let done = queued - pending.len();
            eprintln!(
                "{command}: {}",
                progress_line(
                    done,
                    queued,
                    started.elapsed(),
                    workers_seen(queue).await,
                    &queue.url
                )
            );
            last_word = Instant::now();
        }
        let message = tokio::select! {
            m = messages.next() => m?,
            t = terminations.next() => {
                let (key, why) = t?;
                if let Some(i) = pending.remove(&key) {
                    let what = units[i].describe();
                    eprintln!("{command}: {what}: {why}");
                    ended.push((what, why.to_string()));
                }
                continue;
            }
            _ = tokio::time::sleep(Duration::from_secs(1)) => continue,
        };
        let Some(key) = message.subject.strip_prefix(U::RESULTS_PREFIX) else {
            continue;
        };
        let Some(&i) = pending.get(key) else {
            continue; // another run's answer, or a second copy of one taken
        };
        let unit = &units[i];
        match unit.answer(&message.payload) {
            Ok(answer) => {
                answered(i, &answer);
                got[i] = Some(answer);
                pending.remove(&unit.key());
            }
            Err(e) => {
                let worker = message
                    .headers
                    .as_ref()
                    .and_then(|h| h.get(WORKER_HEADER))
                    .map_or("?".to_string(), |v| v.to_string());
                let seq = message.info().map_or(0, |m| m.stream_sequence);
                let _ = results.delete_message(seq).await;
                let refused = refusals.entry(unit.key()).or_insert(0);
                *refused += 1;
                if *refused >= MAX_DELIVERIES {
                    counts.refused += 1;
                    let what = unit.describe();
                    let why = format!(
                        "its answers were refused {refused} times, the last from worker {worker}: {e}"
                    );
                    eprintln!("{command}: {what}: {why}");
                    ended.push((what, why));
                    pending.remove(&unit.key());
                    continue;
                }
                refuse::<U>(command, unit, &worker, &e, counts);
                let retry = format!("{}-{}-retry-{seq}", U::KIND, unit.key());
                publish(queue, unit, &retry).await?;
                counts.units += 1;
            }
        }
    }
    if ended.is_empty() {
        Ok(got)
    } else {
        Err(termination::ended_error(&ended))
    }
}

/// How often a coordinator says how far its units are.
const PROGRESS_EVERY: Duration = Duration::from_secs(30);

/// `done` of `total` units answered after `elapsed`: the rate, the time left at that rate and
/// the workers seen.
fn progress_line(
    done: usize,
    total: usize,
    elapsed: Duration,
    workers: Option<usize>,
    url: &str,
) -> String {
    let secs = elapsed.as_secs_f64().max(1e-3);
    let rate = done as f64 / secs;
    let eta = if done == 0 {
        "unknown".to_string()
    } else {
        format!("{:.0} s", (total - done) as f64 / rate)
    };
    let workers = match workers {
        Some(0) => {
            format!("no worker seen in the last minute (start `wedge worker --queue {url}`)")
        }
        Some(n) => format!("{n} workers seen"),
        None => "workers unknown".into(),
    };
    format!("{done} of {total} units answered ({rate:.2} a second, {eta} left), {workers}")
}

/// The workers whose heartbeats have not expired, if the server says.
pub(crate) async fn workers_seen(queue: &Queue) -> Option<usize> {
    let mut stream = queue.workers().await.ok()?;
    let info = stream.info().await.ok()?;
    Some(info.state.subjects_count as usize)
}

fn refuse<U: KeyedUnit>(
    command: &str,
    unit: &U,
    worker: &str,
    e: &U::Error,
    counts: &mut QueueCounts,
) {
    eprintln!(
        "{command}: refused the result of {} {} from worker {worker}: {e}; queued again",
        U::KIND,
        unit.key()
    );
    counts.refused += 1;
}

/// Publishes `unit` on its own subject with the de-duplication id `id`. When the server has
/// seen the id (a unit published by an earlier run) and the unit is no longer queued, its
/// answer was lost: it is published again under a new id.
async fn publish<U: KeyedUnit>(queue: &Queue, unit: &U, id: &str) -> Result<(), DistribError> {
    let subject = format!("{}.{}", U::UNITS_SUBJECT, unit.key());
    let send = |id: String| {
        let mut headers = async_nats::HeaderMap::new();
        headers.insert(async_nats::header::NATS_MESSAGE_ID, id.as_str());
        let (js, subject, bytes) = (queue.js.clone(), subject.clone(), unit.to_bytes());
        async move {
            js.publish_with_headers(subject, headers, bytes.into())
                .await
                .map_err(nats("publishing a unit"))?
                .await
                .map_err(nats("publishing a unit"))
        }
    };
    let ack = send(id.to_string()).await?;
    if ack.duplicate {
        let units = queue.units().await?;
        if units
            .get_last_raw_message_by_subject(&subject)
            .await
            .is_err()
        {
            send(format!("{id}-again-{}", ack.sequence)).await?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_progress_line_gives_the_rate_the_time_left_and_the_workers() {
        assert_eq!(
            progress_line(10, 40, Duration::from_secs(20), Some(3), "nats://h:1"),
            "10 of 40 units answered (0.50 a second, 60 s left), 3 workers seen"
        );
        assert_eq!(
            progress_line(0, 4, Duration::from_secs(30), Some(0), "nats://h:1"),
            "0 of 4 units answered (0.00 a second, unknown left), no worker seen in the last \
             minute (start `wedge worker --queue nats://h:1`)"
        );
    }
}
