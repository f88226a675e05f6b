//! Every command's flags and `-help` text, in one table: `ferro COMMAND -help` (or `-h`,
//! `--help`) looks the command up here, and the commands parse their arguments with the same
//! `Spec`, so a flag cannot be accepted without being listed or listed without being accepted
//! (the tests below check both directions for every command).

pub(crate) mod core;
pub(crate) mod graph;
pub(crate) mod other;
pub(crate) mod state;

use crate::args::Spec;

/// Every command and subcommand with its spec, as typed after `ferro`.
pub(crate) const COMMANDS: &[(&str, &Spec)] = &[
    ("init", &core::INIT),
    ("validate", &core::VALIDATE),
    ("plan", &core::PLAN),
    ("apply", &core::APPLY),
    ("destroy", &core::DESTROY),
    ("console", &core::CONSOLE),
    ("fmt", &crate::cmd_fmt::FMT),
    ("force-unlock", &other::FORCE_UNLOCK),
    ("get", &other::GET),
    ("graph", &graph::GRAPH),
    ("import", &core::IMPORT),
    ("lsp", &other::LSP),
    ("output", &other::OUTPUT),
    ("providers", &other::PROVIDERS),
    ("providers lock", &other::PROVIDERS_LOCK),
    ("providers mirror", &other::PROVIDERS_MIRROR),
    ("providers schema", &other::PROVIDERS_SCHEMA),
    ("refresh", &core::REFRESH),
    ("show", &other::SHOW),
    ("state", &state::STATE),
    ("state list", &state::LIST),
    ("state mv", &state::MV),
    ("state pull", &state::PULL),
    ("state push", &state::PUSH),
    ("state replace-provider", &state::REPLACE_PROVIDER),
    ("state rm", &state::RM),
    ("state show", &state::SHOW),
    ("taint", &other::TAINT),
    ("untaint", &other::UNTAINT),
    ("version", &other::VERSION),
    ("workspace", &other::WORKSPACE),
    ("workspace delete", &other::WORKSPACE_DELETE),
    ("workspace list", &other::WORKSPACE_LIST),
    ("workspace new", &other::WORKSPACE_NEW),
    ("workspace select", &other::WORKSPACE_SELECT),
    ("workspace show", &other::WORKSPACE_SHOW),
];

/// The help of `command` run with `args`: a subcommand's own when the first argument names
/// one (`state list`), else the command's (`state bogus` gets `state`'s, as in Terraform).
/// None for a command ferro does not have.
pub(crate) fn help_for(command: &str, args: &[String]) -> Option<&'static str> {
    let find = |name: &str| {
        COMMANDS
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, s)| s.help)
    };
    args.first()
        .and_then(|sub| find(&format!("{command} {sub}")))
        .or_else(|| find(command))
}

/// The first line of a help text (`Usage: ferro ...`), which some commands print on errors.
pub(crate) fn usage_line(help: &str) -> &str {
    help.lines().next().unwrap_or(help)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Flags every command takes, handled before the command's own parser.
    const GLOBAL_FLAGS: &[&str] = &["no-color", "chdir", "v", "version"];

    /// The `-flag` names a help text mentions: a dash at the start of a word followed by a
    /// lowercase letter, up to the first character that cannot be in a flag name.
    fn flags_named(help: &str) -> Vec<String> {
        let bytes = help.as_bytes();
        let mut out = Vec::new();
        for (i, _) in help.match_indices('-') {
            let starts_word = i == 0 || matches!(bytes[i - 1], b' ' | b'\n' | b'(' | b'"' | b'\'');
            if !starts_word {
                continue;
            }
            let name: String = help[i + 1..]
                .chars()
                .take_while(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || *c == '-')
                .collect();
            if name.starts_with(|c: char| c.is_ascii_lowercase()) {
                out.push(name.trim_end_matches('-').to_string());
            }
        }
        out
    }

    /// Whether `command`'s own parser accepts `-flag` (with or without a value).
    fn parser_accepts(command: &str, spec: &Spec, flag: &str) -> bool {
        let args = vec![format!("-{flag}")];
        let result = match command {
            "fmt" => crate::cmd_fmt::parse_flags(&args).map(|_| ()),
            "graph" => graph::parse_flags(&args).map(|_| ()),
            // The language server ignores its arguments.
            "lsp" => Ok(()),
            _ => spec.parse(&args).map(|_| ()),
        };
        match result {
            Ok(()) => true,
            Err(e) => !e.contains("not defined"),
        }
    }

    #[test]
    fn every_accepted_flag_is_in_the_help() {
        for (command, spec) in COMMANDS {
            let named = flags_named(spec.help);
            for flag in spec.bools.iter().chain(spec.values) {
                assert!(
                    named.iter().any(|n| n == flag),
                    "`ferro {command} -help` does not list -{flag}, which it accepts"
                );
                assert!(
                    parser_accepts(command, spec, flag),
                    "`ferro {command}` lists -{flag} in its spec but its parser rejects it"
                );
            }
        }
    }

    #[test]
    fn every_flag_in_the_help_is_accepted() {
        for (command, spec) in COMMANDS {
            for flag in flags_named(spec.help) {
                assert!(
                    GLOBAL_FLAGS.contains(&flag.as_str()) || parser_accepts(command, spec, &flag),
                    "`ferro {command} -help` names -{flag}, which its parser rejects"
                );
            }
        }
    }

    #[test]
    fn every_help_starts_with_its_usage_line() {
        for (command, spec) in COMMANDS {
            let prefix = format!("Usage: ferro [global options] {command}");
            assert!(
                usage_line(spec.help).starts_with(&prefix),
                "`ferro {command} -help` does not start with {prefix:?}"
            );
        }
    }

    #[test]
    fn every_listed_command_has_help() {
        let listed: Vec<&str> = crate::USAGE
            .lines()
            .skip_while(|l| !l.starts_with("Common commands:"))
            .take_while(|l| !l.starts_with("Global options"))
            .filter(|l| l.starts_with("  "))
            .filter_map(|l| l.split_whitespace().next())
            .collect();
        assert!(listed.len() > 20, "{listed:?}");
        for command in listed {
            assert!(help_for(command, &[]).is_some(), "no help for {command}");
        }
    }

    #[test]
    fn subcommands_pick_their_own_help() {
        let args = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(
            help_for("state", &args(&["list", "-help"])),
            Some(state::LIST.help)
        );
        assert_eq!(
            help_for("state", &args(&["bogus"])),
            Some(state::STATE.help)
        );
        assert_eq!(
            help_for("state", &args(&["-help", "list"])),
            Some(state::STATE.help)
        );
        assert_eq!(
            help_for("fmt", &args(&["dir"])),
            Some(crate::cmd_fmt::FMT.help)
        );
        assert_eq!(help_for("frobnicate", &[]), None);
    }

    #[test]
    fn help_wins_over_every_other_argument() {
        let dir = std::env::temp_dir();
        for (command, spec) in COMMANDS {
            let mut args: Vec<String> = command.split(' ').map(String::from).collect();
            args.extend(["-no-such-flag".to_string(), "-help".to_string()]);
            let (mut out, mut err) = (Vec::new(), Vec::new());
            let code = crate::run(
                &args,
                &dir,
                &mut crate::Io {
                    stdout: &mut out,
                    stderr: &mut err,
                    stdin: None,
                },
            );
            assert_eq!(code, 0, "ferro {command} -help");
            assert!(err.is_empty(), "ferro {command} -help wrote to stderr");
            let text = String::from_utf8(out).unwrap();
            assert_eq!(
                text.trim_end(),
                spec.help.trim_end(),
                "ferro {command} -help"
            );
        }
    }
}
