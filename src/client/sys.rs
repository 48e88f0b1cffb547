//! Operating-system helpers: suspending, resuming and killing an engine's process group,
//! reading its resident memory, and killing every engine when the runner is interrupted.
//!
//! Engines are started in their own process group (group id = engine pid), so one signal
//! reaches the engine and any helper processes it started, as GomocupJudge suspends and
//! kills the whole process tree. On non-Unix systems these functions do nothing.

#[cfg(unix)]
mod imp {
    use std::sync::atomic::{AtomicI32, Ordering};

    /// Process groups to kill if the runner is interrupted (0 = free slot).
    #[allow(clippy::declare_interior_mutable_const)]
    const FREE: AtomicI32 = AtomicI32::new(0);
    static GROUPS: [AtomicI32; 512] = [FREE; 512];

    fn signal_group(pgid: u32, sig: libc::c_int) -> bool {
        if pgid == 0 {
            return false;
        }
        // SAFETY: kill(2) with a negative pid signals a process group; no memory is shared.
        unsafe { libc::kill(-(pgid as libc::pid_t), sig) == 0 }
    }

    pub fn suspend(pgid: u32) -> bool {
        signal_group(pgid, libc::SIGSTOP)
    }

    pub fn resume(pgid: u32) -> bool {
        signal_group(pgid, libc::SIGCONT)
    }

    pub fn kill_group(pgid: u32) -> bool {
        signal_group(pgid, libc::SIGKILL)
    }

    pub fn register(pgid: u32) {
        for slot in GROUPS.iter() {
            if slot
                .compare_exchange(0, pgid as i32, Ordering::SeqCst, Ordering::SeqCst)
                .is_ok()
            {
                return;
            }
        }
    }

    pub fn unregister(pgid: u32) {
        for slot in GROUPS.iter() {
            if slot
                .compare_exchange(pgid as i32, 0, Ordering::SeqCst, Ordering::SeqCst)
                .is_ok()
            {
                return;
            }
        }
    }

    extern "C" fn on_signal(sig: libc::c_int) {
        // Only async-signal-safe calls here: atomic loads, kill(2) and _exit(2).
        for slot in GROUPS.iter() {
            let g = slot.load(Ordering::SeqCst);
            if g > 0 {
                // SAFETY: see signal_group.
                unsafe {
                    libc::kill(-g, libc::SIGKILL);
                }
            }
        }
        // SAFETY: _exit is async-signal-safe and never returns.
        unsafe { libc::_exit(128 + sig) }
    }

    pub fn install_interrupt_handler() {
        let handler = on_signal as extern "C" fn(libc::c_int) as libc::sighandler_t;
        for sig in [libc::SIGINT, libc::SIGTERM, libc::SIGHUP] {
            // SAFETY: installing a handler that only performs async-signal-safe calls.
            unsafe {
                libc::signal(sig, handler);
            }
        }
    }
}

#[cfg(not(unix))]
mod imp {
    pub fn suspend(_: u32) -> bool {
        false
    }
    pub fn resume(_: u32) -> bool {
        false
    }
    pub fn kill_group(_: u32) -> bool {
        false
    }
    pub fn register(_: u32) {}
    pub fn unregister(_: u32) {}
    pub fn install_interrupt_handler() {}
}

/// Stop (SIGSTOP) every process of the group. False if the signal could not be sent.
pub fn suspend(pgid: u32) -> bool {
    imp::suspend(pgid)
}

/// Continue (SIGCONT) every process of the group.
pub fn resume(pgid: u32) -> bool {
    imp::resume(pgid)
}

/// Kill (SIGKILL) every process of the group.
pub fn kill_group(pgid: u32) -> bool {
    imp::kill_group(pgid)
}

/// Remember a process group so that an interrupted runner kills it.
pub fn register(pgid: u32) {
    imp::register(pgid)
}

/// Forget a process group registered with [`register`].
pub fn unregister(pgid: u32) {
    imp::unregister(pgid)
}

/// On SIGINT, SIGTERM and SIGHUP, kill every registered engine group and exit.
pub fn install_interrupt_handler() {
    imp::install_interrupt_handler()
}

/// True when suspending processes and reading their memory are supported here.
pub fn supports_judge_mode() -> bool {
    cfg!(target_os = "linux")
}

/// Resident memory in bytes of a process and all its descendants (Linux: `VmRSS` from
/// `/proc/<pid>/status`, children from `/proc/<pid>/task/<tid>/children`). None when the
/// process is gone or the information is not available.
pub fn tree_rss_bytes(pid: u32) -> Option<u64> {
    let mut total = process_rss_bytes(pid)?;
    let mut stack = children(pid);
    let mut seen = 0;
    while let Some(child) = stack.pop() {
        seen += 1;
        if seen > 4096 {
            break;
        }
        if let Some(rss) = process_rss_bytes(child) {
            total += rss;
        }
        stack.extend(children(child));
    }
    Some(total)
}

/// `VmRSS` of one process in bytes.
pub fn process_rss_bytes(pid: u32) -> Option<u64> {
    status_field_kb(pid, "VmRSS:").map(|kb| kb * 1024)
}

/// `VmHWM` (peak resident memory) of one process in bytes.
pub fn process_peak_rss_bytes(pid: u32) -> Option<u64> {
    status_field_kb(pid, "VmHWM:").map(|kb| kb * 1024)
}

fn status_field_kb(pid: u32, field: &str) -> Option<u64> {
    let text = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = text.lines().find(|l| l.starts_with(field))?;
    line[field.len()..].split_whitespace().next()?.parse().ok()
}

fn children(pid: u32) -> Vec<u32> {
    let Ok(tasks) = std::fs::read_dir(format!("/proc/{pid}/task")) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for task in tasks.flatten() {
        if let Ok(text) = std::fs::read_to_string(task.path().join("children")) {
            out.extend(
                text.split_whitespace()
                    .filter_map(|s| s.parse::<u32>().ok()),
            );
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    #[cfg(target_os = "linux")]
    fn reads_own_memory() {
        let me = std::process::id();
        let rss = process_rss_bytes(me).unwrap();
        assert!(rss > 100_000, "rss {rss}");
        assert!(tree_rss_bytes(me).unwrap() >= rss);
        assert!(process_peak_rss_bytes(me).unwrap() >= rss);
        assert!(process_rss_bytes(u32::MAX - 1).is_none());
    }
}
