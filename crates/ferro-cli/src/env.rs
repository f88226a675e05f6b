//! The environment variables commands read (`TF_VAR_name`), with per-thread additions: the
//! golden runner and other tests run several CLIs in one process, where the process
//! environment is shared, so a case's variables are given to its thread only.

use std::cell::RefCell;

thread_local! {
    static EXTRA: RefCell<Vec<(String, String)>> = const { RefCell::new(Vec::new()) };
}

/// Run `f` with `vars` added to (and taking precedence over) the process environment, as
/// commands on this thread see it.
pub fn with_env<R>(vars: &[(String, String)], f: impl FnOnce() -> R) -> R {
    let saved = EXTRA.with(|e| std::mem::replace(&mut *e.borrow_mut(), vars.to_vec()));
    struct Restore(Option<Vec<(String, String)>>);
    impl Drop for Restore {
        fn drop(&mut self) {
            if let Some(v) = self.0.take() {
                EXTRA.with(|e| *e.borrow_mut() = v);
            }
        }
    }
    let _restore = Restore(Some(saved));
    f()
}

/// Every environment variable, the thread's additions included.
pub(crate) fn vars() -> Vec<(String, String)> {
    let extra = EXTRA.with(|e| e.borrow().clone());
    let mut out: Vec<(String, String)> = std::env::vars()
        .filter(|(k, _)| !extra.iter().any(|(n, _)| n == k))
        .collect();
    out.extend(extra);
    out
}

/// One environment variable, the thread's additions included.
pub(crate) fn var(name: &str) -> Option<String> {
    EXTRA
        .with(|e| {
            e.borrow()
                .iter()
                .rev()
                .find(|(n, _)| n == name)
                .map(|(_, v)| v.clone())
        })
        .or_else(|| std::env::var(name).ok())
}

/// Whether `TF_IN_AUTOMATION` is set (to anything but the empty string): as in Terraform, the
/// text that suggests the next command to a person at a terminal is left out (`init`'s
/// "You may now begin working…", the plan's closing note on `-out` or its saved file).
pub(crate) fn in_automation() -> bool {
    var("TF_IN_AUTOMATION").is_some_and(|v| !v.is_empty())
}

/// Whether a command may ask for input: not with `-input=false`, nor when `TF_INPUT` holds a
/// false value (`0`, `false`, as Go reads booleans), as in Terraform.
pub(crate) fn input_enabled(p: &crate::args::Parsed) -> bool {
    p.bools.get("input") != Some(&false)
        && var("TF_INPUT")
            .and_then(|v| crate::args::go_bool(&v))
            .unwrap_or(true)
}

/// The command line with the arguments of `TF_CLI_ARGS` and `TF_CLI_ARGS_<command>` merged in,
/// as Terraform merges them: each inserted right after the (sub)command's name, the
/// command-specific ones first (`state list` reads `TF_CLI_ARGS_state_list`). `rest` is the
/// command line after the global options.
pub(crate) fn merge_cli_args(rest: Vec<String>) -> Result<Vec<String>, String> {
    let Some(cmd) = rest.first() else {
        return Ok(rest);
    };
    let mut words = vec![cmd.clone()];
    if matches!(cmd.as_str(), "state" | "workspace" | "providers") {
        if let Some(sub) = rest.get(1).filter(|s| !s.starts_with('-')) {
            words.push(sub.clone());
        }
    }
    let suffix = words.join("_").replace('-', "_");
    let mut args = merge_one("TF_CLI_ARGS", &words, rest)?;
    args = merge_one(&format!("TF_CLI_ARGS_{suffix}"), &words, args)?;
    Ok(args)
}

fn merge_one(name: &str, words: &[String], args: Vec<String>) -> Result<Vec<String>, String> {
    let Some(v) = var(name).filter(|v| !v.is_empty()) else {
        return Ok(args);
    };
    let extra = crate::args::shell_words(&v)
        .map_err(|e| format!("Error parsing extra CLI args from {name}: {e}"))?;
    // Right after the first argument naming the (last word of the) command.
    let last = words.last().map(String::as_str).unwrap_or_default();
    let at = args.iter().position(|a| a == last).map_or(0, |i| i + 1);
    let mut out = Vec::with_capacity(args.len() + extra.len());
    out.extend_from_slice(&args[..at]);
    out.extend(extra);
    out.extend_from_slice(&args[at..]);
    Ok(out)
}
