//! The match runner's record files: every finished game goes to a directory of `.psq`
//! files and an SGF collection (written by [`rensa::records`]) and, when the engines
//! sent any, to a log of their `MESSAGE` lines.

use crate::game::GameRecord;
use rensa::records::{psq::PsqWriter, sgf, AppendFile};
use std::io;
use std::path::Path;

/// The `AP` (application) of the SGF records.
pub const SGF_APPLICATION: &str = "rensa-match";

/// Where finished games are written; each sink is optional.
pub struct Sinks {
    psq: Option<PsqWriter>,
    sgf: Option<AppendFile>,
    msg: Option<AppendFile>,
}

impl Sinks {
    /// Open the sinks: a `.psq` directory (created if needed), an SGF file and a message
    /// log (both truncated, or appended to when `resume`).
    pub fn open(
        psq_dir: Option<&Path>,
        sgf: Option<&Path>,
        msg: Option<&Path>,
        resume: bool,
    ) -> Result<Sinks, String> {
        let err = |p: &Path, e: io::Error| format!("{}: {e}", p.display());
        let open = |f: &Path| {
            if resume {
                AppendFile::append_to(f)
            } else {
                AppendFile::create(f)
            }
        };
        Ok(Sinks {
            psq: psq_dir
                .map(|d| PsqWriter::new(d).map_err(|e| err(d, e)))
                .transpose()?,
            sgf: sgf.map(|f| open(f).map_err(|e| err(f, e))).transpose()?,
            msg: msg.map(|f| open(f).map_err(|e| err(f, e))).transpose()?,
        })
    }

    /// Write one finished game to every open sink.
    pub fn write(&mut self, g: &GameRecord) -> io::Result<()> {
        if self.psq.is_some() || self.sgf.is_some() {
            let r = g.to_record();
            if let Some(p) = &self.psq {
                p.write(&r)?;
            }
            if let Some(s) = self.sgf.as_mut() {
                s.append(&sgf::game_text(&r, SGF_APPLICATION))?;
            }
        }
        if let Some(m) = self.msg.as_mut().filter(|_| !g.messages.is_empty()) {
            m.append(&messages_text(g))?;
        }
        Ok(())
    }
}

/// The `MESSAGE` lines of a game, grouped under a header line.
pub fn messages_text(g: &GameRecord) -> String {
    let mut s = format!(
        "Game {} (round {}): {} vs {}\n",
        g.setup.id, g.setup.round, g.names[0], g.names[1]
    );
    for (c, m) in &g.messages {
        s.push_str(&format!("{}: {m}\n", g.names[c.index()]));
    }
    s.push('\n');
    s
}
