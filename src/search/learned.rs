//! The learned evaluation: every empty square scored by the *combination* of its four line
//! patterns, for both sides, from tables fitted to Rensa's own games.
//!
//! A square's four patterns (one per direction, [`Pattern`]), taken as an unordered set,
//! give its *code*: one of the 715 multisets of four patterns out of ten, or
//! [`FORBIDDEN`] for a square where Black may not play under renju. The evaluation for the
//! side to move is
//!
//! ```text
//! sum over empty squares s of mine[code(s, me)] - theirs[code(s, opponent)]
//!   + threat[class(my strongest combination, the opponent's)]
//!   + threat[mix(the kinds of combination I have somewhere, the opponent's)]
//! ```
//!
//! It is linear in the counts of codes, so the weights are fitted by a logistic regression
//! on self-play positions (`rensa-bench`'s `train`, see `bench/README.md`). The sums over
//! all empty squares are kept incrementally by the search board ([`LearnedState`]); the
//! renju fouls (which need an exact check) and the threat class are added by the node
//! analysis, which looks at every candidate square anyway.
//!
//! A small network over the same features ([`super::net`]) adds what the linear sum
//! misses; its kept sums live here too, beside the tables'.
//!
//! Weights come in files, one per rule family ([`WeightFamily`]), embedded in the binary
//! ([`embedded`]) or loaded from a path ([`LearnedWeights::from_bytes`]).

use super::board::Change;
use super::net::{Acc, NetWeights, HIDDEN};
use crate::board::{Board, Color, Pos, CELL_SLOTS};
use crate::pattern::{Pattern, PatternCache, PatternCounts, Threat};
use crate::rules::Rule;
use std::sync::OnceLock;

/// The number of square codes: 715 pattern combinations and [`FORBIDDEN`].
pub const CODES: usize = 716;
/// The code of a square forbidden to Black (renju).
pub const FORBIDDEN: u16 = 715;
/// The number of threat classes: the side to move's strongest [`Threat`] times the
/// opponent's (eight kinds each, [`threat_class`]), then the combinations of the threat
/// kinds each side has somewhere on the board ([`threat_mix_class`], 2048).
pub const THREAT_CLASSES: usize = THREAT_KIND_CLASSES + THREAT_MIXES;
/// The number of strongest-kind classes ([`threat_class`]): eight kinds for each side.
const THREAT_KIND_CLASSES: usize = 64;
/// The number of threat mixes: five bits for the side to move's kinds, six for the
/// opponent's (see [`threat_mix_class`]).
const THREAT_MIXES: usize = 1 << 11;
/// The code stored for an occupied square (worth nothing).
const OCCUPIED: u16 = CODES as u16;

/// The file's magic bytes.
pub const MAGIC: &[u8; 8] = b"RNSAEVAL";
/// The weight file format version this build reads and writes.
pub const FORMAT_VERSION: u16 = 1;
/// The feature set this build evaluates: 716 codes for each side, 64 threat classes plus
/// 2048 threat mixes, and 716 move-ordering scores for each side. (Set 1 had the 64
/// classes only.)
pub const FEATURE_SET: u8 = 2;

/// `BINOMIAL[k][n]` = C(n + k, k + 1): the terms of the combinatorial number system
/// that ranks sorted multisets (k = 0..3 for the four sorted patterns, n = 0..9).
const BINOMIAL: [[u16; 10]; 4] = {
    let mut t = [[0u16; 10]; 4];
    let mut k = 0;
    while k < 4 {
        let mut n = 0;
        while n < 10 {
            // C(n + k, k + 1) by the product formula, exact at each step (a factor of
            // zero gives zero when n + k < k + 1).
            let (top, r) = ((n + k) as u32, (k + 1) as u32);
            let mut c = 1u32;
            let mut i = 0;
            while i < r {
                c = if i < top { c * (top - i) / (i + 1) } else { 0 };
                i += 1;
            }
            t[k][n] = c as u16;
            n += 1;
        }
        k += 1;
    }
    t
};

/// The code of a square whose four line patterns are `p` (in any order): the rank of the
/// sorted multiset in the combinatorial number system, `C(a,1) + C(b+1,2) + C(c+2,3) +
/// C(d+3,4)` for `a <= b <= c <= d`, from 0 (four dead lines) to 714 (four fives).
/// A sorting network and a 40-entry table: no large table to miss in the cache on the
/// search's hottest path.
#[inline(always)]
pub fn code(p: &[Pattern; 4]) -> u16 {
    let [mut a, mut b, mut c, mut d] = p.map(|x| x as usize);
    let sort = |x: &mut usize, y: &mut usize| {
        let (lo, hi) = ((*x).min(*y), (*x).max(*y));
        *x = lo;
        *y = hi;
    };
    sort(&mut a, &mut b);
    sort(&mut c, &mut d);
    sort(&mut a, &mut c);
    sort(&mut b, &mut d);
    sort(&mut b, &mut c);
    BINOMIAL[0][a] + BINOMIAL[1][b] + BINOMIAL[2][c] + BINOMIAL[3][d]
}

/// `CODE_OF_TUPLE[p0 + 10 p1 + 100 p2 + 1000 p3]`: [`code`] of the four patterns in
/// direction order, so that a square's code follows from an index the search board
/// keeps up to date by adding the change of one direction's pattern (times its power of
/// ten) instead of sorting the four patterns again: 20 KB, built at compile time, checked
/// against [`code`] by a test.
static CODE_OF_TUPLE: [u16; 10_000] = {
    let mut t = [0u16; 10_000];
    let mut i = 0;
    while i < 10_000 {
        // The four digits, sorted by insertion.
        let mut d = [i % 10, i / 10 % 10, i / 100 % 10, i / 1000];
        let mut j = 1;
        while j < 4 {
            let mut k = j;
            while k > 0 && d[k - 1] > d[k] {
                let x = d[k];
                d[k] = d[k - 1];
                d[k - 1] = x;
                k -= 1;
            }
            j += 1;
        }
        t[i] = BINOMIAL[0][d[0]] + BINOMIAL[1][d[1]] + BINOMIAL[2][d[2]] + BINOMIAL[3][d[3]];
        i += 1;
    }
    t
};

/// `COUNTS_OF_CODE[code]`: the packed [`PatternCounts`] of a code's four patterns (zero
/// for [`FORBIDDEN`] and [`OCCUPIED`]), so that the node analysis reads a square's counts
/// with one lookup from the code the search board keeps: 5.7 KB, built at compile time,
/// checked against [`PatternCounts::of`] by a test.
static COUNTS_OF_CODE: [u64; CODES + 1] = {
    let mut t = [0u64; CODES + 1];
    let mut i = 0;
    while i < 10_000 {
        let digits = [i % 10, i / 10 % 10, i / 100 % 10, i / 1000];
        t[CODE_OF_TUPLE[i] as usize] = PatternCounts::packed(digits);
        i += 1;
    }
    t
};

/// The powers of ten that weigh each direction's pattern in a tuple index.
const DIRECTION_WEIGHT: [i32; 4] = [1, 10, 100, 1000];

/// The tuple index of four patterns in direction order (see [`CODE_OF_TUPLE`]).
#[inline(always)]
fn tuple_index(p: &[Pattern; 4]) -> u16 {
    (p[0] as u16) + 10 * (p[1] as u16) + 100 * (p[2] as u16) + 1000 * (p[3] as u16)
}

/// The threat class of a position: the side to move's strongest combination on one square
/// and the opponent's.
#[inline]
pub fn threat_class(mine: Threat, theirs: Threat) -> usize {
    mine as usize * 8 + theirs as usize
}

/// The bit of one [`Threat`] kind in a side's threat presence mask: bit `t` is set when
/// some square gives that side the combination `t` (bit 0, [`Threat::None`], for a square
/// that gives nothing).
#[inline]
pub fn threat_bit(t: Threat) -> u8 {
    1 << t as u8
}

/// The threat mix of a position, from each side's presence mask ([`threat_bit`]): which
/// of the kinds from a minor threat to a four-three the side to move has somewhere (five
/// bits; its open fours and fives end the search before any evaluation), and which the
/// opponent has, its open fours and fives in one sixth bit. Where the strongest kinds
/// ([`threat_class`]) tell one threat, the mix tells combinations spread over squares: a
/// four here and an open three there is a VCF's material. (Rapfi's classical evaluation
/// indexes its threat table by a similar 11-bit mask, `../shared/strength-notes.md` §1.)
#[inline]
pub fn threat_mix_class(mine: u8, theirs: u8) -> usize {
    let low = |m: u8| usize::from((m >> 1) & 0x1F);
    let their_win = threat_bit(Threat::OpenFour) | threat_bit(Threat::Five);
    let theirs6 = low(theirs) | usize::from(theirs & their_win != 0) << 5;
    THREAT_KIND_CLASSES + (low(mine) | theirs6 << 5)
}

/// The rule families that have their own weights.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum WeightFamily {
    /// Five or more wins: freestyle (any size) and caro.
    Freestyle = 0,
    /// Exactly five: standard and caro with exact five.
    Standard = 1,
    /// Renju.
    Renju = 2,
}

impl WeightFamily {
    /// Every family, in file-code order.
    pub const ALL: [WeightFamily; 3] = [
        WeightFamily::Freestyle,
        WeightFamily::Standard,
        WeightFamily::Renju,
    ];

    /// The family whose weights a rule plays with. Caro shares freestyle's (five or more
    /// wins there too) and exact caro standard's.
    pub fn of(rule: Rule) -> WeightFamily {
        match rule {
            Rule::Freestyle | Rule::Caro => WeightFamily::Freestyle,
            Rule::Standard | Rule::CaroExact => WeightFamily::Standard,
            Rule::Renju => WeightFamily::Renju,
        }
    }

    /// The family's name (also its weight file's stem).
    pub fn name(self) -> &'static str {
        match self {
            WeightFamily::Freestyle => "freestyle",
            WeightFamily::Standard => "standard",
            WeightFamily::Renju => "renju",
        }
    }
}

/// One family's weights, in evaluation points.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LearnedWeights {
    /// The rule family they were fitted for.
    pub family: WeightFamily,
    /// A hash of the training data (recorded, not checked).
    pub data_hash: u64,
    /// Worth of a square's code to the side to move.
    pub mine: Vec<i32>,
    /// Worth of a square's code to the opponent (subtracted).
    pub theirs: Vec<i32>,
    /// Worth of the position's threat class.
    pub threat: Vec<i32>,
    /// Move ordering: how promising a move is by the code it has for the side to move (in
    /// [`MOVE_SCORE_UNITS`] a logit of the move-choice model)…
    pub move_mine: Vec<i32>,
    /// … plus by the code it has for the opponent (a block).
    pub move_theirs: Vec<i32>,
    /// The network added to the tables' evaluation, when a `<family>.rnn` file came with
    /// them ([`super::net`]).
    pub net: Option<Box<NetWeights>>,
}

pub(crate) fn fnv1a64(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

/// The move scores' unit in a weight file ([`LearnedWeights::move_mine`] and
/// [`LearnedWeights::move_theirs`]): thousandths of a logit of the move-choice model.
pub const MOVE_SCORE_UNITS: i32 = 1_000;

/// The kind of a weight file (the tables' or a network's): its magic bytes, the format
/// version this build reads, and its name in messages.
pub(crate) struct FileKind {
    pub magic: &'static [u8; 8],
    pub version: u16,
    pub noun: &'static str,
}

/// Check a file's magic, format version (bytes 8-9) and rule family (byte 10) against
/// `kind` and `expected`; `header` is the length of the kind's whole header.
pub(crate) fn read_family(
    bytes: &[u8],
    header: usize,
    kind: &FileKind,
    expected: Option<WeightFamily>,
) -> Result<WeightFamily, String> {
    let noun = kind.noun;
    if bytes.len() < header || &bytes[..8] != kind.magic {
        return Err(format!("not a Rensa {noun} file (bad magic)"));
    }
    let version = u16::from_le_bytes([bytes[8], bytes[9]]);
    if version != kind.version {
        return Err(format!(
            "{noun} format version {version}; this build reads {}",
            kind.version
        ));
    }
    let family = *WeightFamily::ALL
        .get(usize::from(bytes[10]))
        .ok_or_else(|| format!("unknown rule family {}", bytes[10]))?;
    if let Some(want) = expected.filter(|&w| w != family) {
        return Err(format!(
            "{noun} file for {}, but {} was asked for",
            family.name(),
            want.name()
        ));
    }
    Ok(family)
}

/// The `n` little-endian `i32` values after a file's `header`, once its length and its
/// closing FNV-1a check are right.
pub(crate) fn read_values(
    bytes: &[u8],
    header: usize,
    n: usize,
    noun: &str,
) -> Result<Vec<i32>, String> {
    let end = header + 4 * n;
    if bytes.len() != end + 8 {
        return Err(format!(
            "{} bytes; a {noun} file of this format has {}",
            bytes.len(),
            end + 8
        ));
    }
    let check = u64::from_le_bytes(bytes[end..].try_into().expect("8 bytes"));
    if fnv1a64(&bytes[..end]) != check {
        return Err(format!("the {noun} file is damaged (checksum mismatch)"));
    }
    Ok(bytes[header..end]
        .chunks_exact(4)
        .map(|c| i32::from_le_bytes(c.try_into().expect("4 bytes")))
        .collect())
}

impl LearnedWeights {
    /// All weights zero (the evaluation of a model that knows nothing).
    pub fn zero(family: WeightFamily) -> LearnedWeights {
        LearnedWeights {
            family,
            data_hash: 0,
            mine: vec![0; CODES],
            theirs: vec![0; CODES],
            threat: vec![0; THREAT_CLASSES],
            move_mine: vec![0; CODES],
            move_theirs: vec![0; CODES],
            net: None,
        }
    }

    /// The file's bytes:
    ///
    /// ```text
    /// "RNSAEVAL"  u16 format version  u8 family (0 freestyle, 1 standard, 2 renju)
    /// u8 feature set  u64 data hash  u16 codes (716)  u16 threat classes (64 + 2048)
    /// i32 x codes (mine)  i32 x codes (theirs)  i32 x classes
    /// i32 x codes (move score, mine)  i32 x codes (move score, theirs)
    /// u64 FNV-1a of all before
    /// ```
    ///
    /// All integers little-endian.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = MAGIC.to_vec();
        out.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
        out.push(self.family as u8);
        out.push(FEATURE_SET);
        out.extend_from_slice(&self.data_hash.to_le_bytes());
        out.extend_from_slice(&(CODES as u16).to_le_bytes());
        out.extend_from_slice(&(THREAT_CLASSES as u16).to_le_bytes());
        for w in self
            .mine
            .iter()
            .chain(&self.theirs)
            .chain(&self.threat)
            .chain(&self.move_mine)
            .chain(&self.move_theirs)
        {
            out.extend_from_slice(&w.to_le_bytes());
        }
        let check = fnv1a64(&out);
        out.extend_from_slice(&check.to_le_bytes());
        out
    }

    /// Read a weight file; a file of another format, feature set or family than
    /// `expected` (when given) is refused with the reason.
    pub fn from_bytes(
        bytes: &[u8],
        expected: Option<WeightFamily>,
    ) -> Result<LearnedWeights, String> {
        let header = 8 + 2 + 1 + 1 + 8 + 2 + 2;
        let kind = FileKind {
            magic: MAGIC,
            version: FORMAT_VERSION,
            noun: "weight",
        };
        let family = read_family(bytes, header, &kind, expected)?;
        if bytes[11] != FEATURE_SET {
            return Err(format!(
                "feature set {}; this build evaluates feature set {FEATURE_SET}",
                bytes[11]
            ));
        }
        let data_hash = u64::from_le_bytes(bytes[12..20].try_into().expect("8 bytes"));
        let codes = usize::from(u16::from_le_bytes([bytes[20], bytes[21]]));
        let classes = usize::from(u16::from_le_bytes([bytes[22], bytes[23]]));
        if codes != CODES || classes != THREAT_CLASSES {
            return Err(format!(
                "{codes} codes and {classes} threat classes; this build has {CODES} and {THREAT_CLASSES}"
            ));
        }
        let values = read_values(bytes, header, 4 * CODES + THREAT_CLASSES, kind.noun)?;
        Ok(LearnedWeights {
            family,
            data_hash,
            mine: values[..CODES].to_vec(),
            theirs: values[CODES..2 * CODES].to_vec(),
            threat: values[2 * CODES..2 * CODES + THREAT_CLASSES].to_vec(),
            move_mine: values[2 * CODES + THREAT_CLASSES..3 * CODES + THREAT_CLASSES].to_vec(),
            move_theirs: values[3 * CODES + THREAT_CLASSES..].to_vec(),
            net: None,
        })
    }
}

/// A full set of weights: one per rule family.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WeightSet {
    families: [LearnedWeights; 3],
}

impl WeightSet {
    /// A set from one weight file per family (in [`WeightFamily::ALL`] order).
    pub fn new(families: [LearnedWeights; 3]) -> Result<WeightSet, String> {
        for (f, w) in WeightFamily::ALL.iter().zip(&families) {
            if w.family != *f {
                return Err(format!(
                    "expected {} weights, got {}",
                    f.name(),
                    w.family.name()
                ));
            }
        }
        Ok(WeightSet { families })
    }

    /// The weights a rule plays with.
    pub fn for_rule(&self, rule: Rule) -> &LearnedWeights {
        &self.families[WeightFamily::of(rule) as usize]
    }

    /// The set in the folder `path` (`INFO weights`, `--weights`): relative paths are
    /// taken from the executable's folder, since managers start engines from anywhere.
    /// Kept for the rest of the process, once per distinct set: a manager may send the
    /// same `INFO weights` before every game (`rensa-match` does), and each new copy with
    /// its networks is about 0.7 MB (a 481-game match that leaked one per game reached
    /// 460 MiB against 292).
    pub fn load(path: &str) -> Result<&'static WeightSet, String> {
        let path = std::path::Path::new(path);
        let folder = if path.is_absolute() {
            path.to_path_buf()
        } else {
            let exe = std::env::current_exe().map_err(|e| format!("no executable path: {e}"))?;
            exe.parent().unwrap_or(std::path::Path::new(".")).join(path)
        };
        let set = WeightSet::from_folder(&folder)?;
        Ok(Self::keep(set))
    }

    /// `set` for the rest of the process: the copy kept before if an equal set was kept.
    fn keep(set: WeightSet) -> &'static WeightSet {
        static KEPT: std::sync::Mutex<Vec<&'static WeightSet>> = std::sync::Mutex::new(Vec::new());
        let mut kept = KEPT.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(&same) = kept.iter().find(|&&k| *k == set) {
            return same;
        }
        let set: &'static WeightSet = Box::leak(Box::new(set));
        kept.push(set);
        set
    }

    /// The same tables without their networks (a leaked copy, made once per set: the
    /// evaluator `tables`).
    pub fn without_nets(&'static self) -> &'static WeightSet {
        if self.families.iter().all(|w| w.net.is_none()) {
            return self;
        }
        static STRIPPED: std::sync::Mutex<Vec<(usize, &'static WeightSet)>> =
            std::sync::Mutex::new(Vec::new());
        let key = self as *const WeightSet as usize;
        let mut made = STRIPPED.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(&(_, set)) = made.iter().find(|(k, _)| *k == key) {
            return set;
        }
        let mut copy = self.clone();
        for w in &mut copy.families {
            w.net = None;
        }
        let set: &'static WeightSet = Box::leak(Box::new(copy));
        made.push((key, set));
        set
    }

    /// A set read from a folder holding `freestyle.rnw`, `standard.rnw` and `renju.rnw`,
    /// each with its network `<family>.rnn` where the folder has one.
    pub fn from_folder(folder: &std::path::Path) -> Result<WeightSet, String> {
        let read = |f: WeightFamily| {
            let path = folder.join(format!("{}.rnw", f.name()));
            let bytes = std::fs::read(&path).map_err(|e| format!("{}: {e}", path.display()))?;
            let mut w = LearnedWeights::from_bytes(&bytes, Some(f))
                .map_err(|e| format!("{}: {e}", path.display()))?;
            // A network beside the tables is optional; a damaged or mismatched one is an
            // error, not silently skipped.
            let net_path = folder.join(format!("{}.rnn", f.name()));
            if net_path.exists() {
                let bytes =
                    std::fs::read(&net_path).map_err(|e| format!("{}: {e}", net_path.display()))?;
                let net = NetWeights::from_bytes(&bytes, Some(f))
                    .map_err(|e| format!("{}: {e}", net_path.display()))?;
                w.net = Some(Box::new(net));
            }
            Ok::<LearnedWeights, String>(w)
        };
        WeightSet::new([
            read(WeightFamily::Freestyle)?,
            read(WeightFamily::Standard)?,
            read(WeightFamily::Renju)?,
        ])
    }
}

/// The weights built into the binary (`src/search/weights/*.rnw`, made by `train`, and
/// their networks `*.rnn`, made by `train --net`).
pub fn embedded() -> &'static WeightSet {
    static SET: OnceLock<WeightSet> = OnceLock::new();
    SET.get_or_init(|| {
        let parse = |tables: &[u8], net: &[u8], f| {
            let mut w = LearnedWeights::from_bytes(tables, Some(f))
                .unwrap_or_else(|e| panic!("embedded {} weights: {e}", f.name()));
            let net = NetWeights::from_bytes(net, Some(f))
                .unwrap_or_else(|e| panic!("embedded {} network: {e}", f.name()));
            w.net = Some(Box::new(net));
            w
        };
        WeightSet::new([
            parse(
                include_bytes!("weights/freestyle.rnw"),
                include_bytes!("weights/freestyle.rnn"),
                WeightFamily::Freestyle,
            ),
            parse(
                include_bytes!("weights/standard.rnw"),
                include_bytes!("weights/standard.rnn"),
                WeightFamily::Standard,
            ),
            parse(
                include_bytes!("weights/renju.rnw"),
                include_bytes!("weights/renju.rnn"),
                WeightFamily::Renju,
            ),
        ])
        .expect("the embedded files are in family order")
    })
}

/// What a change at a square alters in a [`LearnedState`] besides the noted pattern
/// changes: the square's own codes and tuple indices, and the sums.
#[derive(Clone, Copy, Debug)]
pub struct LearnedSnapshot {
    sums: [[i32; 2]; 2],
    codes: [u16; 2],
    tuples: [u16; 2],
}

/// The network's part of the learned state: for each colour, the sums of its squares'
/// input rows as the side to move's (`[0]`) and as the opponent's (`[1]`), and the sums as
/// they were before each noted place (taken back by [`LearnedState::restore`]).
#[derive(Clone)]
struct NetState {
    weights: &'static NetWeights,
    /// `rows[code]`: the code's rows for the side to move and for the opponent; the
    /// occupied square's are zero.
    rows: Box<[[Acc; 2]]>,
    sums: [[Acc; 2]; 2],
    noted: Vec<[[Acc; 2]; 2]>,
}

impl NetState {
    fn new(weights: &'static NetWeights) -> NetState {
        let mut rows: Vec<[Acc; 2]> = (0..CODES)
            .map(|c| [weights.input[c], weights.input[CODES + c]])
            .collect();
        rows.push([[0; HIDDEN]; 2]);
        NetState {
            weights,
            rows: rows.into_boxed_slice(),
            sums: [[[0; HIDDEN]; 2]; 2],
            noted: Vec::new(),
        }
    }

    #[inline(always)]
    fn change(&mut self, c: usize, old: u16, new: u16) {
        let (o, n) = (&self.rows[usize::from(old)], &self.rows[usize::from(new)]);
        for k in 0..2 {
            for j in 0..HIDDEN {
                self.sums[c][k][j] += n[k][j] - o[k][j];
            }
        }
    }
}

/// The learned evaluation's incremental state on a search board: every square's code for
/// both colours and the sums of their worth over the empty squares.
#[derive(Clone)]
pub struct LearnedState {
    weights: &'static LearnedWeights,
    /// The network's kept sums, when the weights have a network.
    net: Option<Box<NetState>>,
    /// `(mine, theirs)` worth per code, with a last entry of zeros for [`OCCUPIED`]: one
    /// load a code, no branch for occupied squares.
    packed: Box<[[i32; 2]]>,
    /// `codes[square][colour]`, [`OCCUPIED`] for a stone or a blocked square.
    codes: Box<[[u16; 2]]>,
    /// `tuples[square][colour]`: the tuple index of an empty square's four patterns (see
    /// [`CODE_OF_TUPLE`]); stale while the square is occupied.
    tuples: Box<[[u16; 2]]>,
    /// `sums[colour]`: the sums of `mine[code]` and `theirs[code]` over the empty squares.
    sums: [[i32; 2]; 2],
    /// The node analysis orders moves by the weights' move scores too.
    order_moves: bool,
}

impl LearnedState {
    /// The state of `board` from scratch (its patterns in `cache`).
    pub fn new(board: &Board, cache: &PatternCache, weights: &'static LearnedWeights) -> Self {
        let mut packed: Vec<[i32; 2]> = weights
            .mine
            .iter()
            .zip(&weights.theirs)
            .map(|(&m, &t)| [m, t])
            .collect();
        packed.push([0, 0]);
        debug_assert_eq!(packed.len(), usize::from(OCCUPIED) + 1);
        let mut state = LearnedState {
            weights,
            packed: packed.into_boxed_slice(),
            codes: vec![[OCCUPIED; 2]; CELL_SLOTS].into_boxed_slice(),
            tuples: vec![[0; 2]; CELL_SLOTS].into_boxed_slice(),
            sums: [[0; 2]; 2],
            order_moves: false,
            net: weights.net.as_deref().map(|n| Box::new(NetState::new(n))),
        };
        for pos in board.positions() {
            state.refresh_square(board, cache, pos);
        }
        state
    }

    /// The weights.
    #[inline]
    pub fn weights(&self) -> &'static LearnedWeights {
        self.weights
    }

    /// Order moves by the weights' move scores as well ([`super::MoveOrdering::Learned`]).
    pub fn set_order_moves(&mut self, on: bool) {
        self.order_moves = on;
    }

    /// Does the node analysis order moves by the weights' move scores?
    #[inline]
    pub fn orders_moves(&self) -> bool {
        self.order_moves
    }

    /// Bring one square's codes and the sums up to date from its kept patterns.
    #[inline(always)]
    fn refresh_square(&mut self, board: &Board, cache: &PatternCache, pos: Pos) {
        let q = pos.index();
        for color in Color::BOTH {
            let c = color.index();
            let new = if board.is_empty(pos) {
                let tuple = tuple_index(&cache.patterns(pos, color));
                self.tuples[q][c] = tuple;
                CODE_OF_TUPLE[usize::from(tuple)]
            } else {
                OCCUPIED
            };
            self.set_code(q, c, new);
        }
    }

    /// Give square `q` the code `new` for colour index `c`, moving the sums by the change
    /// of worth.
    #[inline(always)]
    fn set_code(&mut self, q: usize, c: usize, new: u16) {
        let old = self.codes[q][c];
        if old != new {
            let (o, n) = (self.packed[usize::from(old)], self.packed[usize::from(new)]);
            self.sums[c][0] += n[0] - o[0];
            self.sums[c][1] += n[1] - o[1];
            self.codes[q][c] = new;
            if let Some(net) = &mut self.net {
                net.change(c, old, new);
            }
        }
    }

    /// After a change at `pos`: refresh the cache's patterns around it and, with them,
    /// the codes of the squares they changed (each by its tuple index moved by the one
    /// pattern that changed) and of `pos` itself.
    #[inline(always)]
    pub fn refresh_around(&mut self, board: &Board, cache: &mut PatternCache, pos: Pos) {
        // The search board drops its notes of earlier places on this path: so do we.
        if let Some(net) = &mut self.net {
            net.noted.clear();
        }
        cache.refresh_around_noting(board, pos, |q, c, dir, old, new| {
            let tuple = &mut self.tuples[q][c];
            *tuple = (i32::from(*tuple) + (new as i32 - old as i32) * DIRECTION_WEIGHT[dir]) as u16;
            let code = CODE_OF_TUPLE[usize::from(*tuple)];
            self.set_code(q, c, code);
        });
        self.refresh_square(board, cache, pos);
    }

    /// [`LearnedState::refresh_around`], noting every pattern change with the square's
    /// tuple index and code before it in `changes`; returns what else the change at
    /// `pos` alters (its own codes and tuples, the sums), for [`LearnedState::restore`].
    #[inline(always)]
    pub fn refresh_around_noting(
        &mut self,
        board: &Board,
        cache: &mut PatternCache,
        pos: Pos,
        changes: &mut Vec<Change>,
    ) -> LearnedSnapshot {
        let q = pos.index();
        let snapshot = LearnedSnapshot {
            sums: self.sums,
            codes: self.codes[q],
            tuples: self.tuples[q],
        };
        if let Some(net) = &mut self.net {
            net.noted.push(net.sums);
        }
        cache.refresh_around_noting(board, pos, |q, c, dir, old, new| {
            let tuple = &mut self.tuples[q][c];
            changes.push(Change {
                old_tuple: *tuple,
                old_code: self.codes[q][c],
                ..Change::pattern(q, c, dir, old)
            });
            *tuple = (i32::from(*tuple) + (new as i32 - old as i32) * DIRECTION_WEIGHT[dir]) as u16;
            let code = CODE_OF_TUPLE[usize::from(*tuple)];
            self.set_code(q, c, code);
        });
        self.refresh_square(board, cache, pos);
        snapshot
    }

    /// Undo a [`LearnedState::refresh_around_noting`] at `pos` from its notes (newest
    /// last) and snapshot: the board must be as it was before that change.
    #[inline(always)]
    pub fn restore(&mut self, changes: &[Change], pos: Pos, snapshot: LearnedSnapshot) {
        for ch in changes.iter().rev() {
            let (q, c) = (usize::from(ch.square), usize::from(ch.color));
            self.tuples[q][c] = ch.old_tuple;
            self.codes[q][c] = ch.old_code;
        }
        let q = pos.index();
        self.codes[q] = snapshot.codes;
        self.tuples[q] = snapshot.tuples;
        self.sums = snapshot.sums;
        if let Some(net) = &mut self.net {
            net.sums = net.noted.pop().expect("a noted place to take back");
        }
    }

    /// The code of `pos` for `color` (716, past every real code, when occupied).
    #[inline(always)]
    pub fn code(&self, pos: Pos, color: Color) -> u16 {
        self.codes[pos.index()][color.index()]
    }

    /// The counts of the empty square `pos`'s patterns for `color`, from its code: equal
    /// to [`PatternCounts::of`] its kept patterns, with one lookup.
    #[inline(always)]
    pub fn counts(&self, pos: Pos, color: Color) -> PatternCounts {
        PatternCounts::unpack(COUNTS_OF_CODE[usize::from(self.code(pos, color))])
    }

    /// The network's points for `me` to move (zero without a network): the kept sums, the
    /// rows of the threat class and mix, and for each square forbidden to Black (`fouls`)
    /// its rows moved from its kept code to [`FORBIDDEN`].
    #[inline]
    pub fn net_points(&self, me: Color, fouls: &[Pos], class: usize, mix: usize) -> i32 {
        let Some(net) = &self.net else {
            return 0;
        };
        let (m, o) = (me.index(), me.opponent().index());
        let mut acc: Acc = [0; HIDDEN];
        let (t1, t2) = (
            &net.weights.input[2 * CODES + class],
            &net.weights.input[2 * CODES + mix],
        );
        for j in 0..HIDDEN {
            acc[j] = net.sums[m][0][j] + net.sums[o][1][j] + t1[j] + t2[j];
        }
        // Black's rows: as the side to move's when Black moves, else the opponent's.
        let k = usize::from(me != Color::Black);
        for &pos in fouls {
            let c = usize::from(self.code(pos, Color::Black));
            let (from, to) = (&net.rows[c][k], &net.rows[usize::from(FORBIDDEN)][k]);
            for j in 0..HIDDEN {
                acc[j] += to[j] - from[j];
            }
        }
        net.weights.output(&acc)
    }

    /// The sum over the empty squares, for `me` to move: my codes' worth minus the
    /// opponent's, before the fouls and the threat class.
    #[inline]
    pub fn square_sum(&self, me: Color) -> i32 {
        self.sums[me.index()][0] - self.sums[me.opponent().index()][1]
    }

    /// The state compared with a from-scratch one: the differing squares and sums, for
    /// tests.
    pub fn differences(&self, board: &Board, cache: &PatternCache) -> Vec<String> {
        let fresh = LearnedState::new(board, cache, self.weights);
        let mut out = Vec::new();
        for pos in board.positions() {
            if self.codes[pos.index()] != fresh.codes[pos.index()] {
                out.push(format!(
                    "{pos}: kept {:?}, fresh {:?}",
                    self.codes[pos.index()],
                    fresh.codes[pos.index()]
                ));
            }
        }
        if let (Some(kept), Some(fresh)) = (&self.net, &fresh.net) {
            if kept.sums != fresh.sums {
                out.push(format!(
                    "network sums: kept {:?}, fresh {:?}",
                    kept.sums, fresh.sums
                ));
            }
        }
        if self.sums != fresh.sums {
            out.push(format!(
                "sums: kept {:?}, fresh {:?}",
                self.sums, fresh.sums
            ));
        }
        out
    }
}

/// The learned evaluation's features of one position, for training: how often each code
/// occurs for the side to move and for the opponent (fouls already coded [`FORBIDDEN`]),
/// and the threat class. The evaluation is `sum(mine[c] * n) - sum(theirs[c] * n) +
/// threat[class]` over these.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LearnedFeatures {
    /// (code, count) for the side to move, each code once.
    pub mine: Vec<(u16, u16)>,
    /// (code, count) for the opponent.
    pub theirs: Vec<(u16, u16)>,
    /// The threat class.
    pub threat_class: u16,
    /// The threat mix's class (an index into the same table, see [`threat_mix_class`]).
    pub threat_mix: u16,
}

impl LearnedFeatures {
    /// The evaluation these features give under `w` (before clamping).
    pub fn evaluate(&self, w: &LearnedWeights) -> i64 {
        let side = |counts: &[(u16, u16)], table: &[i32]| -> i64 {
            counts
                .iter()
                .map(|&(c, n)| i64::from(table[usize::from(c)]) * i64::from(n))
                .sum()
        };
        side(&self.mine, &w.mine) - side(&self.theirs, &w.theirs)
            + i64::from(w.threat[usize::from(self.threat_class)])
            + i64::from(w.threat[usize::from(self.threat_mix)])
            + w.net.as_ref().map_or(0, |n| i64::from(n.evaluate(self)))
    }
}

/// Count codes from scratch: every empty square of `board` for both colours, with the
/// squares in `fouls` (forbidden to Black) coded [`FORBIDDEN`] for Black, and the threat
/// class and mix of `threats` (the node analysis' strongest kinds and masks).
pub fn count_codes(
    board: &Board,
    cache: &PatternCache,
    me: Color,
    fouls: &[Pos],
    threats: &super::eval::EvalFeatures,
) -> LearnedFeatures {
    let mut mine = vec![0u16; CODES];
    let mut theirs = vec![0u16; CODES];
    for pos in board.empty_positions() {
        for (color, counts) in [(me, &mut mine), (me.opponent(), &mut theirs)] {
            let c = if color == Color::Black && fouls.contains(&pos) {
                FORBIDDEN
            } else {
                code(&cache.patterns(pos, color))
            };
            counts[usize::from(c)] += 1;
        }
    }
    let sparse = |v: Vec<u16>| {
        v.into_iter()
            .enumerate()
            .filter(|&(_, n)| n > 0)
            .map(|(c, n)| (c as u16, n))
            .collect()
    };
    LearnedFeatures {
        mine: sparse(mine),
        theirs: sparse(theirs),
        threat_class: threat_class(threats.my_best, threats.their_best) as u16,
        threat_mix: threat_mix_class(threats.my_threats, threats.their_threats) as u16,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_number_the_pattern_multisets() {
        use Pattern::*;
        let all = [Dead, B1, F1, B2, F2, B3, F3, B4, F4, F5];
        let mut seen = std::collections::HashSet::new();
        for a in all {
            for b in all {
                for c in all {
                    for d in all {
                        let k = code(&[a, b, c, d]);
                        assert!(k < FORBIDDEN);
                        // Any order of the same four gives the same code.
                        assert_eq!(k, code(&[d, c, b, a]));
                        assert_eq!(k, code(&[b, d, a, c]));
                        // The compile-time table of the tuple index agrees.
                        let tuple = tuple_index(&[a, b, c, d]);
                        assert_eq!(CODE_OF_TUPLE[usize::from(tuple)], k);
                        // And the code's counts are the four patterns'.
                        assert_eq!(
                            PatternCounts::unpack(COUNTS_OF_CODE[usize::from(k)]),
                            PatternCounts::of(&[a, b, c, d])
                        );
                        seen.insert(k);
                    }
                }
            }
        }
        assert_eq!(seen.len(), FORBIDDEN as usize, "every code is reached");
        assert_eq!(COUNTS_OF_CODE[usize::from(FORBIDDEN)], 0);
        assert_eq!(COUNTS_OF_CODE[usize::from(OCCUPIED)], 0);
        assert_eq!(code(&[Dead; 4]), 0);
        assert_eq!(code(&[F5; 4]), FORBIDDEN - 1);
        assert_ne!(code(&[F3, F3, Dead, Dead]), code(&[F3, B3, Dead, Dead]));
    }

    #[test]
    fn weight_files_round_trip_and_bad_ones_are_refused() {
        let mut w = LearnedWeights::zero(WeightFamily::Renju);
        w.data_hash = 0x1234;
        w.mine[5] = -7;
        w.theirs[FORBIDDEN as usize] = 300;
        w.threat[63] = 1_000_000;
        w.move_mine[0] = 3;
        w.move_theirs[CODES - 1] = -4;
        let bytes = w.to_bytes();
        assert_eq!(LearnedWeights::from_bytes(&bytes, None), Ok(w.clone()));
        assert_eq!(
            LearnedWeights::from_bytes(&bytes, Some(WeightFamily::Renju)),
            Ok(w)
        );
        let wrong = LearnedWeights::from_bytes(&bytes, Some(WeightFamily::Freestyle));
        assert!(wrong.unwrap_err().contains("renju"));
        let mut damaged = bytes.clone();
        damaged[40] ^= 4;
        assert!(LearnedWeights::from_bytes(&damaged, None)
            .unwrap_err()
            .contains("checksum"));
        let mut version = bytes.clone();
        version[8] = 9;
        assert!(LearnedWeights::from_bytes(&version, None)
            .unwrap_err()
            .contains("version 9"));
        let mut features = bytes.clone();
        features[11] = 1;
        assert!(LearnedWeights::from_bytes(&features, None)
            .unwrap_err()
            .contains("feature set 1"));
        assert!(LearnedWeights::from_bytes(&bytes[..100], None).is_err());
        assert!(LearnedWeights::from_bytes(b"hello", None).is_err());
    }

    #[test]
    fn the_embedded_weights_load() {
        let set = embedded();
        for rule in Rule::ALL {
            assert_eq!(set.for_rule(rule).family, WeightFamily::of(rule));
            let net = set.for_rule(rule).net.as_ref().expect("a network");
            assert_eq!(net.family, WeightFamily::of(rule));
            // The tables alone are one evaluator name away, with the same tables.
            let tables = set.without_nets().for_rule(rule);
            assert!(tables.net.is_none());
            assert_eq!(tables.mine, set.for_rule(rule).mine);
        }
        assert!(std::ptr::eq(
            set.without_nets(),
            set.without_nets().without_nets()
        ));
    }

    #[test]
    fn a_folder_loaded_again_is_kept_once() {
        let folder = std::env::temp_dir().join(format!("rensa-weights-{}", std::process::id()));
        std::fs::create_dir_all(&folder).unwrap();
        let src = concat!(env!("CARGO_MANIFEST_DIR"), "/src/search/weights");
        for f in WeightFamily::ALL {
            for ext in ["rnw", "rnn"] {
                let name = format!("{}.{ext}", f.name());
                std::fs::copy(format!("{src}/{name}"), folder.join(&name)).unwrap();
            }
        }
        let path = folder.to_str().unwrap();
        let first = WeightSet::load(path).unwrap();
        let again = WeightSet::load(path).unwrap();
        assert!(std::ptr::eq(first, again), "the same set is not kept twice");
        // A changed file is a new set.
        let mut w = first.for_rule(Rule::Freestyle).clone();
        w.net = None;
        w.mine[3] += 1;
        std::fs::write(folder.join("freestyle.rnw"), w.to_bytes()).unwrap();
        let changed = WeightSet::load(path).unwrap();
        assert!(!std::ptr::eq(first, changed));
        assert_eq!(changed.for_rule(Rule::Freestyle).mine[3], w.mine[3]);
        std::fs::remove_dir_all(&folder).unwrap();
    }
}
