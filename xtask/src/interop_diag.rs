//! `diagnostics`: ferro's diagnostics against Terraform 1.0.3's on small configurations that use
//! the real `hashicorp/vsphere` 2.0.2 and `terraform-lxd/lxd` 1.5.0 plugins (from the mirror
//! `tools/fetch-oracles.sh` lays out; no vSphere or LXD server is needed).
//!
//! Every directory under `testdata/interop/diag/` is a case: its files are copied into one
//! working directory per tool and the commands of its `steps` file (one per line; by default
//! `init`, `validate -json`, `providers`, `providers schema -json`) are run by both. The
//! comparison, per command:
//! * every command: the exit code;
//! * `validate -json`: `valid`, the counts, and every diagnostic's severity, summary, detail and
//!   range, as a multiset (Terraform reports some in the random order of Go maps);
//! * `providers`: the tree it prints; `providers schema -json`: the whole document;
//! * anything else (`init`, `plan`): the diagnostics of the human output, each as its heading
//!   (`Error: Summary`) and its `on FILE line N` line, as a multiset.

use crate::interop::{Env, Tool};
use serde_json::Value as J;
use std::path::{Path, PathBuf};
use std::process::Command;

const DEFAULT_STEPS: &[&str] = &[
    "init",
    "validate -json",
    "providers",
    "providers schema -json",
];

fn cases_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .map(Path::to_path_buf)
        .unwrap_or_default()
        .join("testdata/interop/diag")
}

/// A CLI configuration installing the real plugins and hashicorp/null from their mirrors.
fn cli_config(env: &Env) -> Result<PathBuf, String> {
    let path = env.work.join("diag-terraformrc");
    std::fs::write(
        &path,
        format!(
            "provider_installation {{\n  filesystem_mirror {{\n    path = \"{}\"\n  }}\n  filesystem_mirror {{\n    path = \"{}\"\n  }}\n}}\n",
            env.oracles.plugins.display(),
            env.oracles.mirror.display()
        ),
    )
    .map_err(|e| e.to_string())?;
    Ok(path)
}

fn copy_tree(from: &Path, to: &Path) -> Result<(), String> {
    std::fs::create_dir_all(to).map_err(|e| e.to_string())?;
    for entry in std::fs::read_dir(from).map_err(|e| e.to_string())? {
        let entry = entry.map_err(|e| e.to_string())?;
        let path = entry.path();
        let name = entry.file_name();
        if path.is_dir() {
            copy_tree(&path, &to.join(&name))?;
        } else if name != "steps" {
            std::fs::copy(&path, to.join(&name)).map_err(|e| e.to_string())?;
        }
    }
    Ok(())
}

struct Run {
    code: i32,
    stdout: String,
    stderr: String,
}

fn run(env: &Env, config: &Path, tool: Tool, dir: &Path, args: &[&str]) -> Run {
    let bin = match tool {
        Tool::Terraform => &env.oracles.terraform,
        Tool::Ferro => &env.ferro,
    };
    let mut full: Vec<&str> = args.to_vec();
    if matches!(args.first(), Some(&("init" | "plan"))) {
        full.extend(["-no-color", "-input=false"]);
    } else if args == ["providers"] {
        full.push("-no-color");
    }
    let out = Command::new(bin)
        .args(&full)
        .current_dir(dir)
        .env("TF_CLI_CONFIG_FILE", config)
        .env("TF_IN_AUTOMATION", "1")
        .env("CHECKPOINT_DISABLE", "1")
        .env_remove("TF_LOG")
        .env_remove("VSPHERE_SERVER")
        .env_remove("VSPHERE_USER")
        .env_remove("VSPHERE_PASSWORD")
        .output();
    match out {
        Ok(o) => Run {
            code: o.status.code().unwrap_or(-1),
            stdout: String::from_utf8_lossy(&o.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&o.stderr).into_owned(),
        },
        Err(e) => Run {
            code: -1,
            stdout: String::new(),
            stderr: format!("cannot run {}: {e}", bin.display()),
        },
    }
}

/// The diagnostics of `validate -json` as comparable lines, sorted.
fn validate_lines(text: &str) -> Result<Vec<String>, String> {
    let v: J = serde_json::from_str(text).map_err(|e| format!("not JSON ({e}):\n{text}"))?;
    let mut out = vec![format!(
        "valid={} errors={} warnings={}",
        v["valid"], v["error_count"], v["warning_count"]
    )];
    let mut diags: Vec<String> = v["diagnostics"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|d| {
            let r = &d["range"];
            let range = if r.is_null() {
                "no range".to_string()
            } else {
                format!(
                    "{}:{},{}-{},{} (bytes {}-{})",
                    r["filename"].as_str().unwrap_or_default(),
                    r["start"]["line"],
                    r["start"]["column"],
                    r["end"]["line"],
                    r["end"]["column"],
                    r["start"]["byte"],
                    r["end"]["byte"]
                )
            };
            format!(
                "{}: {} @ {range}\n    {}",
                d["severity"].as_str().unwrap_or_default(),
                d["summary"].as_str().unwrap_or_default(),
                d["detail"].as_str().unwrap_or_default()
            )
        })
        .collect();
    diags.sort();
    out.extend(diags);
    Ok(out)
}

/// The diagnostics of human output, each as `Error: Summary (FILE line N)`: Terraform's
/// heading is followed by `on FILE line N`, ferro's (`[code] Error: Summary`, drawn by ariadne)
/// by `,-[ FILE:N:COL ]`.
fn human_lines(text: &str) -> Vec<String> {
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    for (i, raw) in lines.iter().enumerate() {
        let l = raw.trim_start_matches(['│', '╷', ' ']);
        let heading = ["Error: ", "Warning: "].iter().find_map(|w| {
            if l.starts_with(w) {
                return Some(l);
            }
            // ferro: `[code] Error: …`.
            let at = l.find(&format!("] {w}"))?;
            l[..at].rfind('[').map(|_| &l[at + 2..])
        });
        let Some(heading) = heading else { continue };
        let next = |k: usize| {
            lines
                .get(i + k)
                .map(|n| n.trim_start_matches(['│', ' ', '|']))
        };
        let at = if let Some(n) = next(2).filter(|n| n.starts_with("on ")) {
            Some(match n.find(", in ") {
                Some(cut) => n[3..cut].to_string(),
                None => n[3..].trim_end_matches(':').to_string(),
            })
        } else {
            next(1)
                .and_then(|n| n.strip_prefix(",-[ "))
                .and_then(|n| n.trim_end_matches([' ', ']']).rsplit_once(':'))
                .and_then(|(file_line, _col)| file_line.rsplit_once(':'))
                .map(|(file, line)| format!("{file} line {line}"))
        };
        out.push(match at {
            Some(at) => format!("{heading} ({at})"),
            // Without a range the detail is all there is to compare: Terraform's paragraph
            // (wrapped) after a blank line, ferro's indented lines (after the address line).
            None => {
                let rest = lines.iter().skip(i + 1);
                let detail: Vec<&str> = if next(1) == Some("") {
                    rest.skip(1)
                        .map(|l| l.trim_start_matches(['│', ' ']))
                        .take_while(|l| !l.is_empty())
                        .collect()
                } else {
                    rest.take_while(|l| l.starts_with("    "))
                        .map(|l| l.trim())
                        .filter(|l| !l.starts_with("in "))
                        .collect()
                };
                format!("{heading}: {}", detail.join(" "))
            }
        });
    }
    out.sort();
    out
}

/// What a command's output is compared by.
fn comparable(args: &[&str], r: &Run) -> Result<Vec<String>, String> {
    let mut out = vec![format!("exit {}", r.code)];
    match args {
        [.., "-json"] if args.first() == Some(&"validate") => {
            out.extend(validate_lines(&r.stdout)?)
        }
        // The tree of required providers, each module's in any order (Terraform prints them
        // in the order of a Go map).
        ["providers"] if r.code == 0 => {
            let mut lines: Vec<String> = r
                .stdout
                .lines()
                .map(|l| l.replace("├── ", "└── "))
                .collect();
            lines.sort();
            out.extend(lines);
        }
        ["providers", "schema", "-json"] => {
            if r.code == 0 {
                let v: J = serde_json::from_str(&r.stdout)
                    .map_err(|e| format!("providers schema -json: not JSON ({e})"))?;
                out.extend(
                    serde_json::to_string_pretty(&v)
                        .unwrap_or_default()
                        .lines()
                        .map(str::to_string),
                );
            }
        }
        _ => out.extend(human_lines(&format!("{}\n{}", r.stdout, r.stderr))),
    }
    Ok(out)
}

/// The lines of `a` and `b` that differ, with a few lines of context.
fn diff(a: &[String], b: &[String]) -> String {
    let mut out = String::new();
    let first = a.iter().zip(b).take_while(|(x, y)| x == y).count();
    let from = first.saturating_sub(3);
    let tail = a[first..]
        .iter()
        .rev()
        .zip(b[first..].iter().rev())
        .take_while(|(x, y)| x == y)
        .count();
    for l in &a[from..first] {
        out.push_str(&format!("  {l}\n"));
    }
    // A schema document that only one tool printed would fill the screen: 30 lines a side.
    for (sign, lines) in [
        ('-', &a[first..a.len() - tail]),
        ('+', &b[first..b.len() - tail]),
    ] {
        for l in lines.iter().take(30) {
            out.push_str(&format!("{sign} {l}\n"));
        }
        if lines.len() > 30 {
            out.push_str(&format!("{sign} … ({} more lines)\n", lines.len() - 30));
        }
    }
    out
}

fn run_case(env: &Env, config: &Path, case: &Path) -> Result<(), String> {
    let name = case.file_name().unwrap_or_default().to_string_lossy();
    let steps_text = std::fs::read_to_string(case.join("steps")).unwrap_or_default();
    let steps: Vec<&str> = match steps_text.lines().filter(|l| !l.trim().is_empty()).count() {
        0 => DEFAULT_STEPS.to_vec(),
        _ => steps_text
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty() && !l.starts_with('#'))
            .collect(),
    };
    let mut dirs = Vec::new();
    for tool in [Tool::Terraform, Tool::Ferro] {
        let d = env.work.join("diag").join(&*name).join(tool.name());
        let _ = std::fs::remove_dir_all(&d);
        copy_tree(case, &d)?;
        dirs.push(d);
    }
    let mut problems = String::new();
    for step in steps {
        let args: Vec<&str> = step.split_whitespace().collect();
        let tf = run(env, config, Tool::Terraform, &dirs[0], &args);
        let fe = run(env, config, Tool::Ferro, &dirs[1], &args);
        let (a, b) = (comparable(&args, &tf)?, comparable(&args, &fe));
        let b = b.map_err(|e| format!("{name}: ferro {step}: {e}"))?;
        if a != b {
            problems.push_str(&format!(
                "{name}: `{step}` differs (- terraform, + ferro):\n{}",
                diff(&a, &b)
            ));
        }
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(problems)
    }
}

/// Every case of `testdata/interop/diag/`, each run by both tools.
pub fn diagnostics(env: &Env) -> Result<(), String> {
    let config = cli_config(env)?;
    let mut cases: Vec<PathBuf> = std::fs::read_dir(cases_dir())
        .map_err(|e| format!("cannot read {}: {e}", cases_dir().display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_dir())
        .collect();
    cases.sort();
    if let Ok(only) = std::env::var("FERRO_DIAG_CASE") {
        cases.retain(|c| c.to_string_lossy().contains(&only));
    }
    let mut failures = Vec::new();
    for case in &cases {
        if let Err(e) = run_case(env, &config, case) {
            failures.push(e);
        }
    }
    if failures.is_empty() {
        Ok(())
    } else {
        Err(failures.join("\n"))
    }
}

pub const SCENARIOS: &[crate::interop::Scenario] = &[("diagnostics", diagnostics)];

#[cfg(test)]
mod tests {
    use super::human_lines;

    #[test]
    fn both_tools_human_diagnostics_read_alike() {
        let terraform = "\nError: Missing required argument\n\n  on main.tf line 10, in provider \"vsphere\":\n  10: provider \"vsphere\" {\n\nThe argument \"password\" is required.\n\nError: Missing required argument\n\nThe argument \"user\" is required, but\nwas not set.\n";
        let ferro = "[missing-argument] Error: Missing required argument\n    ,-[ main.tf:10:20 ]\n    |\n\n[provider-config] Error: Missing required argument\n    in provider[\"registry.terraform.io/hashicorp/vsphere\"]\n    The argument \"user\" is required, but was not set.\n";
        let want = vec![
            "Error: Missing required argument (main.tf line 10)".to_string(),
            "Error: Missing required argument: The argument \"user\" is required, but was not set."
                .to_string(),
        ];
        assert_eq!(human_lines(terraform), want);
        assert_eq!(human_lines(ferro), want);
    }
}
