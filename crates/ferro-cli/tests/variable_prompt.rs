//! Required root variables are asked for on a terminal, as Terraform asks (`var.NAME`, the
//! description, `Enter a value:`); with `-input=false` they are an error instead. The built
//! binary runs on a pseudo-terminal; every wait has a deadline.
#![cfg(target_os = "linux")]

use std::fs::File;
use std::io::{Read, Write};
use std::process::{Command, Stdio};
use std::sync::mpsc::channel;
use std::time::{Duration, Instant};

const CONFIG: &str = r#"variable "name" {
  type        = string
  description = "Who to greet"
}

variable "count_of" {
  type = number
}

output "greeting" {
  value = "hello ${var.name} x${var.count_of}"
}
"#;

/// Run `ferro ARGS` on a terminal, answer each prompt in turn, return what it showed and its
/// exit code.
fn on_terminal(dir: &std::path::Path, args: &[&str], answers: &[&str]) -> (String, i32) {
    let pty = ferro_term::open_pty(100, 30).expect("pseudo-terminal");
    let stream = || Stdio::from(pty.terminal.try_clone().expect("dup terminal"));
    let mut child = Command::new(env!("CARGO_BIN_EXE_ferro"))
        .args(args)
        .current_dir(dir)
        .stdin(stream())
        .stdout(stream())
        .stderr(stream())
        .spawn()
        .expect("start ferro");
    let mut keys = File::from(pty.controller.try_clone().expect("dup controller"));
    let mut reader = File::from(pty.controller.try_clone().expect("dup controller"));
    let (tx, rx) = channel();
    std::thread::spawn(move || {
        let mut buf = [0u8; 4096];
        while let Ok(n) = reader.read(&mut buf) {
            if n == 0 || tx.send(buf[..n].to_vec()).is_err() {
                break;
            }
        }
    });
    let mut seen = String::new();
    let deadline = Instant::now() + Duration::from_secs(30);
    let mut answered = 0;
    let code = loop {
        if answered < answers.len() && seen.matches("Enter a value: ").count() > answered {
            keys.write_all(format!("{}\n", answers[answered]).as_bytes())
                .expect("type");
            answered += 1;
        }
        if let Ok(Some(status)) = child.try_wait() {
            // Collect what is still in flight.
            while let Ok(bytes) = rx.recv_timeout(Duration::from_millis(200)) {
                seen.push_str(&String::from_utf8_lossy(&bytes));
            }
            break status.code().unwrap_or(-1);
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("ferro did not finish; the terminal shows:\n{seen}");
        }
        if let Ok(bytes) = rx.recv_timeout(Duration::from_millis(50)) {
            seen.push_str(&String::from_utf8_lossy(&bytes));
        }
    };
    (seen.replace("\r\n", "\n"), code)
}

#[test]
fn required_variables_are_asked_for_on_a_terminal() {
    // Asked in name order, as Terraform asks: count_of, then name.
    let dir = std::env::temp_dir().join(format!("ferro-variable-prompt-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("main.tf"), CONFIG).unwrap();

    let (shown, code) = on_terminal(&dir, &["plan", "-no-color"], &["3", "world"]);
    assert_eq!(code, 0, "{shown}");
    assert!(
        shown.contains("var.count_of\n  Enter a value: "),
        "prompt without a description: {shown}"
    );
    assert!(
        shown.contains("var.name\n  Who to greet\n\n  Enter a value: "),
        "prompt with the description: {shown}"
    );
    assert!(
        shown.contains("+ greeting = \"hello world x3\""),
        "the answers are used: {shown}"
    );

    let (shown, code) = on_terminal(&dir, &["plan", "-no-color", "-input=false"], &[]);
    assert_eq!(code, 1, "{shown}");
    assert!(!shown.contains("Enter a value"), "{shown}");
    assert!(shown.contains("No value for required variable"), "{shown}");
    let _ = std::fs::remove_dir_all(&dir);
}
