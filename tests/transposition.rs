//! The transposition table: store and probe round trips, win scores, misses, clearing,
//! sizing, and lock-free use from several threads (a torn entry must read as a miss,
//! never as another key's data).

use rensa::board::CELL_SLOTS;
use rensa::search::score::{WIN, WIN_BOUND};
use rensa::search::tt::{Bound, TranspositionTable, TtHit, ENTRY_BYTES, MIN_TABLE_BYTES};
use std::sync::{Arc, Barrier};

const BOUNDS: [Bound; 3] = [Bound::Lower, Bound::Upper, Bound::Exact];

fn hit(best: Option<u16>, score: i32, depth: i32, bound: Bound) -> TtHit {
    TtHit {
        best,
        score,
        depth,
        bound,
    }
}

#[test]
fn store_then_probe_returns_what_was_stored() {
    let tt = TranspositionTable::new(MIN_TABLE_BYTES);
    let last_square = (CELL_SLOTS - 1) as u16;
    let cases = [
        (0x0123_4567_89AB_CDEF_u64, Some(0), 0, 0, Bound::Exact),
        (
            0xFEDC_BA98_7654_3210,
            Some(last_square),
            -1,
            1,
            Bound::Lower,
        ),
        (0x0000_0001_0000_0002, None, 12_345, 30, Bound::Upper),
        (
            0x8000_0000_0000_0003,
            Some(500),
            i32::MIN,
            127,
            Bound::Exact,
        ),
        (0x7FFF_FFFF_FFFF_0004, Some(7), i32::MAX, -128, Bound::Lower),
        (0x1111_2222_3333_0005, Some(224), -9_000, -3, Bound::Upper),
    ];
    for &(key, best, score, depth, bound) in &cases {
        tt.store(key, best, score, depth, bound);
    }
    for &(key, best, score, depth, bound) in &cases {
        assert_eq!(
            tt.probe(key),
            Some(hit(best, score, depth, bound)),
            "key {key:#x}"
        );
    }
}

#[test]
fn win_and_loss_scores_survive() {
    let tt = TranspositionTable::new(MIN_TABLE_BYTES);
    let scores = [
        WIN,
        WIN - 1,
        WIN - 3,
        WIN - 127,
        WIN_BOUND,
        -WIN,
        -(WIN - 2),
        -(WIN - 60),
        -WIN_BOUND,
        WIN + 1,
        -(WIN + 1),
    ];
    for (i, &score) in scores.iter().enumerate() {
        let key = 0xA5A5_0000_0000_0000 ^ ((i as u64) << 20) ^ i as u64;
        for bound in BOUNDS {
            tt.store(key, Some(i as u16), score, 9, bound);
            assert_eq!(
                tt.probe(key),
                Some(hit(Some(i as u16), score, 9, bound)),
                "score {score}, {bound:?}"
            );
        }
    }
}

#[test]
fn depth_saturates_at_the_stored_range() {
    let tt = TranspositionTable::new(MIN_TABLE_BYTES);
    tt.store(1, None, 5, 1_000, Bound::Exact);
    assert_eq!(tt.probe(1).unwrap().depth, 127);
    tt.store(2, None, 5, -1_000, Bound::Exact);
    assert_eq!(tt.probe(2).unwrap().depth, -128);
}

#[test]
fn a_different_key_misses() {
    let tt = TranspositionTable::new(MIN_TABLE_BYTES);
    let key = 0x5555_AAAA_1234_5678_u64;
    tt.store(key, Some(3), 42, 5, Bound::Exact);
    // Same slot (the low bits pick it), different key.
    for bit in [20, 32, 40, 63] {
        assert_eq!(tt.probe(key ^ (1 << bit)), None, "bit {bit}");
    }
    // Another slot altogether.
    assert_eq!(tt.probe(key ^ 1), None);
    assert_eq!(tt.probe(!key), None);
    // A key stored into the same slot replaces the old one: the old key then misses.
    let rival = key ^ (1 << 50);
    tt.store(rival, Some(4), -42, 1, Bound::Upper);
    assert_eq!(tt.probe(rival), Some(hit(Some(4), -42, 1, Bound::Upper)));
    assert_eq!(tt.probe(key), None);
}

#[test]
fn same_key_keeps_the_deeper_result_unless_exact() {
    let tt = TranspositionTable::new(MIN_TABLE_BYTES);
    tt.store(77, Some(1), 10, 8, Bound::Exact);
    tt.store(77, Some(2), 20, 3, Bound::Lower);
    assert_eq!(tt.probe(77), Some(hit(Some(1), 10, 8, Bound::Exact)));
    tt.store(77, Some(3), 30, 9, Bound::Upper);
    assert_eq!(tt.probe(77), Some(hit(Some(3), 30, 9, Bound::Upper)));
    tt.store(77, Some(4), 40, 2, Bound::Exact);
    assert_eq!(tt.probe(77), Some(hit(Some(4), 40, 2, Bound::Exact)));
}

#[test]
fn a_fresh_or_cleared_table_knows_nothing() {
    let fresh = TranspositionTable::new(MIN_TABLE_BYTES);
    // Key 0 matches the all-zero check word of an untouched entry: still a miss.
    for key in [0u64, 1, 0xFFFF, u64::MAX, 0xDEAD_BEEF_0000_0000] {
        assert_eq!(fresh.probe(key), None, "key {key:#x}");
    }
    let tt = TranspositionTable::new(2 * MIN_TABLE_BYTES);
    let keys: Vec<u64> = (0..10_000u64)
        .map(|i| i.wrapping_mul(0x9E37_79B9_7F4A_7C15))
        .collect();
    for (i, &k) in keys.iter().enumerate() {
        tt.store(k, Some((i % 225) as u16), i as i32, 4, Bound::Exact);
    }
    let found = keys.iter().filter(|&&k| tt.probe(k).is_some()).count();
    assert!(
        found > 9_000,
        "most entries are there before clearing: {found}"
    );
    tt.clear();
    assert_eq!(tt.bytes(), 2 * MIN_TABLE_BYTES, "clearing keeps the size");
    assert!(keys.iter().all(|&k| tt.probe(k).is_none()));
    // Key 0 too.
    tt.store(0, Some(9), 99, 3, Bound::Lower);
    assert_eq!(tt.probe(0), Some(hit(Some(9), 99, 3, Bound::Lower)));
}

#[test]
fn size_rounds_down_to_a_power_of_two_entries() {
    let mib = 1usize << 20;
    let cases = [
        (0, MIN_TABLE_BYTES),
        (1, MIN_TABLE_BYTES),
        (1_000, MIN_TABLE_BYTES),
        (MIN_TABLE_BYTES - 1, MIN_TABLE_BYTES),
        (MIN_TABLE_BYTES, MIN_TABLE_BYTES),
        (MIN_TABLE_BYTES + ENTRY_BYTES, MIN_TABLE_BYTES),
        (2 * mib - 1, mib),
        (2 * mib, 2 * mib),
        (3 * mib, 2 * mib),
        (5 * mib + 12_345, 4 * mib),
        (64 * mib, 64 * mib),
        (100 * mib, 64 * mib),
    ];
    for (asked, expected) in cases {
        assert_eq!(TranspositionTable::new_size(asked), expected, "{asked}");
    }
    for asked in [0, 3 * mib, 5 * mib + 1, 8 * mib] {
        let tt = TranspositionTable::new(asked);
        assert_eq!(tt.bytes(), TranspositionTable::new_size(asked), "{asked}");
        let entries = tt.bytes() / ENTRY_BYTES;
        assert!(entries.is_power_of_two());
        assert!(tt.bytes() <= asked.max(MIN_TABLE_BYTES));
        assert!(2 * tt.bytes() > asked.max(MIN_TABLE_BYTES));
    }
    // Very large requests are only sized, never allocated here.
    let huge = TranspositionTable::new_size(usize::MAX / 2);
    assert!((huge / ENTRY_BYTES).is_power_of_two());
    assert!(huge <= usize::MAX / 2 && huge > usize::MAX / 4);
}

/// SplitMix64, so that every run uses the same keys.
fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// What every thread stores for `key`: everything derived from the key, so data from any
/// other key (a torn or mixed-up entry) is recognised.
fn expected(key: u64) -> TtHit {
    let h = mix(key ^ 0x0F0F_0F0F_0F0F_0F0F);
    hit(
        Some((h % CELL_SLOTS as u64) as u16),
        (h >> 16) as u32 as i32,
        (((h >> 48) % 60) as i32) - 10,
        BOUNDS[((h >> 56) % 3) as usize],
    )
}

#[test]
fn concurrent_stores_and_probes_never_return_a_torn_entry() {
    const THREADS: usize = 4;
    const OPS: usize = 4_000_000;
    // Few slots, many keys per slot: stores race on the same entries all the time.
    const SLOTS: u64 = 4;
    let tt = Arc::new(TranspositionTable::new(MIN_TABLE_BYTES));
    let barrier = Arc::new(Barrier::new(THREADS));
    let key_for = |r: u64| (mix(r) & !0xFFFF) | (r % SLOTS);
    let handles: Vec<_> = (0..THREADS)
        .map(|t| {
            let tt = Arc::clone(&tt);
            let barrier = Arc::clone(&barrier);
            std::thread::spawn(move || {
                barrier.wait();
                let (mut hits, mut stores) = (0u64, 0u64);
                for i in 0..OPS {
                    let r = mix((t * OPS + i) as u64);
                    // A small key space shared by all threads, so probes find other
                    // threads' entries (and half-written ones).
                    let key = key_for(r % 64);
                    if r >> 63 == 0 {
                        let e = expected(key);
                        tt.store(key, e.best, e.score, e.depth, e.bound);
                        stores += 1;
                    } else if let Some(found) = tt.probe(key) {
                        assert_eq!(found, expected(key), "key {key:#x}: torn or foreign entry");
                        hits += 1;
                    }
                }
                (hits, stores)
            })
        })
        .collect();
    let mut total_hits = 0;
    for h in handles {
        let (hits, stores) = h.join().expect("no thread saw a bad entry");
        assert!(stores > 0);
        total_hits += hits;
    }
    assert!(total_hits > 1_000, "probes found entries: {total_hits}");
    // After the threads: every entry left is whole.
    for r in 0..64u64 {
        let key = key_for(r);
        if let Some(found) = tt.probe(key) {
            assert_eq!(found, expected(key));
        }
    }
}
