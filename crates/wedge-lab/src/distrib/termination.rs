//! Terminated units: a unit whose work keeps failing is delivered at most [`MAX_DELIVERIES`]
//! times (a failure that is the unit's own fault ends it at once), then terminated. The worker
//! that ends it leaves a record of why on the failures stream, on the unit's own subject with
//! `units` replaced by `failed`; its coordinator follows these records and `wedge queue status`
//! lists them.

use super::error::{nats, DistribError};
use super::result::WORKER_HEADER;
use super::setup::{Follower, Queue, FAILED_PREFIX};
use async_nats::jetstream::consumer::DeliverPolicy;
use futures_util::StreamExt;
use std::collections::HashSet;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// Deliveries a unit gets before a worker terminates it: a failure on the last one ends it,
/// and a unit delivered more often (its earlier workers died before answering) is ended
/// before it is tried again.
pub const MAX_DELIVERIES: i64 = 5;
/// The header with the deliveries a terminated unit had.
pub const DELIVERIES_HEADER: &str = "Wedge-Deliveries";
/// The header with the time a unit was terminated, in seconds since 1970.
pub const TIME_HEADER: &str = "Wedge-Terminated-At";
/// Most bytes of a reason kept in a record (and read back from one).
const MAX_REASON: usize = 2000;

/// Whose fault a failed attempt at a unit is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fault {
    /// The unit itself is wrong (unreadable, or naming an object the store lacks or holds
    /// damaged), or was delivered more often than any unit may be: it is terminated at once.
    Unit,
    /// Trouble here or now (the connection, an engine or memory this worker lacks, a failed
    /// game or search): another delivery may succeed.
    Worker,
}

/// What a worker does with a unit it could not finish.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Released for another delivery after this delay.
    Release(Duration),
    Terminate,
}

/// The verdict on a unit whose `delivered`-th delivery failed with `fault`.
pub fn verdict(fault: Fault, delivered: i64) -> Verdict {
    match fault {
        Fault::Unit => Verdict::Terminate,
        Fault::Worker if delivered >= MAX_DELIVERIES => Verdict::Terminate,
        Fault::Worker => Verdict::Release(release_delay(delivered)),
    }
}

/// The delay before a released unit comes back: 2 s after its first delivery, doubling, at
/// most 30 s.
pub fn release_delay(delivered: i64) -> Duration {
    let doublings = delivered.clamp(1, 5) - 1;
    Duration::from_secs((2u64 << doublings).min(30))
}

/// Whether a unit on its `delivered`-th delivery had all it may have: the earlier ones ended
/// with no answer and no release (the workers were killed or crashed), so it is terminated
/// before it is tried again.
pub fn exhausted(delivered: i64) -> bool {
    delivered > MAX_DELIVERIES
}

/// The subject of the record of the unit published on `unit_subject` (`wedge.units.X` ->
/// `wedge.failed.X`).
pub fn record_subject(unit_subject: &str) -> String {
    let tail = unit_subject
        .strip_prefix("wedge.units.")
        .unwrap_or(unit_subject);
    format!("{FAILED_PREFIX}{tail}")
}

/// The prefix of the records of units published under `units_subject.<key>`.
fn records_prefix(units_subject: &str) -> String {
    format!("{}.", record_subject(units_subject))
}

/// Why a unit was terminated.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Termination {
    /// Deliveries it had (0 when a record does not say).
    pub deliveries: i64,
    pub worker: String,
    pub reason: String,
    /// When, in seconds since 1970 (0 when a record does not say).
    pub at: u64,
}

impl std::fmt::Display for Termination {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let plural = if self.deliveries == 1 { "y" } else { "ies" };
        write!(
            f,
            "terminated after {} deliver{plural} by worker {}: {}",
            self.deliveries, self.worker, self.reason
        )
    }
}

/// The first `max` bytes of `text`, cut at a character boundary.
fn cut(text: &str, max: usize) -> &str {
    &text[..wedge_core::formats::floor_char_boundary(text, max)]
}

impl Termination {
    /// A termination now, by `worker`, on delivery `deliveries`.
    pub fn now(deliveries: i64, worker: &str, reason: impl Into<String>) -> Termination {
        Termination {
            deliveries,
            worker: worker.to_string(),
            reason: reason.into(),
            at: SystemTime::now()
                .duration_since(UNIX_EPOCH)
                .map_or(0, |d| d.as_secs()),
        }
    }

    /// The record read back from a message: whatever it holds, shown as text (a record is
    /// only ever displayed, so nothing in it is refused).
    pub fn from_message(headers: Option<&async_nats::HeaderMap>, payload: &[u8]) -> Termination {
        let header = |name: &str| {
            headers
                .and_then(|h| h.get(name))
                .map(|v| cut(v.as_str(), 100).to_string())
        };
        let text = String::from_utf8_lossy(payload);
        Termination {
            deliveries: header(DELIVERIES_HEADER)
                .and_then(|d| d.parse().ok())
                .unwrap_or(0),
            worker: header(WORKER_HEADER).unwrap_or_else(|| "?".into()),
            reason: cut(&text, MAX_REASON).to_string(),
            at: header(TIME_HEADER)
                .and_then(|t| t.parse().ok())
                .unwrap_or(0),
        }
    }

    /// How long ago it was, for people ("3 min ago"); empty when unknown.
    pub fn age(&self) -> String {
        let now = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_secs());
        match now.checked_sub(self.at) {
            _ if self.at == 0 => String::new(),
            Some(s) if s < 120 => format!("{s} s ago"),
            Some(s) if s < 7200 => format!("{} min ago", s / 60),
            Some(s) if s < 172_800 => format!("{} h ago", s / 3600),
            Some(s) => format!("{} days ago", s / 86_400),
            None => "just now".into(),
        }
    }
}

/// Publishes the record of the unit on `unit_subject` (replacing an earlier one).
pub async fn record(
    queue: &Queue,
    unit_subject: &str,
    termination: &Termination,
) -> Result<(), DistribError> {
    queue.failed().await?;
    let mut headers = async_nats::HeaderMap::new();
    headers.insert(WORKER_HEADER, termination.worker.as_str());
    headers.insert(
        DELIVERIES_HEADER,
        termination.deliveries.to_string().as_str(),
    );
    headers.insert(TIME_HEADER, termination.at.to_string().as_str());
    let payload = cut(&termination.reason, MAX_REASON).as_bytes().to_vec();
    queue
        .js
        .publish_with_headers(record_subject(unit_subject), headers, payload.into())
        .await
        .map_err(nats("recording a terminated unit"))?
        .await
        .map_err(nats("recording a terminated unit"))?;
    Ok(())
}

/// The records of units of one kind made from now on, as a coordinator follows them.
pub struct Terminations {
    prefix: String,
    messages: Follower,
}

impl Terminations {
    /// Follows the records of the units published under `units_subject.<key>`.
    pub async fn follow(queue: &Queue, units_subject: &str) -> Result<Terminations, DistribError> {
        let prefix = records_prefix(units_subject);
        let messages = Follower::new(
            &queue.failed().await?,
            format!("{prefix}>"),
            DeliverPolicy::New,
            "following the terminated units",
        )
        .await?;
        Ok(Terminations { prefix, messages })
    }

    /// The next record: the key of its unit and why it was terminated.
    pub async fn next(&mut self) -> Result<(String, Termination), DistribError> {
        loop {
            let message = self.messages.next().await?;
            if let Some(key) = message.subject.strip_prefix(self.prefix.as_str()) {
                let t = Termination::from_message(message.headers.as_ref(), &message.payload);
                return Ok((key.to_string(), t));
            }
        }
    }
}

/// Removes the records an earlier run left for the units of `keys` (published under
/// `units_subject.<key>`), which are about to be queued again.
pub async fn clear<'a>(
    queue: &Queue,
    units_subject: &str,
    keys: impl IntoIterator<Item = &'a str>,
) -> Result<(), DistribError> {
    let prefix = records_prefix(units_subject);
    let stream = queue.failed().await?;
    let mut listed = HashSet::new();
    let mut subjects = stream
        .info_with_subjects(format!("{prefix}>"))
        .await
        .map_err(nats("listing the terminated units"))?;
    while let Some(entry) = subjects.next().await {
        let (subject, _) = entry.map_err(nats("listing the terminated units"))?;
        listed.insert(subject);
    }
    if listed.is_empty() {
        return Ok(());
    }
    for key in keys {
        let subject = format!("{prefix}{key}");
        if listed.contains(&subject) {
            stream
                .purge()
                .filter(subject)
                .await
                .map_err(nats("clearing a terminated unit's record"))?;
        }
    }
    Ok(())
}

/// The error of a coordinator whose units in `ended` (each described, with why it ended) have
/// no answer.
pub fn ended_error(ended: &[(String, String)]) -> DistribError {
    const SHOWN: usize = 10;
    let mut text = format!("{} units were terminated and have no answer:", ended.len());
    for (what, why) in ended.iter().take(SHOWN) {
        text.push_str(&format!("\n  {what}: {why}"));
    }
    if ended.len() > SHOWN {
        text.push_str(&format!(
            "\n  and {} more (see `wedge queue status`)",
            ended.len() - SHOWN
        ));
    }
    DistribError::Terminated(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_unit_is_released_with_growing_delays_then_terminated() {
        assert_eq!(
            verdict(Fault::Worker, 1),
            Verdict::Release(Duration::from_secs(2))
        );
        assert_eq!(
            verdict(Fault::Worker, 2),
            Verdict::Release(Duration::from_secs(4))
        );
        assert_eq!(
            verdict(Fault::Worker, MAX_DELIVERIES - 1),
            Verdict::Release(Duration::from_secs(16))
        );
        assert_eq!(verdict(Fault::Worker, MAX_DELIVERIES), Verdict::Terminate);
        assert_eq!(verdict(Fault::Unit, 1), Verdict::Terminate);
        assert_eq!(release_delay(40), Duration::from_secs(30));
        assert!(!exhausted(MAX_DELIVERIES));
        assert!(exhausted(MAX_DELIVERIES + 1));
    }

    #[test]
    fn a_record_is_on_the_units_subject_and_reads_back() {
        assert_eq!(
            record_subject("wedge.units.match.00ff"),
            "wedge.failed.match.00ff"
        );
        assert_eq!(records_prefix("wedge.units.solve"), "wedge.failed.solve.");
        let t = Termination::now(5, "w1", "engine \"ntest\" is missing");
        let mut headers = async_nats::HeaderMap::new();
        headers.insert(WORKER_HEADER, "w1");
        headers.insert(DELIVERIES_HEADER, "5");
        headers.insert(TIME_HEADER, t.at.to_string().as_str());
        let back = Termination::from_message(Some(&headers), t.reason.as_bytes());
        assert_eq!(back, t);
        assert_eq!(
            back.to_string(),
            "terminated after 5 deliveries by worker w1: engine \"ntest\" is missing"
        );
        // A foreign record still reads, as what it holds.
        let odd = Termination::from_message(None, &[0xff, b'x']);
        assert_eq!((odd.deliveries, odd.worker.as_str()), (0, "?"));
        assert_eq!(odd.reason, "\u{fffd}x");
        assert_eq!(odd.age(), "");
        let long = Termination::from_message(None, &[b'a'; 5000]);
        assert_eq!(long.reason.len(), MAX_REASON);
    }

    #[test]
    fn the_error_names_each_ended_unit_and_counts_the_rest() {
        let ended: Vec<(String, String)> = (0..12)
            .map(|i| (format!("match game {i}"), "why".to_string()))
            .collect();
        let text = ended_error(&ended).to_string();
        assert!(text.starts_with("12 units were terminated"));
        assert!(text.contains("\n  match game 9: why"));
        assert!(!text.contains("match game 10:"));
        assert!(text.ends_with("and 2 more (see `wedge queue status`)"));
    }
}
