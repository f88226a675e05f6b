//! `ferro console` on a terminal: the built binary runs on a pseudo-terminal, keys are typed
//! into it (edits, history recall, Ctrl-C, Ctrl-L, Ctrl-D) and the evaluated results must
//! appear. Every wait has a deadline, and the child is killed when a test fails.
#![cfg(target_os = "linux")]

use std::fs::File;
use std::io::{Read, Write};
use std::os::fd::AsFd;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{channel, Receiver};
use std::time::{Duration, Instant};

const WAIT: Duration = Duration::from_secs(20);

const UP: &str = "\x1b[A";
const DOWN: &str = "\x1b[B";
const LEFT: &str = "\x1b[D";
const RIGHT: &str = "\x1b[C";
const DELETE: &str = "\x1b[3~";
/// How the console draws its prompt on an empty line.
const EMPTY_PROMPT: &str = "\r\x1b[J> \r\x1b[2C";

/// A running `ferro console` on a pseudo-terminal, and everything it wrote so far.
struct Console {
    child: Child,
    keys: File,
    terminal: ferro_term::Pty,
    output: Receiver<Vec<u8>>,
    seen: Vec<u8>,
    /// How much of `seen` earlier expectations consumed.
    pos: usize,
    dir: PathBuf,
}

impl Console {
    fn start(name: &str) -> Console {
        let dir =
            std::env::temp_dir().join(format!("ferro-console-tty-{name}-{}", std::process::id()));
        copy_fixture(&dir);
        let pty = ferro_term::open_pty(80, 24).expect("pseudo-terminal");
        let stream = || Stdio::from(pty.terminal.try_clone().expect("dup terminal"));
        let child = Command::new(env!("CARGO_BIN_EXE_ferro"))
            .args(["console", "-no-color"])
            .current_dir(&dir)
            .stdin(stream())
            .stdout(stream())
            .stderr(stream())
            .spawn()
            .expect("start ferro");
        let keys = File::from(pty.controller.try_clone().expect("dup controller"));
        let mut reader = File::from(pty.controller.try_clone().expect("dup controller"));
        let (tx, output) = channel();
        std::thread::spawn(move || {
            let mut buf = [0u8; 4096];
            // Ends when the terminal goes away or the test is over (the receiver is dropped).
            while let Ok(n) = reader.read(&mut buf) {
                if n == 0 || tx.send(buf[..n].to_vec()).is_err() {
                    break;
                }
            }
        });
        Console {
            child,
            keys,
            terminal: pty,
            output,
            seen: Vec::new(),
            pos: 0,
            dir,
        }
    }

    fn transcript(&self) -> String {
        String::from_utf8_lossy(&self.seen)
            .escape_debug()
            .to_string()
    }

    /// Wait until `text` appears after what earlier expectations consumed.
    fn expect(&mut self, text: &str) {
        let deadline = Instant::now() + WAIT;
        loop {
            if let Some(at) = find(&self.seen[self.pos..], text.as_bytes()) {
                self.pos += at + text.len();
                return;
            }
            let left = deadline.saturating_duration_since(Instant::now());
            match self.output.recv_timeout(left) {
                Ok(bytes) => self.seen.extend(bytes),
                Err(_) => panic!(
                    "timed out waiting for {:?}; the terminal shows:\n{}",
                    text.escape_debug().to_string(),
                    self.transcript()
                ),
            }
        }
    }

    /// Wait for a new, empty prompt. Its drawing (erase to the end of the screen, the prompt,
    /// the cursor put back after it) is written once the terminal is in raw mode, so keys
    /// typed after it are read by the line editor, not echoed by the terminal. A bare "> "
    /// would also match text such as "<console-input> line 1" in a diagnostic printed before
    /// the prompt, while the terminal is still in its normal mode.
    fn expect_prompt(&mut self) {
        self.expect(EMPTY_PROMPT);
    }

    fn type_keys(&mut self, keys: &str) {
        self.keys.write_all(keys.as_bytes()).expect("type");
        self.keys.flush().expect("type");
    }

    /// Type a line's keys and wait for the result line that follows it.
    fn eval(&mut self, keys: &str, result: &str) {
        self.expect_prompt();
        self.type_keys(keys);
        self.expect(&format!("\r\n{result}\r\n"));
    }

    /// Wait for the console to exit; its exit status.
    fn wait_exit(&mut self) -> i32 {
        let deadline = Instant::now() + WAIT;
        loop {
            if let Some(status) = self.child.try_wait().expect("wait") {
                return status.code().unwrap_or(-1);
            }
            if Instant::now() > deadline {
                panic!(
                    "ferro console did not exit; the terminal shows:\n{}",
                    self.transcript()
                );
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// The terminal is back in its normal (canonical, echoing) mode.
    fn assert_terminal_restored(&self) {
        assert!(
            ferro_term::is_canonical(self.terminal.terminal.as_fd()).expect("terminal mode"),
            "terminal left in raw mode"
        );
    }
}

impl Drop for Console {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

fn copy_fixture(dst: &Path) {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata/console/fixture");
    std::fs::create_dir_all(dst).expect("temp dir");
    for e in std::fs::read_dir(src).expect("fixture").flatten() {
        if e.path().is_file() {
            std::fs::copy(e.path(), dst.join(e.file_name())).expect("copy fixture");
        }
    }
}

#[test]
fn editing_history_and_results() {
    let mut c = Console::start("edit");
    c.eval("1 + 2\r", "3");
    // Home/End with Ctrl-A/Ctrl-E: wrap a string in a call.
    c.eval("\"hello\"\x01upper(\x05)\r", "\"HELLO\"");
    // Arrows, Backspace and Delete: "10 - 7" becomes "10 +7".
    c.eval(&format!("10 - 7{LEFT}{LEFT}\x7f+{DELETE}\r"), "17");
    // Ctrl-B/Ctrl-F move by a character: "2*3" becomes "20*3".
    c.eval("2*3\x02\x020\x06\r", "60");
    // Ctrl-U, Ctrl-W and Ctrl-K kill.
    c.eval("garbage\x15var.name\r", "\"world\"");
    c.eval("upper(var.name) junk\x17\r", "\"WORLD\"");
    c.eval(&format!("length(var.nums)XYZ{LEFT}{LEFT}{LEFT}\x0b\r"), "3");
    // UTF-8 text, moved over by character.
    c.eval(
        &format!("upper(\"hllo\"){LEFT}{LEFT}{LEFT}{LEFT}{LEFT}é{RIGHT}\r"),
        "\"HÉLLO\"",
    );
    // History: Up recalls the previous line; four times back is "var.name", edited.
    c.eval(&format!("{UP}{UP}\r"), "3");
    c.eval(
        &format!("{UP}{UP}{UP}{UP}{UP}{DOWN}\x10\x05 == \"world\"\r"),
        "true",
    );
    // Down past the newest entry returns to the line being typed.
    c.eval(&format!("40 + {UP}{DOWN}2\r"), "42");
    // An error is reported and the session goes on.
    c.expect_prompt();
    c.type_keys("upper([])\r");
    c.expect("Invalid function argument");
    c.eval("7\r", "7");
    // Ctrl-C abandons the line; Ctrl-L clears the screen.
    c.expect_prompt();
    c.type_keys("junk\x03");
    c.expect("^C\r\n");
    c.eval("2 + 2\r", "4");
    c.expect_prompt();
    c.type_keys("\x0c");
    c.expect("\x1b[H\x1b[2J");
    c.type_keys("5\r");
    c.expect("\r\n5\r\n");
    // Ctrl-D on an empty line ends the session as `exit`.
    c.expect_prompt();
    c.type_keys("\x04");
    c.expect("exit\r\n");
    assert_eq!(c.wait_exit(), 0);
    c.assert_terminal_restored();
}

#[test]
fn exit_and_interrupt_end_the_session() {
    let mut c = Console::start("exit");
    c.eval("\"a\\nb\"\r", "<<EOT\r\na\r\nb\r\nEOT");
    c.expect_prompt();
    c.type_keys("exit\r");
    assert_eq!(c.wait_exit(), 0);
    c.assert_terminal_restored();

    // Ctrl-C on an empty line ends the session too (as Terraform's console does).
    let mut c = Console::start("interrupt");
    c.eval("var.nums[0]\r", "1");
    c.expect_prompt();
    c.type_keys("\x03");
    c.expect("^C\r\n");
    assert_eq!(c.wait_exit(), 0);
    c.assert_terminal_restored();
}
