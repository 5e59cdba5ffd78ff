//! `wedge queue status`: the streams (units pending and results, by kind), the workers' consumer
//! (units under way, redeliveries), the units terminated and why, the files in the object store
//! and the workers whose heartbeats have not expired.

use super::error::{nats, DistribError};
use super::setup::{
    self, FAILED_PREFIX, FAILED_STREAM, FILES_BUCKET, RESULTS_STREAM, UNITS_STREAM,
    WORKERS_CONSUMER, WORKERS_PREFIX,
};
use super::termination::{Termination, MAX_DELIVERIES};
use futures_util::StreamExt;
use std::collections::BTreeMap;
use std::fmt::Write;
use std::time::Duration;

/// Messages of a stream by kind, the subject's third token (`wedge.units.solve.<key>`).
async fn by_kind(
    stream: &async_nats::jetstream::stream::Stream,
    filter: &str,
) -> Result<BTreeMap<String, u64>, DistribError> {
    let mut kinds = BTreeMap::new();
    for (subject, n) in subjects(stream, filter).await? {
        let kind = subject.split('.').nth(2).unwrap_or("other").to_string();
        *kinds.entry(kind).or_insert(0) += n as u64;
    }
    Ok(kinds)
}

/// How long a stream keeps a message, for people.
fn kept_for(max_age: Duration) -> String {
    match max_age.as_secs() {
        0 => "until taken".into(),
        s if s % 86_400 == 0 => format!("{} days", s / 86_400),
        s => format!("{:.1} h", s as f64 / 3600.0),
    }
}

/// Terminated units listed one by one; the rest are counted.
const TERMINATED_SHOWN: usize = 20;

/// The subjects of `stream` under `filter` with their messages, sorted.
async fn subjects(
    stream: &async_nats::jetstream::stream::Stream,
    filter: &str,
) -> Result<Vec<(String, usize)>, DistribError> {
    let mut found = Vec::new();
    let mut listed = stream
        .info_with_subjects(filter)
        .await
        .map_err(nats("listing a stream's subjects"))?;
    while let Some(entry) = listed.next().await {
        found.push(entry.map_err(nats("listing a stream's subjects"))?);
    }
    found.sort();
    Ok(found)
}

/// The terminated units: how many, and the first few with why (`kind key: age, why`).
async fn terminated(queue: &setup::Queue, out: &mut String) -> Result<(), DistribError> {
    let mut failed = queue.failed().await?;
    let max_age = failed
        .info()
        .await
        .map_err(nats("reading the terminated units"))?
        .config
        .max_age;
    let units = subjects(&failed, &format!("{FAILED_PREFIX}>")).await?;
    let _ = writeln!(
        out,
        "stream {FAILED_STREAM}: {} units terminated (after at most {MAX_DELIVERIES} deliveries; records kept {})",
        units.len(),
        kept_for(max_age)
    );
    for (subject, _) in units.iter().take(TERMINATED_SHOWN) {
        let Ok(m) = failed.get_last_raw_message_by_subject(subject).await else {
            continue; // expired meanwhile
        };
        let t = Termination::from_message(Some(&m.headers), &m.payload);
        let unit = subject
            .strip_prefix(FAILED_PREFIX)
            .unwrap_or(subject)
            .replacen('.', " ", 1);
        let age = t.age();
        let age = if age.is_empty() { age } else { age + ", " };
        let _ = writeln!(out, "  {unit}: {age}{t}");
    }
    if units.len() > TERMINATED_SHOWN {
        let _ = writeln!(out, "  and {} more", units.len() - TERMINATED_SHOWN);
    }
    Ok(())
}

/// The status of the queue at `url`, as text (creating the streams when missing).
pub async fn status(url: &str) -> Result<String, DistribError> {
    let queue = setup::connect(url).await?;
    let mut units = queue.units().await?;
    let mut results = queue.results().await?;
    let consumer_info = {
        let mut c = queue.workers_consumer(&units).await?;
        c.info()
            .await
            .map_err(nats("reading the consumer"))?
            .clone()
    };
    let units_info = units
        .info()
        .await
        .map_err(nats("reading the units stream"))?
        .clone();
    let results_info = results
        .info()
        .await
        .map_err(nats("reading the results stream"))?
        .clone();
    let mut out = String::new();
    let _ = writeln!(out, "queue {url}");
    let _ = writeln!(
        out,
        "stream {UNITS_STREAM}: {} units queued ({} bytes)",
        units_info.state.messages, units_info.state.bytes
    );
    for (kind, n) in by_kind(&units, "wedge.units.>").await? {
        let _ = writeln!(out, "  {kind}: {n}");
    }
    let _ = writeln!(
        out,
        "consumer {WORKERS_CONSUMER}: {} units waiting, {} under way, {} redelivered",
        consumer_info.num_pending, consumer_info.num_ack_pending, consumer_info.num_redelivered
    );
    let results_by_kind = by_kind(&results, "wedge.results.>").await?;
    let waiting = results_by_kind.get("selfplay").copied().unwrap_or(0);
    let _ = writeln!(
        out,
        "stream {RESULTS_STREAM}: {waiting} results waiting for their coordinator, {} kept for reruns ({} bytes; each kept {})",
        results_info.state.messages.saturating_sub(waiting),
        results_info.state.bytes,
        kept_for(results_info.config.max_age)
    );
    for (kind, n) in results_by_kind {
        let _ = writeln!(out, "  {kind}: {n}");
    }
    terminated(&queue, &mut out).await?;
    let files = queue.files().await?;
    let mut names = Vec::new();
    let mut list = files
        .list()
        .await
        .map_err(nats("listing the object store"))?;
    while let Some(info) = list.next().await {
        let info = info.map_err(nats("listing the object store"))?;
        names.push(format!("{} ({} bytes)", info.name, info.size));
    }
    names.sort();
    let _ = writeln!(out, "object store {FILES_BUCKET}: {} files", names.len());
    for n in names {
        let _ = writeln!(out, "  {n}");
    }
    let workers = queue.workers().await?;
    let mut seen = Vec::new();
    for (subject, _) in subjects(&workers, &format!("{WORKERS_PREFIX}>")).await? {
        if let Ok(m) = workers.get_last_raw_message_by_subject(&subject).await {
            let name = subject.strip_prefix(WORKERS_PREFIX).unwrap_or(&subject);
            seen.push(format!("{name}: {}", String::from_utf8_lossy(&m.payload)));
        }
    }
    let _ = writeln!(out, "workers seen in the last minute: {}", seen.len());
    for w in seen {
        let _ = writeln!(out, "  {w}");
    }
    Ok(out)
}
