//! Processes ferro starts never outlive it, however it ends (normal exit, panic, SIGINT or
//! SIGTERM, SIGKILL).
//!
//! Why Terraform's plugins notice its death: go-plugin hands a plugin pipes for its standard
//! output and error, read by Terraform; once Terraform is gone the next write to them (a log
//! line, which a plugin writes as soon as its gRPC connection breaks) gets SIGPIPE, which ends a
//! Go program writing to its standard output or error. That relies on the plugin writing; a
//! plugin that stays silent, or a `local-exec` command's own children, would live on.
//!
//! ferro does better with a guardian per child: the child is started in a process group of its
//! own, and beside it a tiny `sh` (in a group of its own too, deaf to the terminal's and
//! ferro's signals) blocks reading a pipe whose only writer is ferro (the end is close-on-exec,
//! so no other child holds it). When ferro ends, in any way, the kernel closes that end and the
//! guardian reads end-of-file: it kills the child's whole group, so grandchildren go too. A
//! child that ends normally releases its guardian first (`release`), which then exits without
//! killing anything (a daemon a `local-exec` command started stays, as under Terraform). The
//! guardian can also be told to kill at once: on a stop (Ctrl-C, SIGTERM) ferro ends running
//! commands this way, as Terraform cancels `local-exec`, and a panic ends every child.

use std::io::Write;
use std::os::unix::process::CommandExt;
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex, Weak};

/// What a guarded process is, for [`stop_commands`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A provider plugin: ends with ferro, or when its client closes it.
    Plugin,
    /// A provisioner's command: also ended when an apply is asked to stop.
    Command,
}

/// The guardian's script: `$1` is the group to kill. `read` returns on a line or at end of
/// file; only the line `release` spares the group.
const GUARDIAN: &str = "trap '' INT TERM HUP QUIT; IFS= read -r line; [ \"$line\" = release ] || kill -KILL \"-$1\" 2>/dev/null; exit 0";

struct Shared {
    writer: Option<std::io::PipeWriter>,
    kind: Kind,
}

static LIVE: Mutex<Vec<Weak<Mutex<Shared>>>> = Mutex::new(Vec::new());

/// Start `cmd`'s process in a group of its own (call before spawning it).
pub fn own_group(cmd: &mut Command) -> &mut Command {
    cmd.process_group(0)
}

/// The guardian of one child (spawned with [`own_group`], so its process id is its group's).
pub struct Guard {
    shared: Arc<Mutex<Shared>>,
    guardian: Option<Child>,
}

impl Guard {
    /// Watch the process group `pgid`: it is killed when ferro ends, unless released first.
    pub fn watch(pgid: u32, kind: Kind) -> std::io::Result<Guard> {
        let (reader, writer) = std::io::pipe()?;
        let mut sh = Command::new("/bin/sh");
        sh.args(["-c", GUARDIAN, "ferro-guard", &pgid.to_string()])
            .stdin(Stdio::from(reader))
            .stdout(Stdio::null())
            .stderr(Stdio::null());
        let guardian = own_group(&mut sh).spawn()?;
        let shared = Arc::new(Mutex::new(Shared {
            writer: Some(writer),
            kind,
        }));
        let mut live = LIVE.lock().unwrap_or_else(|e| e.into_inner());
        live.retain(|w| w.strong_count() > 0);
        live.push(Arc::downgrade(&shared));
        Ok(Guard {
            shared,
            guardian: Some(guardian),
        })
    }

    /// The child ended on its own: the guardian leaves its group alone.
    pub fn release(mut self) {
        tell(&self.shared, "release\n");
        self.reap();
    }

    /// Kill the child's group now.
    pub fn kill(&self) {
        tell(&self.shared, "kill\n");
    }

    fn reap(&mut self) {
        // Closing the pipe (if still open) lets the guardian finish; it exits at once.
        self.shared
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .writer
            .take();
        if let Some(mut g) = self.guardian.take() {
            let _ = g.wait();
        }
    }
}

impl Drop for Guard {
    /// Dropped without a release (the child's owner gave up on it): its group is killed.
    fn drop(&mut self) {
        self.reap();
    }
}

/// Write `line` to the guardian and close the pipe: it acts once.
fn tell(shared: &Mutex<Shared>, line: &str) {
    let mut s = shared.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(mut w) = s.writer.take() {
        let _ = w.write_all(line.as_bytes());
    }
}

fn kill_where(pick: impl Fn(Kind) -> bool) {
    let live = LIVE.lock().unwrap_or_else(|e| e.into_inner()).clone();
    for w in live {
        if let Some(s) = w.upgrade() {
            let kind = s.lock().unwrap_or_else(|e| e.into_inner()).kind;
            if pick(kind) {
                tell(&s, "kill\n");
            }
        }
    }
}

/// End every running provisioner command now (an apply asked to stop).
pub fn stop_commands() {
    kill_where(|k| k == Kind::Command);
}

/// End every process ferro started (a panic: nothing will wait for them).
pub fn kill_all() {
    kill_where(|_| true);
}
