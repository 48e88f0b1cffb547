//! Per-node analysis: the candidate moves with the patterns they make for both sides,
//! the immediate threats, and a static evaluation. Everything the search needs at a node
//! comes from one pass over the candidates.

use super::board::SearchBoard;
use super::eval::{EvalFeatures, EVAL_LIMIT, WEIGHTS};
use super::learned::{self, FORBIDDEN, MOVE_SCORE_UNITS};
use crate::board::geometry::candidate_rows;
use crate::board::{Board, Color, Pos};
use crate::pattern::{Pattern, PatternCounts, Threat};
use crate::rules::{self, Rule};

/// One candidate move.
#[derive(Clone, Copy, Debug)]
pub struct Candidate {
    /// The square.
    pub pos: Pos,
    /// Patterns the side to move would make there.
    pub mine: PatternCounts,
    /// Patterns the opponent would make there.
    pub theirs: PatternCounts,
    /// Ordering score (higher first).
    pub score: i32,
}

impl Candidate {
    /// The side to move's threat here.
    #[inline]
    pub fn my_threat(&self) -> Threat {
        self.mine.threat()
    }

    /// The opponent's threat here.
    #[inline]
    pub fn their_threat(&self) -> Threat {
        self.theirs.threat()
    }
}

/// How many distance classes [`locality_class`] has.
pub const LOCALITY_CLASSES: usize = 4;

/// The distance class of square `a` to an earlier move `b` for the move ordering: the
/// Chebyshev distance 1, 2, 3, or 4 and more as 0..=3 (3 without `b`).
pub fn locality_class(a: Pos, b: Option<Pos>) -> usize {
    match b {
        None => LOCALITY_CLASSES - 1,
        Some(b) => {
            let d = a.x().abs_diff(b.x()).max(a.y().abs_diff(b.y()));
            d.clamp(1, LOCALITY_CLASSES) - 1
        }
    }
}

/// The learned move ordering's points for one logit of the move-choice model: a killer's
/// bonus (300) is then worth about a factor e in the model's odds.
pub const ORDERING_POINTS_PER_LOGIT: i32 = 300;

/// The move ordering's bonus by [`locality_class`] to the opponent's last move and to our
/// own last move, in [`ORDERING_POINTS_PER_LOGIT`]: `train` fits the
/// move scores with these two terms and prints their weights; on `selfplay-s2` and `-s3`
/// (the committed tables' data) freestyle's came out +0.333 / +0.080 / -0.075 / -0.179
/// and +0.253 / +0.124 / -0.055 / -0.187 logits (standard's and renju's within 0.1 of
/// them), and the model puts the searched move first in 38.6 % of the validation
/// positions instead of 36.7 % without them. Every rule uses freestyle's.
pub const NEAR_OPPONENT: [i32; LOCALITY_CLASSES] = [100, 24, -22, -54];
/// See [`NEAR_OPPONENT`].
pub const NEAR_OWN: [i32; LOCALITY_CLASSES] = [76, 37, -17, -56];

/// Values of line patterns for the static evaluation and move ordering.
const PATTERN_VALUE: [i32; 10] = [0, 1, 3, 6, 20, 24, 90, 100, 1_000, 10_000];

#[inline]
fn pattern_sum(patterns: &[Pattern; 4]) -> i32 {
    patterns.iter().map(|&p| PATTERN_VALUE[p as usize]).sum()
}

/// Ordering bonus for combined threats.
#[inline]
fn threat_bonus(t: Threat) -> i32 {
    match t {
        Threat::Five => 1_000_000,
        Threat::OpenFour => 200_000,
        Threat::FourThree => 50_000,
        Threat::DoubleThree => 10_000,
        Threat::Three => 600,
        Threat::Four => 400,
        Threat::Minor | Threat::None => 0,
    }
}

/// The analysis of one node.
#[derive(Debug, Default)]
pub struct NodeAnalysis {
    /// Candidates, in row-major order until sorted by the caller.
    pub moves: Vec<Candidate>,
    /// A square where the side to move wins at once.
    pub my_five: Option<Pos>,
    /// Squares where the opponent would win at once (at most two are recorded).
    pub their_fives: Vec<Pos>,
    /// Static evaluation for the side to move.
    pub eval: i32,
    /// What the static evaluation was computed from.
    pub features: EvalFeatures,
    /// The side to move has an open four or double four available (legal).
    pub my_open_four: Option<Pos>,
    /// The opponent has moves that would make a four (closed or open).
    pub their_four_moves: bool,
    /// The side to move has moves that make a four (closed or open).
    pub my_four_moves: bool,
    /// The opponent has moves that make an open four or a double four (an open three, or
    /// two crossing closed threes, on the board).
    pub their_open_four_moves: bool,
    /// Candidate squares forbidden to Black (renju), whichever side is to move.
    pub fouls: Vec<Pos>,
}

impl NodeAnalysis {
    /// The candidate squares the side to move may play (forbidden ones left out), in the
    /// analysis' order.
    pub fn legal_squares(&self) -> Vec<Pos> {
        self.moves
            .iter()
            .filter(|m| m.score != i32::MIN)
            .map(|m| m.pos)
            .collect()
    }
}

/// Analyse the position for `me` to move. `out` is reused to avoid allocation.
pub fn analyse(board: &mut SearchBoard, me: Color, rule: Rule, out: &mut NodeAnalysis) {
    out.moves.clear();
    out.my_five = None;
    out.their_fives.clear();
    out.my_open_four = None;
    out.their_four_moves = false;
    out.my_four_moves = false;
    out.their_open_four_moves = false;
    out.fouls.clear();
    let opp = me.opponent();
    let order_by: Option<&'static learned::LearnedWeights> = board
        .learned()
        .filter(|s| s.orders_moves())
        .map(|s| s.weights());
    let learned_on = board.learned().is_some();
    let rows = candidate_rows(board);
    let mut features = EvalFeatures::default();
    let me_fouls = rule.has_fouls_for(me);
    let mut my_five_clean = false;
    let opp_fouls = rule.has_fouls_for(opp);
    for (y, &row) in rows.iter().enumerate().take(board.height()) {
        let mut bits = row;
        while bits != 0 {
            let x = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            let pos = Pos::new(x, y);
            // The counts from the learned state's codes when it keeps them (one lookup
            // each), else from the patterns.
            let (mine, theirs) = match board.learned() {
                Some(state) => (state.counts(pos, me), state.counts(pos, opp)),
                None => (
                    PatternCounts::of(&board.patterns(pos, me)),
                    PatternCounts::of(&board.patterns(pos, opp)),
                ),
            };
            let my_threat = mine.threat();
            let mut their_threat = theirs.threat();
            // Renju: Black's shapes that may be fouls are checked exactly.
            if me_fouls && my_threat != Threat::Five && black_foul(board.probe(), pos, &mine) {
                out.fouls.push(pos);
                // A forbidden square is no move for us, but still a square the opponent
                // may want.
                if !learned_on && their_threat >= Threat::Four {
                    features.add_theirs(&board.patterns(pos, opp));
                }
                out.moves.push(Candidate {
                    pos,
                    mine: PatternCounts::default(),
                    theirs,
                    score: i32::MIN, // marks a forbidden square; never searched
                });
                continue;
            }
            // A square forbidden for the opponent is worth nothing to them.
            let their_forbidden = opp_fouls
                && their_threat != Threat::Five
                && black_foul(board.probe(), pos, &theirs);
            if their_forbidden {
                their_threat = Threat::None;
                out.fouls.push(pos);
            }
            // The classic evaluation's pattern counts (the learned one keeps its own sums).
            if !learned_on {
                features.add_mine(&board.patterns(pos, me));
                if !their_forbidden {
                    features.add_theirs(&board.patterns(pos, opp));
                }
            }
            if my_threat != Threat::None && mine.f4 + mine.b4 > 0 {
                out.my_four_moves = true;
            }
            match my_threat {
                Threat::Five => {
                    // Renju: a five that is also an overline only if no other five exists
                    // (see `rules::five_with_overline`).
                    let clean = !me_fouls || !rules::five_with_overline(board.probe(), pos);
                    if out.my_five.is_none() || (clean && !my_five_clean) {
                        out.my_five = Some(pos);
                        my_five_clean = clean;
                    }
                }
                Threat::OpenFour => {
                    out.my_open_four.get_or_insert(pos);
                }
                _ => {}
            }
            match their_threat {
                Threat::Five if out.their_fives.len() < 2 => out.their_fives.push(pos),
                Threat::OpenFour => out.their_open_four_moves = true,
                _ => {}
            }
            if their_threat != Threat::None && theirs.f4 + theirs.b4 > 0 {
                out.their_four_moves = true;
            }
            features.add_threats(my_threat, their_threat);
            let score = match order_by {
                // Learned: the move-choice model's scores for the square's codes (see
                // `learned`), in thousandths of a logit, brought to the scale of the
                // search's killer bonus (see [`ORDERING_POINTS_PER_LOGIT`]).
                Some(w) => {
                    let state = board.learned().expect("kept with its weights");
                    let theirs_code = if their_forbidden {
                        FORBIDDEN
                    } else {
                        state.code(pos, opp)
                    };
                    (w.move_mine[usize::from(state.code(pos, me))]
                        + w.move_theirs[usize::from(theirs_code)])
                        * ORDERING_POINTS_PER_LOGIT
                        / MOVE_SCORE_UNITS
                }
                None => {
                    let their_value = if their_forbidden {
                        0
                    } else {
                        pattern_sum(&board.patterns(pos, opp))
                    };
                    threat_bonus(my_threat)
                        + threat_bonus(their_threat) * 4 / 5
                        + pattern_sum(&board.patterns(pos, me)) * 2
                        + their_value
                }
            };
            out.moves.push(Candidate {
                pos,
                mine,
                theirs,
                score,
            });
        }
    }
    out.eval = match board.learned() {
        Some(state) => learned_eval(state, me, &out.fouls, &features),
        // Classic: own shapes minus the opponent's (see `eval`).
        None => WEIGHTS.evaluate(&features),
    };
    out.features = features;
}

/// The learned evaluation for `me` to move: the kept sums over the empty squares, the
/// squares forbidden to Black (`fouls`) coded as such, and the threat class of the
/// strongest combinations (see `learned`), clamped to the evaluation's limit.
#[inline]
pub fn learned_eval(
    state: &learned::LearnedState,
    me: Color,
    fouls: &[Pos],
    threats: &EvalFeatures,
) -> i32 {
    let w = state.weights();
    let mut eval = i64::from(state.square_sum(me));
    for &pos in fouls {
        let c = usize::from(state.code(pos, Color::Black));
        let f = usize::from(FORBIDDEN);
        eval += if me == Color::Black {
            i64::from(w.mine[f] - w.mine[c])
        } else {
            -i64::from(w.theirs[f] - w.theirs[c])
        };
    }
    let class = learned::threat_class(threats.my_best, threats.their_best);
    let mix = learned::threat_mix_class(threats.my_threats, threats.their_threats);
    eval += i64::from(w.threat[class]) + i64::from(w.threat[mix]);
    eval += i64::from(state.net_points(me, fouls, class, mix));
    eval.clamp(i64::from(-EVAL_LIMIT), i64::from(EVAL_LIMIT)) as i32
}

/// The learned evaluation's features of the position `analysis` was made of (by
/// [`analyse`] on `board` for `me`), counted from scratch: what `train` fits the weights
/// to. Under the same weights, `features.evaluate` equals the analysis' evaluation before
/// clamping.
pub fn learned_features(
    board: &SearchBoard,
    me: Color,
    analysis: &NodeAnalysis,
) -> learned::LearnedFeatures {
    learned::count_codes(
        board,
        board.pattern_cache(),
        me,
        &analysis.fouls,
        &analysis.features,
    )
}

/// Is the empty square `pos`, where Black would make the patterns `black`, a renju foul?
/// The patterns rule most squares out at once (a foul needs two threes or fours, or a
/// four with two completions on its line: an open four or a double four there), an
/// overline by a count of stones; the rest get the exact check. A closed four (one
/// completion) with at most one three is never a foul but by an overline.
pub fn black_foul(board: &mut Board, pos: Pos, black: &PatternCounts) -> bool {
    (black.may_be_foul() || black.f4 > 0 || rules::may_be_overline(board, pos))
        && rules::renju_foul(board, pos).is_some()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pattern::PatternTables;

    /// Weights with every entry random (and a leaked lifetime, as the engine's have), with a
    /// random network or none.
    fn random_weights(rule: Rule, seed: u64, with_net: bool) -> &'static learned::LearnedWeights {
        let mut next = crate::pattern::tests::xorshift(seed);
        let mut w = learned::LearnedWeights::zero(learned::WeightFamily::of(rule));
        for v in w.mine.iter_mut().chain(&mut w.theirs).chain(&mut w.threat) {
            *v = (next() % 2001) as i32 - 1000;
        }
        if with_net {
            w.net = Some(Box::new(super::super::net::random_for_tests(
                w.family,
                next(),
            )));
        }
        Box::leak(Box::new(w))
    }

    /// Long random games in every rule and on two sizes: after every move and every take
    /// back, the learned state kept by the search board equals a from-scratch one, and the
    /// analysis' evaluation equals the evaluation of the features counted from scratch.
    #[test]
    fn the_learned_state_matches_a_recompute_after_every_move_and_undo() {
        let mut next = crate::pattern::tests::xorshift(0x005E_ED0F_1EA4);
        for rule in Rule::ALL {
            for size in [15usize, 20] {
                // The 20x20 games carry a network too (its kept sums checked as well).
                let weights = random_weights(rule, next(), size == 20);
                let tables = PatternTables::new(rule);
                let mut board = SearchBoard::with_weights(
                    Board::new(size, size).unwrap(),
                    tables,
                    Some(weights),
                );
                let mut a = NodeAnalysis::default();
                let mut played: Vec<Pos> = Vec::new();
                let mut fouls_seen = 0;
                for step in 0..260 {
                    let me = if played.len().is_multiple_of(2) {
                        Color::Black
                    } else {
                        Color::White
                    };
                    // Mostly moves among the candidates, sometimes a take-back.
                    if !played.is_empty() && next().is_multiple_of(5) {
                        board.remove(played.pop().unwrap());
                    } else {
                        analyse(&mut board, me, rule, &mut a);
                        let legal = a.legal_squares();
                        let pos = if legal.is_empty() {
                            Pos::new(size / 2, size / 2)
                        } else {
                            legal[(next() % legal.len() as u64) as usize]
                        };
                        if !board.is_empty(pos) {
                            break;
                        }
                        board.place(pos, crate::board::Cell::Stone(me));
                        played.push(pos);
                    }
                    let state = board.learned().unwrap();
                    let diff = state.differences(&board, board.pattern_cache());
                    assert!(diff.is_empty(), "{rule:?} {size} step {step}: {diff:?}");
                    let me = if played.len().is_multiple_of(2) {
                        Color::Black
                    } else {
                        Color::White
                    };
                    analyse(&mut board, me, rule, &mut a);
                    fouls_seen += a.fouls.len();
                    let f = learned_features(&board, me, &a);
                    let expected = f
                        .evaluate(weights)
                        .clamp(i64::from(-EVAL_LIMIT), i64::from(EVAL_LIMIT));
                    assert_eq!(i64::from(a.eval), expected, "{rule:?} {size} step {step}");
                }
                if rule == Rule::Renju {
                    assert!(fouls_seen > 0, "the renju games met forbidden squares");
                }
            }
        }
    }

    #[test]
    fn candidate_rows_cover_two_cells_around_stones() {
        let b = Board::from_ascii(
            ".......
             .......
             .......
             ...X...
             .......
             .......
             .......",
        )
        .unwrap();
        let rows = candidate_rows(&b);
        let count: u32 = rows.iter().map(|r| r.count_ones()).sum();
        assert_eq!(count, 24);
        assert_eq!(rows[3] & (1 << 3), 0, "the stone itself is not a candidate");
        assert_eq!(rows[0], 0);
    }

    #[test]
    fn analysis_finds_fives_and_open_fours() {
        let b = Board::from_ascii(
            "...........
             .XXXX......
             ...........
             ...OOO.....
             ...........
             ...........",
        )
        .unwrap();
        let t = PatternTables::new(Rule::Freestyle);
        let mut a = NodeAnalysis::default();
        analyse(
            &mut SearchBoard::new(b.clone(), t),
            Color::White,
            Rule::Freestyle,
            &mut a,
        );
        assert!(a.my_five.is_none());
        assert_eq!(a.their_fives.len(), 2);
        assert!(a.my_open_four.is_some());
        let freestyle = PatternTables::new(Rule::Freestyle);
        analyse(
            &mut SearchBoard::new(b.clone(), freestyle),
            Color::Black,
            Rule::Freestyle,
            &mut a,
        );
        assert!(a.my_five.is_some());
        assert!(a.their_open_four_moves);
    }

    #[test]
    fn overline_squares_are_fouls_for_black_even_without_a_four() {
        // Black at `*` would join XXX.XX into six (an overline) while making only an open
        // three on the column: the patterns show no four and no double three there, yet the
        // square is forbidden and must not be a move.
        let text = "...............
                    ...............
                    ...............
                    ...............
                    ...............
                    ..........O....
                    ...........O...
                    ...XXX.XX......
                    ......X........
                    ......X........
                    ...........O...
                    ...............
                    ..........O....
                    ...............
                    ...............";
        let mut b = Board::from_ascii(text).unwrap();
        let square = Pos::new(6, 7);
        let t = PatternTables::new(Rule::Renju);
        let counts = PatternCounts::of(&t.patterns(&b, square, Color::Black));
        assert_eq!(
            counts.threat(),
            Threat::Three,
            "the premise: a lone three by patterns"
        );
        assert!(rules::renju_foul(&mut b, square).is_some());
        assert!(black_foul(&mut b, square, &counts));
        let mut a = NodeAnalysis::default();
        analyse(
            &mut SearchBoard::new(b.clone(), t),
            Color::Black,
            Rule::Renju,
            &mut a,
        );
        let c = a.moves.iter().find(|m| m.pos == square).unwrap();
        assert_eq!(c.score, i32::MIN, "the overline square is marked forbidden");
        // Under freestyle the same square is a fine move (six wins there).
        let freestyle = PatternTables::new(Rule::Freestyle);
        analyse(
            &mut SearchBoard::new(b.clone(), freestyle),
            Color::Black,
            Rule::Freestyle,
            &mut a,
        );
        assert_eq!(a.my_five, Some(square));
    }

    #[test]
    fn black_prefers_a_five_that_is_no_overline_too() {
        // Black at (4,2) makes a five on row 2 and six on column 4; at (4,7) an exact five
        // on column 4 alone. Both win under Renju, but c-gomoku-cli calls the first a
        // foul: the clean one is played, though it comes later in square order.
        let text = "...............
                    ....X..........
                    XXXX...........
                    ....X..........
                    ....X..........
                    ....X..........
                    ....X..........
                    ...............
                    ...............
                    ...............
                    ..........O.O.O
                    ...............
                    ..........O.O.O
                    ...............
                    ..........O.O.O";
        let mut b = Board::from_ascii(text).unwrap();
        let (both, clean) = (Pos::new(4, 2), Pos::new(4, 7));
        assert!(rules::five_with_overline(&mut b, both));
        assert!(!rules::five_with_overline(&mut b, clean));
        assert!(
            rules::renju_foul(&mut b, both).is_none(),
            "the five is legal"
        );
        let t = PatternTables::new(Rule::Renju);
        let mut a = NodeAnalysis::default();
        analyse(
            &mut SearchBoard::new(b.clone(), t),
            Color::Black,
            Rule::Renju,
            &mut a,
        );
        assert_eq!(a.my_five, Some(clean));
        // With only the five that is also an overline, it is still played.
        b.place(clean, crate::board::Cell::Stone(Color::White));
        analyse(
            &mut SearchBoard::new(b.clone(), t),
            Color::Black,
            Rule::Renju,
            &mut a,
        );
        assert_eq!(a.my_five, Some(both));
    }

    #[test]
    fn the_pattern_prefilter_never_hides_a_foul() {
        // Dense random renju boards: on every empty square the prefiltered check agrees
        // with the exact one.
        let mut seed = 0x9e37_79b9_7f4a_7c15_u64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let t = PatternTables::new(Rule::Renju);
        let mut fouls = 0;
        for _ in 0..300 {
            let mut b = Board::new(15, 15).unwrap();
            // Black stones in a small area make fouls common.
            for _ in 0..(20 + next() % 40) {
                let x = 3 + (next() % 9) as usize;
                let y = 3 + (next() % 9) as usize;
                let color = if next() % 3 == 0 {
                    Color::White
                } else {
                    Color::Black
                };
                let p = Pos::new(x, y);
                if b.is_empty(p) {
                    b.place(p, crate::board::Cell::Stone(color));
                }
            }
            let empties: Vec<Pos> = b.empty_positions().collect();
            for p in empties {
                let counts = PatternCounts::of(&t.patterns(&b, p, Color::Black));
                if counts.f5 > 0 {
                    continue; // a five is never a foul; callers check it first
                }
                let exact = rules::renju_foul(&mut b, p).is_some();
                assert_eq!(
                    black_foul(&mut b, p, &counts),
                    exact,
                    "at {p:?}\n{}",
                    b.to_ascii()
                );
                fouls += usize::from(exact);
            }
        }
        assert!(fouls > 100, "the boards hold fouls of every kind ({fouls})");
    }
}
