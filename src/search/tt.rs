//! A lock-free transposition table shared by all search threads.
//!
//! Each entry is two relaxed `AtomicU64`s: the data word and the key XOR the data word.
//! A reader recomputes `key ^ data` and accepts the entry only if it matches, so a torn
//! write by another thread reads as a miss instead of as wrong data. Races are accepted
//! by design: a lost update only costs a little search work.
//!
//! The table is allocated with `alloc_zeroed` and then touched once per memory page
//! ([`TranspositionTable::new`]), so that the search does not take its page faults: the
//! pages are mapped before the clock of a move runs out on them. A table made on a move's
//! clock is touched only until a deadline ([`TranspositionTable::new_touched_until`]); the
//! search maps the rest as it writes them. It is allocated lazily, at the
//! first search after the options that size it (`max_memory` arrives after `START`), and
//! cleared in place, so its pages stay mapped for the rest of the process.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

/// Bytes per entry.
pub const ENTRY_BYTES: usize = 16;
/// Smallest table the engine uses (also when `max_memory` is lower).
pub const MIN_TABLE_BYTES: usize = 1 << 20;

/// How a stored score bounds the true value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The true value is at least the score.
    Lower = 1,
    /// The true value is at most the score.
    Upper = 2,
    /// The score is exact.
    Exact = 3,
}

/// What a probe found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TtHit {
    /// Best move as a board index, or None.
    pub best: Option<u16>,
    /// Stored score (win/loss scores are stored relative to the node, see search).
    pub score: i32,
    /// Search depth of the stored result.
    pub depth: i32,
    /// Bound type.
    pub bound: Bound,
}

struct Entry {
    check: AtomicU64,
    data: AtomicU64,
}

/// The table.
pub struct TranspositionTable {
    entries: Box<[Entry]>,
    mask: usize,
}

fn pack(best: Option<u16>, score: i32, depth: i32, bound: Bound) -> u64 {
    let mv = best.map_or(0xFFFF, u64::from);
    let depth = depth.clamp(-128, 127) as i8 as u8 as u64;
    mv | ((score as u32 as u64) << 16) | (depth << 48) | ((bound as u64) << 56)
}

fn unpack(data: u64) -> Option<TtHit> {
    let bound = match (data >> 56) & 0xFF {
        1 => Bound::Lower,
        2 => Bound::Upper,
        3 => Bound::Exact,
        _ => return None,
    };
    let mv = (data & 0xFFFF) as u16;
    Some(TtHit {
        best: (mv != 0xFFFF).then_some(mv),
        score: ((data >> 16) & 0xFFFF_FFFF) as u32 as i32,
        depth: i32::from(((data >> 48) & 0xFF) as u8 as i8),
        bound,
    })
}

/// Bytes in a memory page, the unit the operating system maps on first write (4 KiB on
/// every platform Rensa is built for; a larger page only makes [`touch_pages`] write more).
const PAGE_BYTES: usize = 4096;

/// Pages touched between two looks at the clock in [`TranspositionTable::touch_pages`]
/// (1 MiB: well under a millisecond on an idle machine).
const PAGES_PER_CLOCK_LOOK: usize = 256;

/// `count` zeroed entries from `alloc_zeroed` (pages not yet mapped; see [`touch_pages`]).
fn zeroed_entries(count: usize) -> Box<[Entry]> {
    use std::alloc::{alloc_zeroed, handle_alloc_error, Layout};
    let layout = Layout::array::<Entry>(count).expect("table size fits in memory");
    // SAFETY: `Entry` is two `AtomicU64`s, for which all-zero bytes are a valid value; the
    // layout is non-empty (count >= 1) and the pointer is checked for null. The box takes
    // ownership of exactly this allocation with the same layout.
    unsafe {
        let ptr = alloc_zeroed(layout) as *mut Entry;
        if ptr.is_null() {
            handle_alloc_error(layout);
        }
        Box::from_raw(std::ptr::slice_from_raw_parts_mut(ptr, count))
    }
}

impl TranspositionTable {
    /// A table of at most `bytes` bytes (rounded down to a power of two entries, at least
    /// [`MIN_TABLE_BYTES`]), every page touched.
    pub fn new(bytes: usize) -> TranspositionTable {
        Self::new_touched_until(bytes, None)
    }

    /// [`TranspositionTable::new`], its pages touched only until `deadline` (the rest are
    /// mapped by the search as it first writes them). A move's clock runs while its table
    /// is made: touching 256 MiB took 120-190 ms on an idle machine, but the first moves
    /// of processes started together beside a build came 340-750 ms past a 500 ms turn
    /// limit (self-play, `bench/elo-log.md`), and 680-830 ms past it beside two 1 GiB
    /// fill-and-free loops; the same cause fits a 1106 ms first move at 1 s a move under
    /// GomocupJudge, where four processes started at once.
    pub fn new_touched_until(bytes: usize, deadline: Option<Instant>) -> TranspositionTable {
        let count = Self::new_size(bytes) / ENTRY_BYTES;
        let table = TranspositionTable {
            entries: zeroed_entries(count),
            mask: count - 1,
        };
        let touched = table.touch_pages(deadline);
        if touched < table.entries.len() {
            log::debug!(
                "table: {} of {} MiB touched before the deadline",
                (touched * ENTRY_BYTES) >> 20,
                table.bytes() >> 20
            );
        }
        table
    }

    /// Write every page of the table once, so that the operating system maps them all now
    /// and not one by one in the middle of a search. Measured on the 2-core development
    /// machine (Linux 6.18 guest, 256 MiB table, the position after `7,7 8,8 6,10 7,8 7,9`,
    /// 2 s a move): the first search of a process with two threads ran about 200k nodes a
    /// second per thread while its pages were being mapped (the faults of one process's
    /// threads wait on each other) and about 370k with the pages touched beforehand; one
    /// thread alone ran about 300k either way. Touching 256 MiB took 120-190 ms there, once
    /// per process.
    ///
    /// Stops at `deadline` (looked at every [`PAGES_PER_CLOCK_LOOK`] pages); returns how
    /// many entries lie in the pages touched from the start.
    fn touch_pages(&self, deadline: Option<Instant>) -> usize {
        let per_page = (PAGE_BYTES / ENTRY_BYTES).max(1);
        for (page, e) in self.entries.iter().step_by(per_page).enumerate() {
            if page % PAGES_PER_CLOCK_LOOK == 0 && deadline.is_some_and(|d| Instant::now() >= d) {
                return page * per_page;
            }
            // A write (a read would map the shared zero page and fault again on the first
            // store). Zero is the empty entry, so the table is unchanged.
            e.data.store(0, Ordering::Relaxed);
        }
        self.entries.len()
    }

    /// The size in bytes that `new(bytes)` would allocate.
    pub fn new_size(bytes: usize) -> usize {
        let wanted = (bytes.max(MIN_TABLE_BYTES) / ENTRY_BYTES).max(1);
        (1usize << (usize::BITS - 1 - wanted.leading_zeros())) * ENTRY_BYTES
    }

    /// Size in bytes.
    pub fn bytes(&self) -> usize {
        self.entries.len() * ENTRY_BYTES
    }

    /// Forget every entry, in place: the pages stay mapped.
    pub fn clear(&self) {
        for e in self.entries.iter() {
            e.data.store(0, Ordering::Relaxed);
            e.check.store(0, Ordering::Relaxed);
        }
    }

    #[inline]
    fn slot(&self, key: u64) -> &Entry {
        &self.entries[(key as usize) & self.mask]
    }

    /// Look a position up.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<TtHit> {
        let e = self.slot(key);
        let data = e.data.load(Ordering::Relaxed);
        let check = e.check.load(Ordering::Relaxed);
        if check ^ data != key || data == 0 {
            return None;
        }
        unpack(data)
    }

    /// Store a result (always replaces: the newest result is usually the most useful,
    /// except that a deeper result for the same key is kept).
    #[inline]
    pub fn store(&self, key: u64, best: Option<u16>, score: i32, depth: i32, bound: Bound) {
        let e = self.slot(key);
        let old = e.data.load(Ordering::Relaxed);
        if e.check.load(Ordering::Relaxed) ^ old == key {
            if let Some(prev) = unpack(old) {
                if prev.depth > depth && bound != Bound::Exact {
                    return;
                }
            }
        }
        let data = pack(best, score, depth, bound);
        e.data.store(data, Ordering::Relaxed);
        e.check.store(key ^ data, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A table made past its deadline touches no page and still works; without a
    /// deadline every page is touched.
    #[test]
    fn touching_stops_at_the_deadline_and_the_table_still_works() {
        let bytes = 8 * MIN_TABLE_BYTES;
        let late = TranspositionTable::new_touched_until(bytes, Some(Instant::now()));
        assert_eq!(late.touch_pages(Some(Instant::now())), 0);
        assert_eq!(late.touch_pages(None), late.entries.len());
        let tt = TranspositionTable::new_touched_until(bytes, Some(Instant::now()));
        for key in (0..5_000u64).map(|k| k.wrapping_mul(0x9E37_79B9_7F4A_7C15)) {
            tt.store(key, Some(3), 42, 5, Bound::Exact);
            assert_eq!(tt.probe(key).map(|h| h.score), Some(42));
        }
    }

    #[test]
    fn store_and_probe_round_trip() {
        let tt = TranspositionTable::new(MIN_TABLE_BYTES);
        assert_eq!(tt.bytes(), MIN_TABLE_BYTES);
        tt.store(0xDEAD_BEEF, Some(77), -12345, 9, Bound::Lower);
        let hit = tt.probe(0xDEAD_BEEF).unwrap();
        assert_eq!(hit.best, Some(77));
        assert_eq!(hit.score, -12345);
        assert_eq!(hit.depth, 9);
        assert_eq!(hit.bound, Bound::Lower);
        assert!(tt.probe(0xDEAD_BEEF ^ (1 << 40)).is_none());
    }

    #[test]
    fn deeper_entry_survives_shallower_bound() {
        let tt = TranspositionTable::new(MIN_TABLE_BYTES);
        tt.store(42, Some(1), 10, 8, Bound::Exact);
        tt.store(42, Some(2), 20, 3, Bound::Upper);
        assert_eq!(tt.probe(42).unwrap().depth, 8);
        tt.store(42, None, 30, 2, Bound::Exact);
        assert_eq!(tt.probe(42).unwrap().best, None);
    }

    #[test]
    fn size_rounds_down_to_power_of_two() {
        let tt = TranspositionTable::new(3 << 20);
        assert_eq!(tt.bytes(), 2 << 20);
        let tiny = TranspositionTable::new(1000);
        assert_eq!(tiny.bytes(), MIN_TABLE_BYTES);
    }
}
