//! The [`Engine`]: the handle on the worker thread that submits tasks and stops them.

use super::books::PlayBooks;
use super::task::{EventSink, JobId, Task};
use super::worker::{EngineOptions, Job, Worker};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::sync::Arc;
use std::thread::JoinHandle;
use wedge_core::eval::Evaluator;
use wedge_core::rng::Rng;
use wedge_core::search::Searcher;

/// `submit` found no worker thread to answer (it could not be started, or it ended).
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("the engine thread is gone")]
pub struct WorkerGone;

/// The handle on the worker thread. Dropping it stops the running task and joins the thread.
pub struct Engine {
    jobs: Option<mpsc::Sender<Job>>,
    stop: Arc<AtomicBool>,
    /// Stops the worker's learning between tasks (set by every submit).
    idle_stop: Arc<AtomicBool>,
    next_id: JobId,
    worker: Option<JoinHandle<()>>,
    /// Signalled once the worker has built its searcher (see [`Engine::wait_ready`]).
    ready: Option<mpsc::Receiver<()>>,
}

impl Engine {
    /// Starts the worker thread owning `searcher`; events are handed to `sink` in order.
    pub fn new<E: Evaluator + 'static>(
        searcher: Searcher<E>,
        options: EngineOptions,
        sink: EventSink,
    ) -> Engine {
        Engine::spawn(move || searcher, options, sink)
    }

    /// Like [`Engine::new`], but the searcher is built on the worker thread by `make` (the
    /// weights loaded, the table mapped); [`Engine::wait_ready`] waits for it.
    pub fn spawn<E: Evaluator + 'static>(
        make: impl FnOnce() -> Searcher<E> + Send + 'static,
        options: EngineOptions,
        sink: EventSink,
    ) -> Engine {
        let (tx, rx) = mpsc::channel::<Job>();
        let stop = Arc::new(AtomicBool::new(false));
        let worker_stop = stop.clone();
        let idle_stop = Arc::new(AtomicBool::new(false));
        let worker_idle_stop = idle_stop.clone();
        let (ready_tx, ready) = mpsc::sync_channel::<()>(1);
        let handle = std::thread::Builder::new()
            .name("wedge-engine".into())
            .spawn(move || {
                let seed = options
                    .book_seed
                    .unwrap_or_else(wedge_core::rng::fresh_seed);
                if options.book_randomness > 0 {
                    tracing::info!(
                        "book randomness {}: seed {seed} (--book-seed {seed} repeats the choices)",
                        options.book_randomness
                    );
                }
                let mut worker = Worker {
                    searcher: make(),
                    stop: worker_stop,
                    idle_stop: worker_idle_stop,
                    used: false,
                    table_ready: false,
                    sink,
                    books: PlayBooks::new(options.book.as_ref(), options.user_book.as_ref()),
                    options,
                    rng: Rng::new(seed),
                    ponder: None,
                    pondered: None,
                };
                worker.reopen_books();
                let _ = ready_tx.send(());
                while let Some(job) = worker.next_job(&rx) {
                    worker.run(job);
                }
            });
        let worker = match handle {
            Ok(h) => Some(h),
            Err(e) => {
                tracing::error!("cannot start the engine thread: {e}");
                None
            }
        };
        Engine {
            jobs: Some(tx),
            stop,
            idle_stop,
            next_id: 1,
            worker,
            ready: Some(ready),
        }
    }

    /// Blocks until the worker is ready to search (at once after the first call), so that a
    /// game clock started after the handshake never pays for loading the weights.
    pub fn wait_ready(&mut self) {
        if let Some(ready) = self.ready.take() {
            let _ = ready.recv();
        }
    }

    /// Hands `task` to the worker. The stop flag is reset first, or set when `start_stopped`
    /// (new input is already waiting: the task then answers at once with what it has). The
    /// flag is shared, so submit only once the previous task sent its [`Event::Done`]. Fails
    /// when there is no worker to answer.
    pub fn submit(&mut self, task: Task, start_stopped: bool) -> Result<JobId, WorkerGone> {
        let id = self.next_id;
        self.next_id += 1;
        self.stop.store(start_stopped, Ordering::SeqCst);
        let sent = self
            .jobs
            .as_ref()
            .is_some_and(|tx| tx.send(Job { id, task }).is_ok());
        // After the send: the worker clears this flag before it looks for a task.
        self.idle_stop.store(true, Ordering::SeqCst);
        if !sent || self.worker.is_none() {
            return Err(WorkerGone);
        }
        Ok(id)
    }

    /// Asks the running task to stop now; it still sends its [`Event::Done`].
    pub fn stop(&self) {
        self.stop.store(true, Ordering::SeqCst);
        self.idle_stop.store(true, Ordering::SeqCst);
    }

    /// The stop flag itself (for callers that must set it from another thread).
    pub fn stop_flag(&self) -> Arc<AtomicBool> {
        self.stop.clone()
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        // The channel closes first, so a worker between tasks finds it closed.
        self.jobs = None;
        self.stop();
        if let Some(w) = self.worker.take() {
            let _ = w.join();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{Event, EventSink, Task};
    use std::time::Duration;
    use wedge_core::board::Board;
    use wedge_core::eval::Heuristic;
    use wedge_core::search::{Limits, TimeControl};

    /// Pondering runs until a task comes, and that task is answered: the ponder stops at once
    /// (a generous bound here; how soon is a measurement, not a test).
    #[test]
    fn a_task_stops_the_pondering_and_is_answered() {
        let (tx, rx) = mpsc::channel();
        let sink: EventSink = Box::new(move |e| {
            if let Event::Done { job, .. } = e {
                let _ = tx.send(job);
            }
        });
        let options = EngineOptions {
            ponder: true,
            ..Default::default()
        };
        let mut engine = Engine::new(Searcher::new(Arc::new(Heuristic), 16, 1), options, sink);
        let limits = Limits::timed(
            TimeControl::Clock {
                remaining: Duration::from_millis(500),
                increment: Duration::ZERO,
            },
            60,
        );
        let board = Board::START;
        let bound = Duration::from_secs(60);
        let first = engine
            .submit(Task::Search { board, limits }, false)
            .unwrap();
        assert_eq!(rx.recv_timeout(bound), Ok(first));
        // The ponder (of the position at 58 empties after the expected reply) would run for
        // hours.
        std::thread::sleep(Duration::from_millis(200));
        let second = engine.submit(Task::Evaluate { board }, false).unwrap();
        assert_eq!(rx.recv_timeout(bound), Ok(second));
    }
}
