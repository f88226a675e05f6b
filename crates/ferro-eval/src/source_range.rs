//! Source ranges written as HCL writes them (`main.tf:3,5-12`, `main.tf:3,5-4,2`), for messages
//! that quote where another diagnostic points: `try` lists the errors of all its arguments in
//! one message, each with its range.
//!
//! HCL counts lines and columns from 1, columns in grapheme clusters (`é` written as `e` and a
//! combining accent is one column), and a range ends at the column after its last character.

use ferro_diag::{Diagnostic, Span};

pub(crate) use ferro_diag::hcl_range;

/// The message of a `try` whose arguments all failed: every diagnostic of every argument, as
/// `- SUMMARY (at RANGE)` and the detail on the next line (the range is left out when the
/// source is not available), then what to do.
pub(crate) fn try_failure_message(
    diags: &[Diagnostic],
    range: &dyn Fn(Span) -> Option<String>,
) -> String {
    let mut out = String::from("no expression succeeded:\n");
    for d in diags {
        match d.span.and_then(range) {
            Some(r) => out.push_str(&format!("- {} (at {r})\n  {}\n", d.summary, d.detail)),
            None => out.push_str(&format!("- {}\n  {}\n", d.summary, d.detail)),
        }
    }
    out.push_str("\nAt least one expression must produce a successful result");
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use ferro_diag::FileId;

    fn span(text: &str, part: &str) -> Span {
        let start = text
            .find(part)
            .unwrap_or_else(|| panic!("{part:?} not in {text:?}"));
        Span::new(FileId(0), start..start + part.len())
    }

    #[test]
    fn ranges_on_one_line() {
        let text = "try(upper([]))";
        assert_eq!(
            hcl_range("<console-input>", text, span(text, "[")),
            "<console-input>:1,11-12"
        );
        assert_eq!(hcl_range("x.tf", text, span(text, "")), "x.tf:1,1-1");
    }

    #[test]
    fn columns_count_grapheme_clusters() {
        // A decomposed é, an emoji with a skin tone, and a full-width letter: one column each.
        let text = "[\"e\u{301}\", \"\u{1f44d}\u{1f3fd}\", \"\u{ff21}\"][5]";
        assert_eq!(hcl_range("f", text, span(text, "[5]")), "f:1,16-19");
    }

    #[test]
    fn ranges_over_lines() {
        let text = "locals {\n  a = [\n    1,\n  ][9]\n  b = \"\u{e9}\u{e9}\" + 1\n}\n";
        assert_eq!(
            hcl_range("main.tf", text, span(text, "[\n    1,\n  ]")),
            "main.tf:2,7-4,4"
        );
        assert_eq!(
            hcl_range("main.tf", text, span(text, "+ 1")),
            "main.tf:5,12-15"
        );
        let crlf = "a = 1\r\nb = [][0]\r\n";
        assert_eq!(hcl_range("m.tf", crlf, span(crlf, "[0]")), "m.tf:2,7-10");
    }

    #[test]
    fn failure_message_lists_every_diagnostic() {
        let text = "try(upper([]), {a=1}.b)";
        let diags = vec![
            Diagnostic::error("invalid-function-argument", "Invalid function argument")
                .with_detail("Invalid value for \"str\" parameter: string required.")
                .with_span(span(text, "[")),
            Diagnostic::error("unsupported-attribute", "Unsupported attribute")
                .with_detail("No b."),
        ];
        let msg = try_failure_message(&diags, &|s| Some(hcl_range("<console-input>", text, s)));
        assert_eq!(
            msg,
            "no expression succeeded:\n- Invalid function argument (at <console-input>:1,11-12)\n  Invalid value for \"str\" parameter: string required.\n- Unsupported attribute\n  No b.\n\nAt least one expression must produce a successful result"
        );
    }
}
