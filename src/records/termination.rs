//! Why a game ended, and the one-line description records and reports give it.

use crate::board::Color;

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Termination {
    /// A winning line.
    Five,
    /// A forbidden Renju move by Black.
    Foul,
    /// No move within the limit plus the tolerance.
    Time,
    /// The engine exited or could not be written to.
    Crash,
    /// A reply that is not a move (or output nobody asked for).
    Malformed,
    /// A move on an occupied square.
    Occupied,
    /// A move off the board.
    OffBoard,
    /// Resident memory above `max_memory` (GomocupJudge mode).
    Memory,
    /// The engine could not be started or did not answer `START` with `OK`.
    StartFailure,
    /// Draw: no empty square left.
    FullBoard,
    /// Draw: the move limit (`--drawafter`, or size² − 25 stones in GomocupJudge Renju).
    MoveLimit,
}

impl Termination {
    /// All terminations, in table order.
    pub const ALL: [Termination; 11] = [
        Termination::Five,
        Termination::Foul,
        Termination::Time,
        Termination::Crash,
        Termination::Malformed,
        Termination::Occupied,
        Termination::OffBoard,
        Termination::Memory,
        Termination::StartFailure,
        Termination::FullBoard,
        Termination::MoveLimit,
    ];

    /// Short label for tables, JSON and records.
    pub fn label(self) -> &'static str {
        match self {
            Termination::Five => "five",
            Termination::Foul => "foul",
            Termination::Time => "time forfeit",
            Termination::Crash => "crash",
            Termination::Malformed => "malformed reply",
            Termination::Occupied => "occupied square",
            Termination::OffBoard => "off-board move",
            Termination::Memory => "memory limit",
            Termination::StartFailure => "start failure",
            Termination::FullBoard => "full board",
            Termination::MoveLimit => "move limit",
        }
    }

    /// True for the losses that leave the engine process in doubt, so it is restarted.
    pub fn restarts_engine(self) -> bool {
        matches!(
            self,
            Termination::Time
                | Termination::Crash
                | Termination::Malformed
                | Termination::Memory
                | Termination::StartFailure
        )
    }

    /// The last line of a `.psq` record: 0 normal end, 15 timeout (as Piskvork), 16 memory,
    /// 1 any other error.
    pub fn psq_code(self) -> i32 {
        match self {
            Termination::Five | Termination::FullBoard | Termination::MoveLimit => 0,
            Termination::Time => 15,
            Termination::Memory => 16,
            _ => 1,
        }
    }
}

/// A one-line description of how a game ended: "draw by full board", "A wins by five",
/// "B loses by time forfeit: no move within ...". `names` are Black's and White's,
/// `detail` is appended after a colon when not empty.
pub fn reason_text(
    names: &[String; 2],
    winner: Option<Color>,
    termination: Termination,
    detail: &str,
) -> String {
    let who = |c: Color| names[c.index()].as_str();
    let base = match (winner, termination) {
        (None, t) => format!("draw by {}", t.label()),
        (Some(w), Termination::Five) => format!("{} wins by five", who(w)),
        (Some(w), t) => format!("{} loses by {}", who(w.opponent()), t.label()),
    };
    if detail.is_empty() {
        base
    } else {
        format!("{base}: {detail}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reasons_read_well() {
        let names = ["A".to_string(), "B".to_string()];
        assert_eq!(
            reason_text(&names, None, Termination::FullBoard, ""),
            "draw by full board"
        );
        assert_eq!(
            reason_text(&names, Some(Color::White), Termination::Five, ""),
            "B wins by five"
        );
        assert_eq!(
            reason_text(&names, Some(Color::White), Termination::Time, "late"),
            "A loses by time forfeit: late"
        );
        assert_eq!(Termination::Time.psq_code(), 15);
        assert!(Termination::Crash.restarts_engine());
        assert!(!Termination::Foul.restarts_engine());
    }
}
