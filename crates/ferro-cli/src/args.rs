//! Terraform-style command-line flags: a single dash (a double dash is accepted too),
//! `-name=value` or `-name value` for valued flags, `-name` or `-name=true|false` for booleans;
//! and `Spec`, a command's flags together with the help text that lists them.

use std::collections::BTreeMap;

#[derive(Debug, Default)]
pub struct Parsed {
    pub bools: BTreeMap<&'static str, bool>,
    pub values: BTreeMap<&'static str, Vec<String>>,
    pub positional: Vec<String>,
}

impl Parsed {
    pub fn flag(&self, name: &str) -> bool {
        self.bools.get(name).copied().unwrap_or(false)
    }
    pub fn value(&self, name: &str) -> Option<&str> {
        self.values
            .get(name)
            .and_then(|v| v.last())
            .map(String::as_str)
    }
    pub fn all(&self, name: &str) -> &[String] {
        self.values.get(name).map(Vec::as_slice).unwrap_or(&[])
    }
}

/// What a command accepts and how its `-help` describes it. The flag lists are what the parser
/// accepts; the help text names exactly those flags (checked by `spec::tests`).
pub struct Spec {
    /// Flags without a value (`-name`, `-name=true|false`).
    pub bools: &'static [&'static str],
    /// Flags with a value (`-name=value`, `-name value`); they may be repeated.
    pub values: &'static [&'static str],
    /// The text `ferro COMMAND -help` prints.
    pub help: &'static str,
}

impl Spec {
    pub fn parse(&self, args: &[String]) -> Result<Parsed, String> {
        parse(args, self.bools, self.values)
    }

    /// Whether `name` (without its dash) is one of the flags.
    pub fn has(&self, name: &str) -> bool {
        self.bools.contains(&name) || self.values.contains(&name)
    }
}

/// Whether the arguments ask for help: `-h`, `-help` or `--help` anywhere before a `--`
/// (after it every argument is positional), as Terraform decides before running a command.
pub fn wants_help(args: &[String]) -> bool {
    args.iter()
        .take_while(|a| *a != "--")
        .any(|a| matches!(a.as_str(), "-h" | "-help" | "--help"))
}

/// Parse `args` against the accepted flag names. Unknown flags are an error naming the flag.
pub fn parse(
    args: &[String],
    bool_flags: &[&'static str],
    value_flags: &[&'static str],
) -> Result<Parsed, String> {
    let mut out = Parsed::default();
    let mut i = 0;
    let mut only_positional = false;
    while i < args.len() {
        let a = &args[i];
        i += 1;
        if only_positional || !a.starts_with('-') || a == "-" {
            out.positional.push(a.clone());
            continue;
        }
        if a == "--" {
            only_positional = true;
            continue;
        }
        let body = a.trim_start_matches('-');
        let (name, inline) = match body.split_once('=') {
            Some((n, v)) => (n, Some(v.to_string())),
            None => (body, None),
        };
        if let Some(&n) = bool_flags.iter().find(|f| **f == name) {
            let v = match inline.as_deref() {
                None | Some("true") | Some("1") => true,
                Some("false") | Some("0") => false,
                Some(other) => return Err(format!("invalid boolean value {other:?} for -{n}")),
            };
            out.bools.insert(n, v);
        } else if let Some(&n) = value_flags.iter().find(|f| **f == name) {
            let v = match inline {
                Some(v) => v,
                None => {
                    let Some(v) = args.get(i) else {
                        return Err(format!("flag needs an argument: -{n}"));
                    };
                    i += 1;
                    v.clone()
                }
            };
            out.values.entry(n).or_default().push(v);
        } else {
            return Err(format!("flag provided but not defined: -{name}"));
        }
    }
    Ok(out)
}

/// An argument as Go's `flag` package reads it (the commands whose flags Terraform parses that
/// way, `fmt` and `graph`, where flags end at the first argument that is not one): the flag's
/// name and its `=value` for `-name`, `--name`, `-name=value`; None for an argument that ends
/// the flags (a path, `-`). `--` is the caller's to check.
pub fn go_flag(a: &str) -> Option<(&str, Option<&str>)> {
    if a.len() < 2 || !a.starts_with('-') {
        return None;
    }
    let body = a.strip_prefix("--").unwrap_or(&a[1..]);
    Some(match body.split_once('=') {
        Some((n, v)) => (n, Some(v)),
        None => (body, None),
    })
}

/// Split `s` into words as a POSIX shell would, without expansions: blanks separate words,
/// single quotes keep everything literally, double quotes keep everything but `\"`, `\\`
/// (and `\$`, `` \` ``), and a backslash outside quotes escapes the next character.
pub fn shell_words(s: &str) -> Result<Vec<String>, String> {
    let mut words = Vec::new();
    let mut cur = String::new();
    let mut in_word = false;
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        match c {
            ' ' | '\t' | '\n' | '\r' => {
                if in_word {
                    words.push(std::mem::take(&mut cur));
                    in_word = false;
                }
            }
            '\'' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('\'') => break,
                        Some(ch) => cur.push(ch),
                        None => return Err("unterminated single-quoted string".into()),
                    }
                }
            }
            '"' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('"') => break,
                        Some('\\') => match chars.next() {
                            Some(ch @ ('"' | '\\' | '$' | '`')) => cur.push(ch),
                            Some(ch) => {
                                cur.push('\\');
                                cur.push(ch);
                            }
                            None => return Err("unterminated double-quoted string".into()),
                        },
                        Some(ch) => cur.push(ch),
                        None => return Err("unterminated double-quoted string".into()),
                    }
                }
            }
            '\\' => {
                in_word = true;
                match chars.next() {
                    Some(ch) => cur.push(ch),
                    None => return Err("a backslash ends the text".into()),
                }
            }
            ch => {
                in_word = true;
                cur.push(ch);
            }
        }
    }
    if in_word {
        words.push(cur);
    }
    Ok(words)
}

/// Go's `strconv.ParseBool`.
pub fn go_bool(v: &str) -> Option<bool> {
    match v {
        "1" | "t" | "T" | "true" | "TRUE" | "True" => Some(true),
        "0" | "f" | "F" | "false" | "FALSE" | "False" => Some(false),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shell_words_split_as_a_shell_would() {
        assert_eq!(
            shell_words(r#" -var 'a=b c' -var="x \"y\"" plain\ word "" "#).unwrap(),
            ["-var", "a=b c", r#"-var=x "y""#, "plain word", ""]
        );
        assert!(shell_words("-var 'open").is_err());
        assert!(shell_words("\"open").is_err());
        assert_eq!(shell_words("   ").unwrap(), Vec::<String>::new());
    }

    fn s(v: &[&str]) -> Vec<String> {
        v.iter().map(|x| x.to_string()).collect()
    }

    #[test]
    fn single_and_double_dash() {
        let p = parse(
            &s(&[
                "-auto-approve",
                "--out=plan",
                "-var",
                "a=1",
                "-var=b=2",
                "file",
            ]),
            &["auto-approve"],
            &["out", "var"],
        )
        .unwrap();
        assert!(p.flag("auto-approve"));
        assert_eq!(p.value("out"), Some("plan"));
        assert_eq!(p.all("var"), &["a=1".to_string(), "b=2".to_string()]);
        assert_eq!(p.positional, vec!["file".to_string()]);
    }

    #[test]
    fn help_is_asked_for_before_a_double_dash() {
        assert!(wants_help(&s(&["-var", "-help"])));
        assert!(wants_help(&s(&["x", "--help"])));
        assert!(wants_help(&s(&["-h"])));
        assert!(!wants_help(&s(&["--", "-help"])));
        assert!(!wants_help(&s(&["-help=true", "-helpful"])));
    }

    #[test]
    fn unknown_flag_is_an_error() {
        assert!(parse(&s(&["-nope"]), &[], &[])
            .unwrap_err()
            .contains("-nope"));
        assert!(parse(&s(&["-out"]), &[], &["out"]).is_err());
    }
}
