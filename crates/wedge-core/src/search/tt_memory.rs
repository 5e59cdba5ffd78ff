//! The transposition table's memory: one anonymous mapping of zeroed pages, advised to use
//! huge pages where the system offers them (a table probe is a random access, and with 4 KB
//! pages nearly every probe of a large table also misses the TLB). The search's unsafe code is
//! this view of the zeroed mapping as a slice of all-atomic values, the `ZeroedAtomics`
//! marker on the table's bucket type, and the prefetch hint that starts loading a bucket
//! before it is probed.

use std::ops::Deref;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};

/// Marker for types whose every bit pattern of all zeros is a valid value made only of
/// atomics (so a shared view of zeroed mapped memory is sound).
///
/// # Safety
/// Implement only for `#[repr(C)]`-like types built solely from `AtomicU64` (and padding-free
/// arrays of them), with an alignment of at most a page.
pub unsafe trait ZeroedAtomics {}

// SAFETY: AtomicU64 has the layout of u64, and zero is a valid u64.
unsafe impl ZeroedAtomics for AtomicU64 {}

/// `len` values of `T`, zero-initialised, in their own mapping.
pub struct TableMemory<T: ZeroedAtomics> {
    map: memmap2::MmapMut,
    len: usize,
    /// Bytes from the start that [`TableMemory::fault_in`] has faulted in.
    faulted: AtomicUsize,
    _values: std::marker::PhantomData<T>,
}

impl<T: ZeroedAtomics> TableMemory<T> {
    /// Maps `len` zeroed values; huge pages are asked for, not required. No page is resident
    /// until [`TableMemory::fault_in`] or a first write. Fails when the system refuses the
    /// memory, or when it is more than the process may use (faulting the pages in would then
    /// get the process killed instead).
    pub fn new(len: usize) -> std::io::Result<TableMemory<T>> {
        let bytes = Self::bytes_for(len)?;
        check_limits(bytes)?;
        let map = memmap2::MmapMut::map_anon(bytes).map_err(|e| with_limit(e, bytes))?;
        #[cfg(target_os = "linux")]
        {
            // Advice only: without transparent huge pages the table works on small pages.
            let _ = map.advise(memmap2::Advice::HugePage);
        }
        Ok(TableMemory {
            map,
            len,
            faulted: AtomicUsize::new(0),
            _values: std::marker::PhantomData,
        })
    }

    /// The bytes of `len` values.
    fn bytes_for(len: usize) -> std::io::Result<usize> {
        Ok(len
            .checked_mul(std::mem::size_of::<T>())
            .ok_or_else(|| std::io::Error::other("size overflows"))?
            .max(1))
    }

    /// Checks that `len` values could be mapped now, without keeping or touching the memory:
    /// a quick check before the table is really made (on another thread, later).
    pub fn check(len: usize) -> std::io::Result<()> {
        let bytes = Self::bytes_for(len)?;
        check_limits(bytes)?;
        memmap2::MmapMut::map_anon(bytes)
            .map(drop)
            .map_err(|e| with_limit(e, bytes))
    }

    /// Faults the pages in (the kernel zeroes each), a chunk at a time, until all are in or
    /// `stop` is set; true once all are. A later call goes on where the last one stopped.
    /// Each page's first word is written back with what it holds (a compare-and-swap of the
    /// value with itself: an OR of zero would be compiled to a mere load, which maps no page),
    /// so the table's entries stay as they are. One caller at a time (the engine's worker,
    /// idle).
    pub fn fault_in(&self, stop: &AtomicBool) -> bool {
        const PAGE: usize = 4096;
        const CHUNK: usize = 2 << 20;
        let bytes = self.len * std::mem::size_of::<T>();
        let words = self.map.as_ptr().cast::<AtomicU64>();
        let mut done = self.faulted.load(Ordering::Relaxed);
        while done < bytes {
            if stop.load(Ordering::Relaxed) {
                return false;
            }
            let end = (done + CHUNK).min(bytes);
            for offset in (done..end).step_by(PAGE) {
                // SAFETY: `offset` is a multiple of the page size inside the mapping, which
                // is page-aligned, so this is an aligned u64 of the mapping, which lives as
                // long as `self` and is only reached through atomics (as the table's own view
                // is).
                let word = unsafe { &*words.add(offset / 8) };
                let v = word.load(Ordering::Relaxed);
                let _ = word.compare_exchange(v, v, Ordering::Relaxed, Ordering::Relaxed);
            }
            done = end;
            self.faulted.store(done, Ordering::Relaxed);
        }
        true
    }
}

impl<T: ZeroedAtomics> Deref for TableMemory<T> {
    type Target = [T];

    fn deref(&self) -> &[T] {
        let ptr = self.map.as_ptr();
        debug_assert_eq!(ptr.align_offset(std::mem::align_of::<T>()), 0);
        // SAFETY: the mapping is page-aligned (at least T's alignment, by ZeroedAtomics),
        // holds `len * size_of::<T>()` bytes that the kernel zeroed, lives as long as `self`,
        // and is only ever accessed through this shared view of atomics (interior
        // mutability), for which all-zero bytes are valid values.
        unsafe { std::slice::from_raw_parts(ptr.cast::<T>(), self.len) }
    }
}

/// Fails when `bytes` is more than the process may use: its address space (`ulimit -v`), its
/// control group's memory, or the machine's memory and swap.
fn check_limits(bytes: usize) -> std::io::Result<()> {
    let bytes = bytes as u64;
    let too_much = |what: String| {
        Err(std::io::Error::new(
            std::io::ErrorKind::OutOfMemory,
            format!("{} MB is more than {what}", bytes >> 20),
        ))
    };
    if let Some(limit) = address_space_limit().filter(|&l| bytes > l) {
        return too_much(format!(
            "the {} MB address space this process may use (ulimit -v)",
            limit >> 20
        ));
    }
    if let Some(limit) = cgroup_memory_limit().filter(|&l| bytes > l) {
        return too_much(format!(
            "the {} MB of memory of this process's control group",
            limit >> 20
        ));
    }
    if let Some(total) = machine_memory().filter(|&t| bytes > t) {
        return too_much(format!(
            "the {} MB of memory and swap of this machine",
            total >> 20
        ));
    }
    Ok(())
}

/// A failed mapping, with the address-space limit when there is one (the usual cause).
fn with_limit(e: std::io::Error, bytes: usize) -> std::io::Error {
    match address_space_limit() {
        Some(limit) => std::io::Error::new(
            e.kind(),
            format!(
                "{e}: {} MB do not fit in the {} MB address space this process may use \
                 (ulimit -v) beside what it uses already",
                bytes >> 20,
                limit >> 20
            ),
        ),
        None => e,
    }
}

/// The soft address-space limit (`ulimit -v`) in bytes, if any (Linux: /proc/self/limits).
fn address_space_limit() -> Option<u64> {
    let limits = std::fs::read_to_string("/proc/self/limits").ok()?;
    let line = limits
        .lines()
        .find(|l| l.starts_with("Max address space"))?;
    line["Max address space".len()..]
        .split_whitespace()
        .next()?
        .parse()
        .ok()
}

/// The memory limit of the process's control group (v2, else v1), if any.
fn cgroup_memory_limit() -> Option<u64> {
    [
        "/sys/fs/cgroup/memory.max",
        "/sys/fs/cgroup/memory/memory.limit_in_bytes",
    ]
    .iter()
    .find_map(|f| std::fs::read_to_string(f).ok())
    .and_then(|s| s.trim().parse::<u64>().ok())
    // "max", or v1's page-rounded 2^63 for none.
    .filter(|&l| l < 1 << 62)
}

/// The machine's memory and swap in bytes (Linux: /proc/meminfo).
fn machine_memory() -> Option<u64> {
    let info = std::fs::read_to_string("/proc/meminfo").ok()?;
    let kb = |key: &str| -> Option<u64> {
        info.lines()
            .find(|l| l.starts_with(key))?
            .split_whitespace()
            .nth(1)?
            .parse()
            .ok()
    };
    Some((kb("MemTotal:")? + kb("SwapTotal:").unwrap_or(0)) * 1024)
}

/// Asks the processor to start loading every cache line of `value` into its caches: a hint
/// that changes no result, so that several probes' misses to memory overlap.
#[inline(always)]
pub fn prefetch<T: ZeroedAtomics>(value: &T) {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        let p = (value as *const T).cast::<i8>();
        for offset in (0..std::mem::size_of::<T>()).step_by(64) {
            // SAFETY: a prefetch never faults and writes nothing, whatever the address (here
            // inside a live reference); SSE, which it needs, is in every x86-64 processor.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(p.wrapping_add(offset)) };
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = value;
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::Ordering::Relaxed;

    #[test]
    fn mapped_values_start_at_zero_and_keep_what_is_stored() {
        let m = TableMemory::<AtomicU64>::new(1 << 20).expect("anonymous mapping");
        assert_eq!(m.len(), 1 << 20);
        assert!(m.iter().all(|v| v.load(Relaxed) == 0));
        for (i, v) in m.iter().enumerate().step_by(4099) {
            v.store(i as u64 * 7 + 1, Relaxed);
        }
        for (i, v) in m.iter().enumerate() {
            let expected = if i % 4099 == 0 { i as u64 * 7 + 1 } else { 0 };
            assert_eq!(v.load(Relaxed), expected);
        }
    }
}
