//! The JSON syntax gives the same tree as the equivalent native configuration (modulo spans),
//! with spans that point at the right JSON text, and reports bad JSON.

use ferro_diag::{FileId, Span};
use ferro_syntax::ast::Body;
use ferro_syntax::{parse_file, parse_json_file, parse_json_values};

/// The tree without its spans and without the marks of bodies parsed from JSON.
fn blank(mut b: Body) -> Body {
    b.map_spans(&mut |s| Span {
        file: s.file,
        start: 0,
        end: 0,
    });
    fn unmark(b: &mut Body) {
        b.json = false;
        for item in &mut b.items {
            if let ferro_syntax::ast::BodyItem::Block(x) = item {
                unmark(&mut x.body);
            }
        }
    }
    unmark(&mut b);
    b
}

#[track_caller]
fn same(native: &str, json: &str) {
    let n = parse_file(FileId(0), native);
    assert!(n.diagnostics.is_empty(), "native: {:?}", n.diagnostics);
    let j = parse_json_file(FileId(0), json);
    assert!(j.diagnostics.is_empty(), "json: {:?}", j.diagnostics);
    // Bodies know their syntax (an override file's JSON keeps it when merged into native).
    assert!(j.body.json && !n.body.json);
    let (n, j) = (blank(n.body), blank(j.body));
    assert_eq!(n, j, "\nnative tree: {n:#?}\njson tree: {j:#?}");
}

#[test]
fn blocks_by_schema() {
    same(
        r#"
resource "terraform_data" "a" {
  input = "x"
  lifecycle {
    create_before_destroy = true
  }
}
resource "terraform_data" "b" {
  input = 2
}
variable "v" {
  default = "d"
}
locals {
  l = 1
}
terraform {
  required_providers {
    null = {"source": "hashicorp/null"}
  }
}
"#,
        r#"{
  "//": "a comment",
  "resource": {
    "terraform_data": {
      "a": {"input": "x", "lifecycle": {"create_before_destroy": true}},
      "b": {"input": 2}
    }
  },
  "variable": {"v": {"default": "d"}},
  "locals": {"l": 1, "//": "ignored"},
  "terraform": {"required_providers": {"null": {"source": "hashicorp/null"}}}
}"#,
    );
}

#[test]
fn repeated_blocks_from_arrays() {
    same(
        "output \"o\" {\n  value = 1\n}\noutput \"o\" {\n  value = 2\n}\nlocals {\n  a = 1\n}\nlocals {\n  b = 2\n}\n",
        r#"{"output": {"o": [{"value": 1}, {"value": 2}]}, "locals": [{"a": 1}, {"b": 2}]}"#,
    );
    same(
        "resource \"t\" \"a\" {\n}\nresource \"t\" \"b\" {\n}\n",
        r#"{"resource": [{"t": {"a": {}}}, {"t": [{"b": {}}]}]}"#,
    );
}

#[test]
fn templates_and_literals() {
    same(
        r#"
locals {
  a = "${var.x}"
  b = "pre-${var.x}-post"
  c = "lit $${not} %%{x}"
  d = "%{ if var.c }yes%{ else }no%{ endif }"
  e = [1, -2.5e3, true, null, "s"]
  f = {"k": "v", "${var.k}": 1}
  g = ""
  h = "${upper("a")}"
}
"#,
        r#"{"locals": {
  "a": "${var.x}",
  "b": "pre-${var.x}-post",
  "c": "lit $${not} %%{x}",
  "d": "%{ if var.c }yes%{ else }no%{ endif }",
  "e": [1, -2.5e3, true, null, "s"],
  "f": {"k": "v", "${var.k}": 1},
  "g": "",
  "h": "${upper(\"a\")}"
}}"#,
    );
}

#[test]
fn expression_attributes() {
    same(
        r#"
resource "t" "a" {
  count      = "${var.n}"
  depends_on = [t.b, module.m]
  provider   = aws.west
  lifecycle {
    ignore_changes = [tags, x]
  }
}
variable "v" {
  type = list(string)
}
output "o" {
  value      = "${t.a}"
  depends_on = [t.a]
}
"#,
        r#"{
  "resource": {"t": {"a": {
    "count": "${var.n}",
    "depends_on": ["t.b", "module.m"],
    "provider": "aws.west",
    "lifecycle": {"ignore_changes": ["tags", "x"]}
  }}},
  "variable": {"v": {"type": "list(string)"}},
  "output": {"o": {"value": "${t.a}", "depends_on": ["t.a"]}}
}"#,
    );
}

#[test]
fn root_array_of_objects() {
    same(
        "locals {\n  a = 1\n}\nlocals {\n  b = 2\n}\n",
        r#"[{"locals": {"a": 1}}, {"//": "c"}, {"locals": {"b": 2}}]"#,
    );
}

#[test]
fn spans_point_into_the_json_text() {
    let src = r#"{"locals": {"a": "x-${var.y}", "b": "\u00e9\t${var.z}"}}"#;
    let p = parse_json_file(FileId(0), src);
    assert!(p.diagnostics.is_empty(), "{:?}", p.diagnostics);
    let ferro_syntax::ast::BodyItem::Block(b) = &p.body.items[0] else {
        panic!("block")
    };
    assert_eq!(&src[b.ty.span.range()], "\"locals\"");
    let text = |i: usize| {
        let ferro_syntax::ast::BodyItem::Attribute(a) = &b.body.items[i] else {
            panic!("attribute")
        };
        let ferro_syntax::ast::ExprKind::Template(t) = &a.expr.kind else {
            panic!("template")
        };
        let ferro_syntax::ast::TemplatePart::Interpolation { expr, .. } = &t.parts[1] else {
            panic!("interp")
        };
        (&src[a.expr.span.range()], &src[expr.span.range()])
    };
    assert_eq!(text(0), ("\"x-${var.y}\"", "var.y"));
    // After escapes the offsets still land on the source text.
    assert_eq!(text(1), ("\"\\u00e9\\t${var.z}\"", "var.z"));
}

#[track_caller]
fn error(json: &str, summary: &str, at: &str) {
    let p = parse_json_file(FileId(0), json);
    let d = p
        .diagnostics
        .first()
        .unwrap_or_else(|| panic!("no diagnostic for {json}"));
    assert_eq!(d.summary, summary, "{d:?}");
    let span = d.span.expect("span");
    assert_eq!(&json[span.range()], at, "{d:?}");
}

#[test]
fn syntax_errors() {
    error(r#"{"a": 1,}"#, "Trailing comma in object", ",");
    error(r#"{"a" 1}"#, "Missing property value colon", "1");
    error(
        r#"{"a": 1 "b": 2}"#,
        "Missing property separator comma",
        "\"",
    );
    error(r#"{a: 1}"#, "Invalid object property name", "a");
    error(r#"{"a": [1, 2,]}"#, "Trailing comma in array", ",");
    error(r#"{"a": tru}"#, "Invalid JSON keyword", "tru");
    error(r#"{"a": 01}"#, "Invalid JSON number", "01");
    error(r#"{"a": "x\q"}"#, "Invalid escape sequence", "\\q");
    error("{\"a\": \"x\n\"}", "Unterminated string", "\"x");
    error(r#"{"a": 1} x"#, "Extraneous data after value", "x");
    error(r#"{"a": 1"#, "Unexpected end of file", "");
    error(r#"// c"#, "Invalid JSON value", "/");
    error(
        r#"[{"locals": {}}, 1]"#,
        "Root value must be object",
        r#"[{"locals": {}}, 1]"#,
    );
    error("\u{FEFF}{}", "Invalid JSON value", "\u{FEFF}");
    error(
        r#"{"resource": {"t": "x"}}"#,
        "Incorrect JSON value type",
        "\"x\"",
    );
    error(r#"{"locals": {"a": "${)}"}}"#, "Invalid expression", ")");
}

#[test]
fn deep_nesting_is_an_error_not_a_crash() {
    let deep = format!(
        "{{\"locals\": {{\"a\": {}1{}}}}}",
        "[".repeat(100_000),
        "]".repeat(100_000)
    );
    let p = parse_json_file(FileId(0), &deep);
    assert_eq!(p.diagnostics[0].summary, "Nesting too deep");
}

#[test]
fn variable_values_are_literals() {
    let p = parse_json_values(
        FileId(0),
        r#"{"a": "${x}", "//": "comment", "b": [1, {"c": "d"}]}"#,
    );
    assert!(p.diagnostics.is_empty());
    let n = parse_file(FileId(0), "a = \"$${x}\"\nb = [1, {\"c\": \"d\"}]\n");
    assert_eq!(blank(n.body), blank(p.body));
}
