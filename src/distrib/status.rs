//! `wedge queue status`: the streams (units pending and results, by kind), the workers' consumer
//! (units under way, redeliveries), the files in the object store and the workers whose
//! heartbeats have not expired.

use super::error::{nats, DistribError};
use super::setup::{
    self, FILES_BUCKET, RESULTS_STREAM, UNITS_STREAM, WORKERS_CONSUMER, WORKERS_PREFIX,
};
use futures_util::StreamExt;
use std::collections::BTreeMap;
use std::fmt::Write;

/// Messages of a stream by kind, the subject's third token (`wedge.units.solve.<key>`).
async fn by_kind(
    stream: &mut async_nats::jetstream::stream::Stream,
    filter: &str,
) -> Result<BTreeMap<String, u64>, DistribError> {
    let mut kinds = BTreeMap::new();
    let mut subjects = stream
        .info_with_subjects(filter)
        .await
        .map_err(nats("listing a stream's subjects"))?;
    while let Some(entry) = subjects.next().await {
        let (subject, n) = entry.map_err(nats("listing a stream's subjects"))?;
        let kind = subject.split('.').nth(2).unwrap_or("other").to_string();
        *kinds.entry(kind).or_insert(0) += n as u64;
    }
    Ok(kinds)
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
    for (kind, n) in by_kind(&mut units, "wedge.units.>").await? {
        let _ = writeln!(out, "  {kind}: {n}");
    }
    let _ = writeln!(
        out,
        "consumer {WORKERS_CONSUMER}: {} units waiting, {} under way, {} redelivered",
        consumer_info.num_pending, consumer_info.num_ack_pending, consumer_info.num_redelivered
    );
    let results_by_kind = by_kind(&mut results, "wedge.results.>").await?;
    let waiting = results_by_kind.get("selfplay").copied().unwrap_or(0);
    let _ = writeln!(
        out,
        "stream {RESULTS_STREAM}: {waiting} results waiting for their coordinator, {} kept for reruns ({} bytes)",
        results_info.state.messages.saturating_sub(waiting),
        results_info.state.bytes
    );
    for (kind, n) in results_by_kind {
        let _ = writeln!(out, "  {kind}: {n}");
    }
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
    let mut subjects = Vec::new();
    let mut info = workers
        .info_with_subjects(format!("{WORKERS_PREFIX}>"))
        .await
        .map_err(nats("listing the workers"))?;
    while let Some(entry) = info.next().await {
        subjects.push(entry.map_err(nats("listing the workers"))?.0);
    }
    subjects.sort();
    let mut seen = Vec::new();
    for subject in subjects {
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
