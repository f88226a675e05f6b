//! Completion in test files (`*.tftest.hcl`, …): the block types and arguments allowed where
//! the cursor is (top level, `run`, `assert`, `mock_provider`, …), and after `run.` the
//! names of the run blocks declared before the cursor.

use serde_json::{json, Value};

const TOP: &[&str] = &[
    "test",
    "run",
    "variable",
    "variables",
    "provider",
    "mock_provider",
    "override_resource",
    "override_data",
    "override_module",
];
const RUN: &[&str] = &[
    "command",
    "variables",
    "assert",
    "expect_failures",
    "plan_options",
    "module",
    "state_key",
    "parallel",
    "providers",
    "override_resource",
    "override_data",
    "override_module",
];
const ASSERT: &[&str] = &["condition", "error_message"];
const TEST: &[&str] = &["parallel"];
const MOCK_PROVIDER: &[&str] = &[
    "alias",
    "source",
    "override_during",
    "mock_resource",
    "mock_data",
    "override_resource",
    "override_data",
];
const MOCK_TYPE: &[&str] = &["defaults", "override_during"];
const PLAN_OPTIONS: &[&str] = &["mode", "refresh", "replace", "target"];
const MODULE: &[&str] = &["source", "version"];
const OVERRIDE: &[&str] = &["target", "values", "override_during"];
const OVERRIDE_MODULE: &[&str] = &["target", "outputs", "override_during"];

/// The block types enclosing `offset`, outermost first (each named by the first word of the
/// line its brace opens on); strings and comments are skipped.
fn enclosing_blocks(text: &str) -> Vec<String> {
    let mut stack: Vec<String> = Vec::new();
    let mut line_word = String::new();
    let mut at_line_start = true;
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '"' => {
                let mut escaped = false;
                for s in chars.by_ref() {
                    if escaped {
                        escaped = false;
                    } else if s == '\\' {
                        escaped = true;
                    } else if s == '"' || s == '\n' {
                        break;
                    }
                }
                at_line_start = false;
            }
            '#' => {
                for s in chars.by_ref() {
                    if s == '\n' {
                        break;
                    }
                }
                at_line_start = true;
                line_word.clear();
            }
            '/' if chars.peek() == Some(&'/') => {
                for s in chars.by_ref() {
                    if s == '\n' {
                        break;
                    }
                }
                at_line_start = true;
                line_word.clear();
            }
            '/' if chars.peek() == Some(&'*') => {
                chars.next();
                let mut prev = ' ';
                for s in chars.by_ref() {
                    if prev == '*' && s == '/' {
                        break;
                    }
                    prev = s;
                }
            }
            '{' => {
                stack.push(line_word.clone());
                at_line_start = false;
            }
            '}' => {
                stack.pop();
            }
            '\n' => {
                at_line_start = true;
                line_word.clear();
            }
            c if at_line_start && (c.is_alphanumeric() || c == '_') => {
                line_word.push(c);
            }
            c if at_line_start && c.is_whitespace() && line_word.is_empty() => {}
            _ => at_line_start = false,
        }
    }
    stack
}

/// The names of the run blocks declared in `text`.
fn run_names(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for line in text.lines() {
        let t = line.trim_start();
        if let Some(rest) = t.strip_prefix("run") {
            let rest = rest.trim_start();
            if let Some(rest) = rest.strip_prefix('"') {
                if let Some(end) = rest.find('"') {
                    out.push(rest[..end].to_string());
                }
            }
        }
    }
    out
}

/// The completion items at byte `offset` of a test file's `text`.
pub fn completion(text: &str, offset: usize) -> Value {
    let before = text.get(..offset.min(text.len())).unwrap_or(text);
    let line = before.rsplit('\n').next().unwrap_or(before);
    let word_start = line
        .rfind(|c: char| !(c.is_alphanumeric() || c == '_' || c == '.'))
        .map(|i| i + 1)
        .unwrap_or(0);
    let word = &line[word_start..];
    if let Some(prefix) = word.strip_prefix("run.") {
        let mut names = run_names(before);
        // Inside a run block, that run is not available to itself.
        if enclosing_blocks(before).first().map(String::as_str) == Some("run") {
            names.pop();
        }
        let items: Vec<Value> = names
            .into_iter()
            .filter(|n| n.starts_with(prefix))
            .map(|n| json!({"label": n, "kind": 6, "detail": "run block"}))
            .collect();
        return json!({"isIncomplete": false, "items": items});
    }
    let stack = enclosing_blocks(before);
    let words: &[&str] = match stack.last().map(String::as_str) {
        None => TOP,
        Some("run") => RUN,
        Some("test") => TEST,
        Some("assert") => ASSERT,
        Some("mock_provider") => MOCK_PROVIDER,
        Some("mock_resource" | "mock_data") => MOCK_TYPE,
        Some("plan_options") => PLAN_OPTIONS,
        Some("module") => MODULE,
        Some("override_resource" | "override_data") => OVERRIDE,
        Some("override_module") => OVERRIDE_MODULE,
        Some(_) => &[],
    };
    let items: Vec<Value> = words
        .iter()
        .filter(|w| w.starts_with(word))
        .map(|w| json!({"label": w, "kind": 14}))
        .collect();
    json!({"isIncomplete": false, "items": items})
}

#[cfg(test)]
mod tests {
    use super::*;

    fn labels(v: &Value) -> Vec<String> {
        v["items"]
            .as_array()
            .unwrap()
            .iter()
            .map(|i| i["label"].as_str().unwrap().to_string())
            .collect()
    }

    #[test]
    fn blocks_and_arguments_by_context() {
        assert_eq!(labels(&completion("ru", 2)), ["run"]);
        assert_eq!(labels(&completion("te", 2)), ["test"]);
        let text = "test {\n  p\n}\n";
        assert_eq!(labels(&completion(text, 10)), ["parallel"]);
        assert_eq!(labels(&completion("var", 3)), ["variable", "variables"]);
        let text = "run \"a\" {\n  as\n}\n";
        assert_eq!(
            labels(&completion(text, text.find("as").unwrap() + 2)),
            ["assert"]
        );
        let text = "run \"a\" {\n  assert {\n    c\n  }\n}\n";
        let at = text.find("    c").unwrap() + 5;
        assert_eq!(labels(&completion(text, at)), ["condition"]);
        let text = "mock_provider \"aws\" {\n  mock_resource \"x\" {\n    \n  }\n}\n";
        let at = text.find("    \n").unwrap() + 4;
        assert_eq!(labels(&completion(text, at)), MOCK_TYPE);
    }

    #[test]
    fn run_outputs_name_earlier_runs() {
        let text = "run \"setup\" {\n}\nrun \"second\" {\n  variables {\n    x = run.s\n  }\n}\n";
        let at = text.find("run.s").unwrap() + 5;
        assert_eq!(labels(&completion(text, at)), ["setup"]);
    }

    #[test]
    fn braces_in_strings_and_comments_do_not_count() {
        let text = "# {\nrun \"a\" {\n  x = \"}\"\n  \n}\n";
        let at = text.find("  \n").unwrap() + 2;
        assert_eq!(labels(&completion(text, at)), RUN);
    }
}
