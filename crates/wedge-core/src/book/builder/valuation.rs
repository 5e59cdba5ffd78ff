//! Valuing book positions: what a valuation is and who makes it (a [`Valuer`], one search at
//! a time), the request the builder hands out (the position, the moves allowed, solve or
//! search, the book as the search sees it), and the pool of local threads that values one
//! empties level ([`LocalThreads`], a [`LevelValuer`]; the lab's queue is another).

use crate::board::{Board, Square};
use crate::book::excerpt::BookExcerpt;
use crate::book::lookup::BookLookup;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

/// The result of one valuation search, as the builder asks for it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Valuation {
    pub sq: Square,
    /// Value of the position for its side to move when `sq` is played.
    pub value: i32,
    /// Plies searched (at least the empties when exact).
    pub depth: u8,
    pub exact: bool,
}

/// Searches the builder asks for: the best of `allowed` moves of `board`, to the book's
/// search depth, or exactly when `exact`. `book` answers transpositions into the book.
pub trait Valuer {
    fn best_of(
        &mut self,
        board: &Board,
        allowed: u64,
        exact: bool,
        book: &dyn BookLookup,
    ) -> Option<Valuation>;
}

/// A valuer lent from a pool (one per thread, made ahead) is used as the valuer itself.
impl<V: Valuer> Valuer for std::sync::MutexGuard<'_, V> {
    fn best_of(
        &mut self,
        board: &Board,
        allowed: u64,
        exact: bool,
        book: &dyn BookLookup,
    ) -> Option<Valuation> {
        (**self).best_of(board, allowed, exact, book)
    }
}

/// A position the builder needs valued, with everything the valuation depends on: the best
/// of the `allowed` moves (those outside the book), searched or (when `exact`) solved, seeing
/// the book through `excerpt`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ValuationRequest {
    pub board: Board,
    pub allowed: u64,
    pub exact: bool,
    pub excerpt: BookExcerpt,
}

impl ValuationRequest {
    pub fn value<V: Valuer>(&self, valuer: &mut V) -> Option<Valuation> {
        valuer.best_of(&self.board, self.allowed, self.exact, &self.excerpt)
    }
}

/// Values the requests of one empties count, in their order, calling `finished` once per
/// position done: on local threads ([`LocalThreads`]) or elsewhere.
pub trait LevelValuer {
    fn value_level(
        &mut self,
        requests: &[ValuationRequest],
        finished: &(dyn Fn() + Sync),
    ) -> Vec<Option<Valuation>>;

    /// Why valuations could not be made (a lost connection): then what the last levels
    /// returned is not to be trusted, and the book must not be published.
    fn failure(&self) -> Option<String> {
        None
    }
}

/// `threads` valuers from `make` side by side, each taking the next request.
pub struct LocalThreads<'a, V> {
    pub make: &'a (dyn Fn() -> V + Sync),
    pub threads: usize,
}

impl<V: Valuer> LevelValuer for LocalThreads<'_, V> {
    fn value_level(
        &mut self,
        requests: &[ValuationRequest],
        finished: &(dyn Fn() + Sync),
    ) -> Vec<Option<Valuation>> {
        let next = AtomicUsize::new(0);
        let results = Mutex::new(vec![None; requests.len()]);
        std::thread::scope(|s| {
            for _ in 0..self.threads.max(1).min(requests.len()) {
                s.spawn(|| {
                    let mut valuer = (self.make)();
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        let Some(q) = requests.get(i) else { break };
                        let r = q.value(&mut valuer);
                        results.lock().expect("no panics while valuing")[i] = r;
                        finished();
                    }
                });
            }
        });
        results.into_inner().expect("no panics while valuing")
    }
}
