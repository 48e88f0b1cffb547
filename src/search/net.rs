//! A small network on top of the learned tables (issue 28's "NNUE-style" candidate): the
//! same features as [`super::learned`] (every empty square's pattern-combination code for
//! both sides, the threat class and the threat mix) feed [`HIDDEN`] clipped-ReLU units
//! whose weighted sum is added to the tables' linear evaluation.
//!
//! ```text
//! acc[j]  = bias[j] + sum over empty squares s of input[code(s, me)][j]
//!                   + input[CODES + code(s, opponent)][j]
//!                   + input[2 CODES + threat class][j] + input[2 CODES + threat mix][j]
//! net     = output_bias + sum over j of output[j] * clamp(acc[j], 0, 1)
//! ```
//!
//! Inference is in integers and incremental: the search board keeps, for each colour, the
//! sums of its squares' rows as the side to move's and as the opponent's
//! ([`super::learned::LearnedState`]), updated with every code that changes, so that an
//! evaluation adds two kept vectors, the two threat rows and the renju fouls' corrections,
//! and takes one dot product of [`HIDDEN`] terms.
//!
//! Fixed point: an accumulator value of [`ACC_ONE`] is a unit's input of 1.0, where it
//! saturates; the activation is taken with 8 bits ([`ACT_ONE`]); output weights are
//! evaluation points times 16, so the dot product is shifted right by [`OUT_SHIFT`]. The
//! trainer (`rensa-bench`'s `train --hidden`) writes the file and checks the validation
//! loss of this integer model, not only of its floating-point one.

use super::learned::{
    fnv1a64, read_family, read_values, FileKind, LearnedFeatures, WeightFamily, CODES,
    THREAT_CLASSES,
};

/// Hidden units. 16 won the network's SPRT against the tables alone (`bench/elo-log.md`);
/// 32 fit the same data better (freestyle validation loss 0.6277 against 0.6310,
/// `bench/README.md`) but cost a quarter of the node rate (`pbrain-rensa bench`, about
/// 470k against 600k nodes a second here) and scored −17 ± 42 Elo against 16 over 246
/// self-play games: not kept.
pub const HIDDEN: usize = 16;
/// Rows of the input matrix: the side to move's codes, the opponent's, the threat classes.
pub const NET_INPUTS: usize = 2 * CODES + THREAT_CLASSES;
/// The accumulator value of a unit's input 1.0.
pub const ACC_ONE: i32 = 1 << 16;
/// The activation's fixed-point one (8 bits).
pub const ACT_ONE: i32 = 1 << 8;
/// Output weights are in points times 16: the dot product with activations of
/// [`ACT_ONE`] per 1.0 is shifted right by 4 + 8.
pub const OUT_SHIFT: u32 = 12;
/// The output weights' scale: points times this.
pub const OUT_SCALE: f64 = 16.0;

/// One vector of hidden-unit inputs.
pub type Acc = [i32; HIDDEN];

/// The network file's magic bytes.
pub const NET_MAGIC: &[u8; 8] = b"RNSANETW";
/// The network file format version this build reads and writes.
pub const NET_FORMAT_VERSION: u16 = 1;

/// A network's weights for one rule family (file `<family>.rnn` beside the tables'
/// `<family>.rnw`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NetWeights {
    /// The family these weights are for.
    pub family: WeightFamily,
    /// A hash of the training data.
    pub data_hash: u64,
    /// [`NET_INPUTS`] rows, in units of 1 / [`ACC_ONE`].
    pub input: Vec<Acc>,
    /// The units' biases, in units of 1 / [`ACC_ONE`].
    pub bias: Acc,
    /// The output weights, in points times [`OUT_SCALE`].
    pub output: Acc,
    /// The output's bias, in points times [`OUT_SCALE`] times [`ACT_ONE`].
    pub output_bias: i32,
}

impl NetWeights {
    /// All weights zero: adds nothing to the evaluation.
    pub fn zero(family: WeightFamily) -> NetWeights {
        NetWeights {
            family,
            data_hash: 0,
            input: vec![[0; HIDDEN]; NET_INPUTS],
            bias: [0; HIDDEN],
            output: [0; HIDDEN],
            output_bias: 0,
        }
    }

    /// The network's points for the summed unit inputs `acc` (biases not yet added).
    #[inline(always)]
    pub fn output(&self, acc: &Acc) -> i32 {
        let mut sum = i64::from(self.output_bias);
        for ((a, b), w) in acc.iter().zip(&self.bias).zip(&self.output) {
            let act = (a + b).clamp(0, ACC_ONE) >> 8;
            sum += i64::from(*w) * i64::from(act);
        }
        (sum >> OUT_SHIFT) as i32
    }

    /// The network's points for features counted from scratch (the trainer, tests).
    pub fn evaluate(&self, f: &LearnedFeatures) -> i32 {
        let mut acc = [0i32; HIDDEN];
        let mut add = |row: usize, n: i32| {
            for (a, w) in acc.iter_mut().zip(&self.input[row]) {
                *a += w * n;
            }
        };
        for &(c, n) in &f.mine {
            add(usize::from(c), i32::from(n));
        }
        for &(c, n) in &f.theirs {
            add(CODES + usize::from(c), i32::from(n));
        }
        add(2 * CODES + usize::from(f.threat_class), 1);
        add(2 * CODES + usize::from(f.threat_mix), 1);
        self.output(&acc)
    }

    /// The file: magic, version, family, hidden units, data hash, the values (`i32`
    /// little-endian: input rows, biases, output weights, output bias), an FNV-1a check.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = NET_MAGIC.to_vec();
        out.extend_from_slice(&NET_FORMAT_VERSION.to_le_bytes());
        out.push(self.family as u8);
        out.push(HIDDEN as u8);
        out.extend_from_slice(&self.data_hash.to_le_bytes());
        out.extend_from_slice(&(NET_INPUTS as u16).to_le_bytes());
        let values = self
            .input
            .iter()
            .flatten()
            .chain(&self.bias)
            .chain(&self.output)
            .chain(std::iter::once(&self.output_bias));
        for v in values {
            out.extend_from_slice(&v.to_le_bytes());
        }
        let check = fnv1a64(&out);
        out.extend_from_slice(&check.to_le_bytes());
        out
    }

    /// Read a network file, refusing another format, family, size or a damaged file.
    pub fn from_bytes(bytes: &[u8], expected: Option<WeightFamily>) -> Result<NetWeights, String> {
        let header = 8 + 2 + 1 + 1 + 8 + 2;
        let kind = FileKind {
            magic: NET_MAGIC,
            version: NET_FORMAT_VERSION,
            noun: "network",
        };
        let family = read_family(bytes, header, &kind, expected)?;
        if usize::from(bytes[11]) != HIDDEN {
            return Err(format!(
                "{} hidden units; this build has {HIDDEN}",
                bytes[11]
            ));
        }
        let data_hash = u64::from_le_bytes(bytes[12..20].try_into().expect("8 bytes"));
        let inputs = usize::from(u16::from_le_bytes([bytes[20], bytes[21]]));
        if inputs != NET_INPUTS {
            return Err(format!(
                "{inputs} inputs; this build's feature set has {NET_INPUTS}"
            ));
        }
        let n = NET_INPUTS * HIDDEN + 2 * HIDDEN + 1;
        let values = read_values(bytes, header, n, kind.noun)?;
        let acc = |s: &[i32]| -> Acc { s.try_into().expect("HIDDEN values") };
        let rows = NET_INPUTS * HIDDEN;
        Ok(NetWeights {
            family,
            data_hash,
            input: values[..rows].chunks_exact(HIDDEN).map(acc).collect(),
            bias: acc(&values[rows..rows + HIDDEN]),
            output: acc(&values[rows + HIDDEN..rows + 2 * HIDDEN]),
            output_bias: values[rows + 2 * HIDDEN],
        })
    }
}

/// A network with every weight random (a leaked lifetime, as the engine's have), for the
/// tests that check the kept sums against a recompute: the units' inputs land on both
/// sides of the clamp.
#[cfg(test)]
pub(crate) fn random_for_tests(family: WeightFamily, seed: u64) -> NetWeights {
    let mut next = crate::pattern::tests::xorshift(seed);
    let mut small = |range: i32| (next() % (2 * range as u64 + 1)) as i32 - range;
    let mut w = NetWeights::zero(family);
    for row in &mut w.input {
        for v in row.iter_mut() {
            *v = small(ACC_ONE / 40);
        }
    }
    for j in 0..HIDDEN {
        w.bias[j] = small(ACC_ONE);
        w.output[j] = small(16 * 300);
    }
    w.output_bias = small(1 << 20);
    w
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn network_files_round_trip_and_bad_ones_are_refused() {
        let mut w = NetWeights::zero(WeightFamily::Standard);
        w.data_hash = 77;
        w.input[3][5] = -9;
        w.input[NET_INPUTS - 1][HIDDEN - 1] = 123_456;
        w.bias[2] = 4;
        w.output[0] = -31;
        w.output_bias = 1000;
        let bytes = w.to_bytes();
        assert_eq!(NetWeights::from_bytes(&bytes, None), Ok(w.clone()));
        assert!(NetWeights::from_bytes(&bytes, Some(WeightFamily::Renju))
            .unwrap_err()
            .contains("standard"));
        let mut damaged = bytes.clone();
        damaged[100] ^= 1;
        assert!(NetWeights::from_bytes(&damaged, None)
            .unwrap_err()
            .contains("checksum"));
        let mut hidden = bytes.clone();
        hidden[11] = 32;
        assert!(NetWeights::from_bytes(&hidden, None)
            .unwrap_err()
            .contains("32 hidden"));
        assert!(NetWeights::from_bytes(&bytes[..50], None).is_err());
        assert!(NetWeights::from_bytes(b"RNSAEVAL and more bytes", None).is_err());
    }

    #[test]
    fn the_output_clamps_each_unit() {
        let mut w = NetWeights::zero(WeightFamily::Freestyle);
        w.output = [16; HIDDEN]; // one point per fully active unit
        w.bias[0] = ACC_ONE / 2;
        let mut acc = [0; HIDDEN];
        acc[1] = 5 * ACC_ONE; // saturates at 1.0
        acc[2] = -ACC_ONE; // inactive
                           // unit 0: 0.5, unit 1: 1.0, the rest 0: 1.5 points, rounded down.
        assert_eq!(w.output(&acc), 1);
        acc[3] = ACC_ONE / 2;
        assert_eq!(w.output(&acc), 2);
    }
}
