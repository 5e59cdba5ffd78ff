//! Connecting to the server and the JetStream objects every queue command shares, created
//! when missing: the work-queue stream of units and its one durable consumer for all workers,
//! the results stream (one message per unit subject, kept [`RETENTION`]), the records of
//! terminated units and of match runs (kept as long), the object store of weights and ProbCut
//! models by checksum, and a stream of workers' heartbeats that expire (plain streams rather
//! than key-value buckets, which Debian's server 2.9 and this client disagree on).

use super::error::{nats, DistribError};
use async_nats::jetstream::{self, consumer, object_store, stream};
use futures_util::StreamExt;
use std::time::Duration;

/// The stream of work units (work-queue retention: a unit is gone once acknowledged).
pub const UNITS_STREAM: &str = "WEDGE_UNITS";
/// The subject self-play units are published on.
pub const SELFPLAY_UNITS: &str = "wedge.units.selfplay";
/// The stream of results.
pub const RESULTS_STREAM: &str = "WEDGE_RESULTS";
/// How long results, records of terminated units and of match runs are kept (the streams'
/// `max_age`): answers stay this long for reruns.
pub const RETENTION: Duration = Duration::from_secs(7 * 24 * 3600);
/// The stream of terminated units' records (`wedge.failed.<kind>.<key>`, one per unit).
pub const FAILED_STREAM: &str = "WEDGE_FAILED";
/// Prefix of the records of terminated units.
pub const FAILED_PREFIX: &str = "wedge.failed.";
/// The stream of match runs (`wedge.runs.match.<match>`: the match's latest run id).
pub const RUNS_STREAM: &str = "WEDGE_RUNS";
/// Prefix of the run records.
pub const RUNS_PREFIX: &str = "wedge.runs.";
/// The durable pull consumer all workers share.
pub const WORKERS_CONSUMER: &str = "wedge-workers";
/// The object store bucket of weights and ProbCut models.
pub const FILES_BUCKET: &str = "wedge-files";
/// The stream of worker heartbeats (one message per worker, expiring).
pub const WORKERS_STREAM: &str = "WEDGE_WORKERS";
/// Prefix of the heartbeat subjects (`wedge.workers.<name>`).
pub const WORKERS_PREFIX: &str = "wedge.workers.";
/// A unit not acknowledged, nor reported in progress, for this long is redelivered.
pub const ACK_WAIT: Duration = Duration::from_secs(30);
/// A worker's heartbeat expires after this long without a refresh.
pub const WORKER_TTL: Duration = Duration::from_secs(60);
/// Republishing a unit within this window is recognised as a duplicate (`Nats-Msg-Id`).
pub const DUPLICATE_WINDOW: Duration = Duration::from_secs(24 * 3600);

/// The messages of a stream on some subjects, in order, through an ordered consumer (nothing
/// to acknowledge, nothing left on the server).
pub struct Follower {
    messages: consumer::pull::Ordered,
    /// What following is for, in errors ("following the results").
    what: &'static str,
}

impl Follower {
    /// Follows the messages of `stream` on `filter`, from where `policy` says.
    pub async fn new(
        stream: &stream::Stream,
        filter: String,
        policy: consumer::DeliverPolicy,
        what: &'static str,
    ) -> Result<Follower, DistribError> {
        let messages = stream
            .create_consumer(consumer::pull::OrderedConfig {
                filter_subject: filter,
                deliver_policy: policy,
                ..Default::default()
            })
            .await
            .map_err(nats(what))?
            .messages()
            .await
            .map_err(nats(what))?;
        Ok(Follower { messages, what })
    }

    /// The next message, once there is one.
    pub async fn next(&mut self) -> Result<jetstream::Message, DistribError> {
        match self.messages.next().await {
            Some(m) => m.map_err(nats(self.what)),
            None => Err(DistribError::Nats {
                what: self.what.into(),
                message: "the stream ended".into(),
            }),
        }
    }
}

/// A connection and its JetStream context.
pub struct Queue {
    pub client: async_nats::Client,
    pub js: jetstream::Context,
    pub url: String,
}

/// Connects to `url` (`nats://HOST:PORT`).
pub async fn connect(url: &str) -> Result<Queue, DistribError> {
    if !url.starts_with("nats://") && !url.starts_with("tls://") {
        return Err(DistribError::Usage(format!(
            "--queue {url:?}: expected nats://HOST:PORT"
        )));
    }
    let client = async_nats::ConnectOptions::new()
        .name("wedge")
        .connection_timeout(Duration::from_secs(5))
        .retry_on_initial_connect()
        .max_reconnects(Some(30))
        .connect(url)
        .await
        .map_err(|e| DistribError::Connect {
            url: url.to_string(),
            message: e.to_string(),
        })?;
    // Retrying the first connection: a server that never answers must not hang us forever.
    let mut waited = Duration::ZERO;
    while client.connection_state() != async_nats::connection::State::Connected {
        if waited >= Duration::from_secs(10) {
            return Err(DistribError::Connect {
                url: url.to_string(),
                message: "no answer in 10 s".into(),
            });
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
        waited += Duration::from_millis(100);
    }
    let js = jetstream::new(client.clone());
    Ok(Queue {
        client,
        js,
        url: url.to_string(),
    })
}

/// A coordinator's connection to `url`: the units and results streams and the workers'
/// consumer made sure of, and the weights and ProbCut models of `models` in the object store.
pub async fn coordinator(
    url: &str,
    models: &[(&wedge_core::eval::Weights, &crate::train::selfplay::Model)],
) -> Result<Queue, DistribError> {
    let queue = connect(url).await?;
    let units = queue.units().await?;
    queue.results().await?;
    queue.workers_consumer(&units).await?;
    let store = queue.files().await?;
    for (weights, model) in models {
        super::files::upload(&store, weights, model).await?;
    }
    Ok(queue)
}

impl Queue {
    /// The stream `config` names, created when missing. When two processes create it at once
    /// (a coordinator and its workers starting together), the server refuses the second
    /// ("subjects overlap"): that one opens the stream the first made. `hint` ends the error.
    /// A stream that keeps messages forever where `config` gives a `max_age` (one made by an
    /// older build) is given that `max_age`; any other the operator set is left alone.
    async fn stream(
        &self,
        config: stream::Config,
        hint: &str,
    ) -> Result<stream::Stream, DistribError> {
        let name = config.name.clone();
        let max_age = config.max_age;
        let stream = match self.js.get_or_create_stream(config).await {
            Ok(s) => s,
            Err(e) => match self.js.get_stream(&name).await {
                Ok(s) => s,
                Err(_) => return Err(nats(format!("opening stream {name}{hint}"))(e)),
            },
        };
        let found = &stream.cached_info().config;
        if max_age.is_zero() || !found.max_age.is_zero() {
            return Ok(stream);
        }
        let config = stream::Config {
            max_age,
            ..found.clone()
        };
        self.js
            .update_stream(&config)
            .await
            .map_err(nats(format!("setting the retention of stream {name}")))?;
        self.js
            .get_stream(&name)
            .await
            .map_err(nats(format!("opening stream {name}")))
    }

    /// The units stream, created when missing.
    pub async fn units(&self) -> Result<stream::Stream, DistribError> {
        self.stream(
            stream::Config {
                name: UNITS_STREAM.into(),
                subjects: vec!["wedge.units.>".into()],
                retention: stream::RetentionPolicy::WorkQueue,
                duplicate_window: DUPLICATE_WINDOW,
                ..Default::default()
            },
            " (is JetStream on? start the server with -js)",
        )
        .await
    }

    /// The results stream, created when missing: one message per subject, so a unit played
    /// twice leaves one result, each kept [`RETENTION`].
    pub async fn results(&self) -> Result<stream::Stream, DistribError> {
        self.kept(RESULTS_STREAM, super::result::SUBJECTS).await
    }

    /// The records of terminated units, created when missing.
    pub async fn failed(&self) -> Result<stream::Stream, DistribError> {
        self.kept(FAILED_STREAM, &format!("{FAILED_PREFIX}>")).await
    }

    /// The records of match runs, created when missing.
    pub async fn runs(&self) -> Result<stream::Stream, DistribError> {
        self.kept(RUNS_STREAM, &format!("{RUNS_PREFIX}>")).await
    }

    /// Stream `name` of `subjects`, one message per subject, each kept [`RETENTION`].
    async fn kept(&self, name: &str, subjects: &str) -> Result<stream::Stream, DistribError> {
        self.stream(
            stream::Config {
                name: name.into(),
                subjects: vec![subjects.into()],
                max_messages_per_subject: 1,
                max_age: RETENTION,
                ..Default::default()
            },
            "",
        )
        .await
    }

    /// The workers' shared consumer of the units stream, created when missing.
    pub async fn workers_consumer(
        &self,
        units: &stream::Stream,
    ) -> Result<consumer::Consumer<consumer::pull::Config>, DistribError> {
        let created = units
            .get_or_create_consumer(
                WORKERS_CONSUMER,
                consumer::pull::Config {
                    durable_name: Some(WORKERS_CONSUMER.into()),
                    ack_policy: consumer::AckPolicy::Explicit,
                    ack_wait: ACK_WAIT,
                    ..Default::default()
                },
            )
            .await;
        match created {
            Ok(c) => Ok(c),
            // Made meanwhile by another process starting at the same time.
            Err(e) => units
                .get_consumer(WORKERS_CONSUMER)
                .await
                .map_err(|_| nats(format!("opening consumer {WORKERS_CONSUMER}"))(e)),
        }
    }

    /// The object store of weights and ProbCut models, created when missing.
    pub async fn files(&self) -> Result<object_store::ObjectStore, DistribError> {
        if let Ok(store) = self.js.get_object_store(FILES_BUCKET).await {
            return Ok(store);
        }
        let created = self
            .js
            .create_object_store(object_store::Config {
                bucket: FILES_BUCKET.into(),
                description: Some("Wedge weights and ProbCut models by checksum".into()),
                ..Default::default()
            })
            .await;
        match created {
            Ok(store) => Ok(store),
            // Another process (a worker starting beside the coordinator) made it meanwhile.
            Err(e) => match self.js.get_object_store(FILES_BUCKET).await {
                Ok(store) => Ok(store),
                Err(_) => Err(nats(format!("creating object store {FILES_BUCKET}"))(e)),
            },
        }
    }

    /// The workers' heartbeat stream, created when missing.
    pub async fn workers(&self) -> Result<stream::Stream, DistribError> {
        self.stream(
            stream::Config {
                name: WORKERS_STREAM.into(),
                subjects: vec![format!("{WORKERS_PREFIX}>")],
                max_messages_per_subject: 1,
                max_age: WORKER_TTL,
                ..Default::default()
            },
            "",
        )
        .await
    }
}
