//! Test files (`*.tftest.hcl`, `*.tftest.json`, `*.tofutest.hcl`) read into a model of their
//! blocks: file-level `variables`, `provider`, `mock_provider` and `override_*` blocks, and the
//! `run` blocks in order. Every problem is a diagnostic pointing at the block or argument.
//! `ferro test` runs the model; the language server reports its diagnostics as the file is
//! edited. **Architecture invariant:** no IO, no salsa, no providers: text in, model out.

use ferro_diag::{Diagnostic, FileId, Span};
use ferro_hir::{ExprId, FileHir};
use ferro_syntax::ast::{Attribute, Block, Body, BodyItem, Expr, ExprKind};
use std::sync::Arc;

/// An expression of a test file, lowered on its own so it can be evaluated in any scope.
#[derive(Clone)]
pub struct TestExpr {
    pub hir: Arc<FileHir>,
    pub id: ExprId,
    pub span: Span,
}

impl TestExpr {
    fn lower(file: FileId, e: &Expr) -> (TestExpr, Vec<Diagnostic>) {
        let (hir, id) = ferro_hir::lower_standalone_expr(file, e);
        let diags = hir.diagnostics().to_vec();
        (
            TestExpr {
                hir: Arc::new(hir),
                id,
                span: e.span,
            },
            diags,
        )
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Command {
    Plan,
    Apply,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OverrideDuring {
    Plan,
    Apply,
}

pub struct Assert {
    pub condition: TestExpr,
    pub error_message: Option<TestExpr>,
}

/// A reference written as a traversal (`var.x`, `aws_instance.a`): its text and range.
#[derive(Clone, Debug)]
pub struct Traversal {
    pub text: String,
    pub span: Span,
}

#[derive(Default)]
pub struct PlanOptions {
    pub refresh_only: bool,
    pub refresh: Option<bool>,
    pub replace: Vec<Traversal>,
    pub target: Vec<Traversal>,
}

/// `override_resource`, `override_data` or `override_module`.
#[derive(Clone)]
pub struct Override {
    pub kind: OverrideKind,
    pub target: Traversal,
    pub values: Option<TestExpr>,
    pub during: Option<OverrideDuring>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OverrideKind {
    Resource,
    Data,
    Module,
}

/// `mock_resource "TYPE"` or `mock_data "TYPE"` inside a mock provider.
#[derive(Clone)]
pub struct MockType {
    pub data: bool,
    pub ty: String,
    pub defaults: Option<TestExpr>,
    pub during: Option<OverrideDuring>,
}

/// `mock_provider "NAME" { alias, source, mock_resource…, mock_data…, override_… }`.
#[derive(Clone)]
pub struct MockProvider {
    pub name: String,
    pub alias: Option<String>,
    pub types: Vec<MockType>,
    pub overrides: Vec<Override>,
    pub during: Option<OverrideDuring>,
    pub span: Span,
    /// `source`: a directory of shared mock files (`*.tfmock.hcl`).
    pub source: Option<(String, Span)>,
}

pub struct Run {
    pub name: String,
    pub span: Span,
    pub command: Command,
    pub variables: Vec<(String, TestExpr)>,
    pub asserts: Vec<Assert>,
    pub expect_failures: Vec<Traversal>,
    pub plan_options: PlanOptions,
    pub module: Option<(String, Span)>,
    /// The `module` block's `version` constraint (registry sources).
    pub module_version: Option<String>,
    pub state_key: Option<String>,
    pub parallel: bool,
    /// `providers = { aws = aws.secondary }`: (name in the module, configuration of the file).
    pub providers: Option<Vec<(String, String)>>,
    pub overrides: Vec<Override>,
}

/// A `provider` block of the test file: its local name and alias, its byte range, and its
/// body's arguments (evaluated in the test file's scope for each run).
pub struct ProviderBlock {
    pub name: String,
    pub alias: Option<String>,
    pub range: (u32, u32),
    pub body: ProviderBody,
}

/// The arguments (other than `alias`) and nested blocks of a test file's provider block.
#[derive(Default)]
pub struct ProviderBody {
    pub attrs: Vec<(String, TestExpr)>,
    /// Nested blocks: type, labels, body.
    pub blocks: Vec<(String, Vec<String>, ProviderBody)>,
}

impl ProviderBody {
    /// Every expression of the body, nested blocks' too.
    pub fn exprs(&self) -> Vec<&TestExpr> {
        let mut out: Vec<&TestExpr> = self.attrs.iter().map(|(_, e)| e).collect();
        for (_, _, b) in &self.blocks {
            out.extend(b.exprs());
        }
        out
    }
}

/// A test file's `variable` block.
pub struct DeclaredVariable {
    pub name: String,
    pub default: Option<TestExpr>,
    /// The `type` constraint, with its `optional(…, default)` defaults.
    pub ty: Option<(
        ferro_value::Type,
        Option<ferro_value::defaults::TypeDefaults>,
    )>,
    /// `nullable` (true unless set to false): when false, a null value gives way to the
    /// default.
    pub nullable: bool,
    /// The block's header (`variable "NAME"`).
    pub span: Span,
}

pub struct TestFile {
    /// The name as printed (`tests/main.tftest.hcl`).
    pub name: String,
    pub file: FileId,
    pub text: String,
    pub variables: Vec<(String, TestExpr)>,
    /// `variable "NAME"` blocks: what `var.NAME` is when no `-var` gives it (Terraform 1.9+),
    /// and the type a `-var` value is read and converted as (Terraform 1.13).
    pub declared: Vec<DeclaredVariable>,
    pub providers: Vec<ProviderBlock>,
    pub mocks: Vec<MockProvider>,
    pub overrides: Vec<Override>,
    pub runs: Vec<Run>,
    pub diags: Vec<Diagnostic>,
}

/// Read a test file's text. `json`: written in the JSON syntax.
pub fn parse_test_file(name: &str, file: FileId, text: &str, json: bool) -> TestFile {
    let parsed = if json {
        ferro_syntax::parse_json_test_file(file, text)
    } else {
        ferro_syntax::parse_file(file, text)
    };
    let mut out = TestFile {
        name: name.to_string(),
        file,
        text: text.to_string(),
        variables: Vec::new(),
        declared: Vec::new(),
        providers: Vec::new(),
        mocks: Vec::new(),
        overrides: Vec::new(),
        runs: Vec::new(),
        diags: parsed.diagnostics,
    };
    if out.diags.iter().any(Diagnostic::is_error) {
        return out;
    }
    let mut cx = Cx {
        name,
        file,
        text,
        diags: Vec::new(),
        parallel: false,
    };
    // The `test` block (Terraform 1.10+) comes first wherever it is written: its `parallel`
    // is the default of every run block.
    let mut test_block: Option<Span> = None;
    for item in &parsed.body.items {
        if let BodyItem::Block(b) = item {
            if b.ty.name == "test" {
                cx.test_block(b, &mut test_block);
            }
        }
    }
    for item in &parsed.body.items {
        match item {
            BodyItem::Attribute(a) => cx.unsupported_argument(a, "a test file"),
            BodyItem::Block(b) => match b.ty.name.as_str() {
                "test" => {}
                "run" => {
                    if let Some(run) = cx.run(b) {
                        if out.runs.iter().any(|r| r.name == run.name) {
                            cx.diags.push(
                                Diagnostic::error(
                                    "test-duplicate-run",
                                    "Duplicate \"run\" block names",
                                )
                                .with_detail(format!(
                                    "This test file already has a run block named {}.",
                                    run.name
                                ))
                                .with_span(b.labels[0].span),
                            );
                        } else {
                            out.runs.push(run);
                        }
                    }
                }
                "variables" => {
                    if cx.no_labels(b) {
                        out.variables.extend(cx.attributes_map(&b.body));
                    }
                }
                "variable" => {
                    if let Some(name) = cx.one_label(b, "variable", "name") {
                        let (default, ty, nullable) = cx.variable_block(b);
                        out.declared.push(DeclaredVariable {
                            name,
                            default,
                            ty,
                            nullable,
                            span: match b.labels.last() {
                                Some(l) => Span {
                                    end: l.span.end,
                                    ..b.ty.span
                                },
                                None => b.ty.span,
                            },
                        });
                    }
                }
                "provider" => {
                    if let Some(name) = cx.one_label(b, "provider", "name") {
                        let alias = cx.alias(&b.body);
                        let body = cx.provider_body(&b.body, true);
                        out.providers.push(ProviderBlock {
                            name,
                            alias,
                            range: (b.span.start, b.span.end),
                            body,
                        });
                    }
                }
                "mock_provider" => {
                    if let Some(name) = cx.one_label(b, "mock_provider", "name") {
                        out.mocks.push(cx.mock_provider(name, b));
                    }
                }
                "override_resource" | "override_data" | "override_module" => {
                    if let Some(o) = cx.override_block(b) {
                        out.overrides.push(o);
                    }
                }
                other => cx.unsupported_block(b, other, "a test file"),
            },
        }
    }
    out.diags.extend(cx.diags);
    let dups = duplicate_variables(&mut out);
    out.diags.extend(dups);
    out
}

/// Terraform 1.13's errors for a `variable` block whose name another `variable` block (the
/// later one is dropped) or the file's `variables` already use.
fn duplicate_variables(f: &mut TestFile) -> Vec<Diagnostic> {
    let mut diags = Vec::new();
    let mut kept: Vec<DeclaredVariable> = Vec::new();
    let dup = |detail: String, at: Span| {
        Diagnostic::error(
            "test-duplicate-variable",
            "Duplicate \"variable\" block names",
        )
        .with_detail(detail)
        .with_span(at)
    };
    for d in std::mem::take(&mut f.declared) {
        if let Some(first) = kept.iter().find(|k| k.name == d.name) {
            let at = ferro_diag::hcl_range(&f.name, &f.text, first.span);
            diags.push(dup(
                format!(
                    "This test file already has a variable named {} defined at {at}.",
                    d.name
                ),
                d.span,
            ));
            continue;
        }
        if let Some((_, e)) = f.variables.iter().find(|(n, _)| *n == d.name) {
            let at = ferro_diag::hcl_range(&f.name, &f.text, e.span);
            diags.push(dup(
                format!(
                    "This test file already has a variable named {} defined at {at}.",
                    d.name
                ),
                d.span,
            ));
        }
        kept.push(d);
    }
    f.declared = kept;
    diags
}

/// A shared mock file (`*.tfmock.hcl`, `*.tfmock.json`): its `mock_resource`, `mock_data` and
/// `override_*` blocks.
pub fn parse_mock_file(
    file: FileId,
    text: &str,
    json: bool,
    into: &mut MockProvider,
) -> Vec<Diagnostic> {
    let parsed = if json {
        ferro_syntax::parse_json_test_file(file, text)
    } else {
        ferro_syntax::parse_file(file, text)
    };
    if parsed.diagnostics.iter().any(Diagnostic::is_error) {
        return parsed.diagnostics;
    }
    let mut cx = Cx {
        name: "",
        file,
        text,
        diags: parsed.diagnostics,
        parallel: false,
    };
    for item in &parsed.body.items {
        match item {
            BodyItem::Attribute(a) => cx.unsupported_argument(a, "a mock file"),
            BodyItem::Block(b) => cx.mock_item(b, into, "a mock file"),
        }
    }
    cx.diags
}

struct Cx<'a> {
    /// The file's name as printed, for messages that name places in it.
    name: &'a str,
    file: FileId,
    text: &'a str,
    diags: Vec<Diagnostic>,
    /// The file's `test { parallel = … }`: whether run blocks run in parallel by default.
    parallel: bool,
}

impl Cx<'_> {
    /// The `test` block: one per file, with `parallel`; `skip_cleanup` is refused as
    /// Terraform releases refuse it (it is experimental there).
    fn test_block(&mut self, b: &Block, seen: &mut Option<Span>) {
        if let Some(first) = *seen {
            // The place as Terraform writes a range: `FILE:LINE,COL-ENDCOL`.
            let (line, col) = line_col(self.text, first.start);
            let end = col + (first.end - first.start) as usize;
            let name = self.name;
            self.diags.push(
                Diagnostic::error("test-duplicate-test-block", "Multiple \"test\" blocks")
                    .with_detail(format!(
                        "This test file already has a \"test\" block defined at {name}:{line},{col}-{end}."
                    ))
                    .with_span(b.ty.span),
            );
            return;
        }
        *seen = Some(b.ty.span);
        if !self.no_labels(b) {
            return;
        }
        for item in &b.body.items {
            match item {
                BodyItem::Attribute(a) => match a.name.name.as_str() {
                    "parallel" => self.parallel = self.bool_arg(a).unwrap_or(false),
                    "skip_cleanup" => self.skip_cleanup(a),
                    _ => self.unsupported_argument(a, "a test block"),
                },
                BodyItem::Block(inner) => {
                    self.unsupported_block(inner, inner.ty.name.as_str(), "a test block")
                }
            }
        }
    }

    /// `skip_cleanup`: only experimental builds of Terraform accept it.
    fn skip_cleanup(&mut self, a: &Attribute) {
        self.diags.push(
            Diagnostic::error("test-invalid-attribute", "Invalid attribute")
                .with_detail("The skip_cleanup attribute is only available in experimental builds of Terraform.")
                .with_span(a.name.span),
        );
    }

    fn lower(&mut self, e: &Expr) -> TestExpr {
        let (x, ds) = TestExpr::lower(self.file, e);
        self.diags.extend(ds);
        x
    }

    fn text_of(&self, span: Span) -> String {
        self.text
            .get(span.start as usize..span.end as usize)
            .unwrap_or_default()
            .split_whitespace()
            .collect::<Vec<_>>()
            .join("")
    }

    fn unsupported_argument(&mut self, a: &Attribute, place: &str) {
        self.diags.push(
            Diagnostic::error("test-unsupported-argument", "Unsupported argument")
                .with_detail(format!(
                    "An argument named {:?} is not expected in {place}.",
                    a.name.name.as_str()
                ))
                .with_span(a.name.span),
        );
    }

    fn unsupported_block(&mut self, b: &Block, ty: &str, place: &str) {
        self.diags.push(
            Diagnostic::error("test-unsupported-block", "Unsupported block type")
                .with_detail(format!(
                    "Blocks of type {ty:?} are not expected in {place}."
                ))
                .with_span(b.ty.span),
        );
    }

    fn no_labels(&mut self, b: &Block) -> bool {
        if let Some(l) = b.labels.first() {
            self.diags.push(
                Diagnostic::error("test-extraneous-label", "Extraneous label")
                    .with_detail(format!(
                        "No labels are expected for {:?} blocks.",
                        b.ty.name.as_str()
                    ))
                    .with_span(l.span),
            );
            return false;
        }
        true
    }

    fn one_label(&mut self, b: &Block, ty: &str, what: &str) -> Option<String> {
        match b.labels.as_slice() {
            [l] => Some(l.value.to_string()),
            [] => {
                self.diags.push(
                    Diagnostic::error("test-missing-label", format!("Missing {what} for {ty}"))
                        .with_detail(format!("All {ty} blocks must have 1 label: {what}."))
                        .with_span(b.ty.span),
                );
                None
            }
            [_, extra, ..] => {
                self.diags.push(
                    Diagnostic::error(
                        "test-extraneous-label",
                        format!("Extraneous label for {ty}"),
                    )
                    .with_detail(format!(
                        "Only 1 label (the {what}) is expected for {ty} blocks."
                    ))
                    .with_span(extra.span),
                );
                None
            }
        }
    }

    /// The attributes of a body such as `variables { … }`; blocks in it are errors.
    fn attributes_map(&mut self, body: &Body) -> Vec<(String, TestExpr)> {
        let mut out = Vec::new();
        for item in &body.items {
            match item {
                BodyItem::Attribute(a) => {
                    let e = self.lower(&a.expr);
                    out.push((a.name.name.to_string(), e));
                }
                BodyItem::Block(b) => {
                    self.unsupported_block(b, b.ty.name.as_str(), "a variables block")
                }
            }
        }
        out
    }

    /// A test file's `variable` block: its default (`type`, `description`, `sensitive` and
    /// `nullable` are accepted).
    #[allow(clippy::type_complexity)]
    fn variable_block(
        &mut self,
        b: &Block,
    ) -> (
        Option<TestExpr>,
        Option<(
            ferro_value::Type,
            Option<ferro_value::defaults::TypeDefaults>,
        )>,
        bool,
    ) {
        let mut default = None;
        let mut ty = None;
        let mut nullable = true;
        for item in &b.body.items {
            match item {
                BodyItem::Attribute(a) if a.name.name == "default" => {
                    default = Some(self.lower(&a.expr))
                }
                BodyItem::Attribute(a) if a.name.name == "type" => {
                    match ferro_hir::lower_type_expr_with_defaults(self.file, &a.expr) {
                        Ok(t) => ty = Some(t),
                        Err(d) => self.diags.push(d),
                    }
                }
                BodyItem::Attribute(a) if a.name.name == "nullable" => match a.expr.kind {
                    ExprKind::Bool(b) => nullable = b,
                    _ => self.diags.push(
                        Diagnostic::error("test-invalid-value", "Invalid nullable value")
                            .with_detail("The nullable argument must be true or false.")
                            .with_span(a.expr.span),
                    ),
                },
                BodyItem::Attribute(a)
                    if matches!(a.name.name.as_str(), "description" | "sensitive") => {}
                BodyItem::Attribute(a) => self.unsupported_argument(a, "a variable block"),
                BodyItem::Block(inner) => {
                    self.unsupported_block(inner, inner.ty.name.as_str(), "a variable block")
                }
            }
        }
        (default, ty, nullable)
    }

    fn provider_body(&mut self, body: &Body, top: bool) -> ProviderBody {
        let mut out = ProviderBody::default();
        for item in &body.items {
            match item {
                BodyItem::Attribute(a) if top && a.name.name == "alias" => {}
                BodyItem::Attribute(a) => {
                    let e = self.lower(&a.expr);
                    out.attrs.push((a.name.name.to_string(), e));
                }
                BodyItem::Block(b) => {
                    let labels = b.labels.iter().map(|l| l.value.to_string()).collect();
                    let inner = self.provider_body(&b.body, false);
                    out.blocks.push((b.ty.name.to_string(), labels, inner));
                }
            }
        }
        out
    }

    fn alias(&mut self, body: &Body) -> Option<String> {
        body.items.iter().find_map(|i| match i {
            BodyItem::Attribute(a) if a.name.name == "alias" => match &a.expr.kind {
                ExprKind::Template(_) | ExprKind::Variable(_) => {
                    Some(self.text_of(a.expr.span).trim_matches('"').to_string())
                }
                _ => None,
            },
            _ => None,
        })
    }

    /// A keyword argument (`command = apply`) checked against its allowed words.
    fn keyword(&mut self, a: &Attribute, allowed: &[&str]) -> Option<String> {
        let word = self.text_of(a.expr.span);
        let word = word.trim_matches('"').to_string();
        if allowed.contains(&word.as_str()) {
            return Some(word);
        }
        let list = allowed
            .iter()
            .map(|w| format!("{w:?}"))
            .collect::<Vec<_>>()
            .join(" or ");
        self.diags.push(
            Diagnostic::error(
                "test-invalid-keyword",
                format!("Invalid {:?} keyword", a.name.name.as_str()),
            )
            .with_detail(format!(
                "The {:?} argument requires one of {list}.",
                a.name.name.as_str()
            ))
            .with_span(a.expr.span),
        );
        None
    }

    fn bool_arg(&mut self, a: &Attribute) -> Option<bool> {
        match &a.expr.kind {
            ExprKind::Bool(b) => Some(*b),
            _ => {
                self.diags.push(
                    Diagnostic::error("test-invalid-value", "Invalid value")
                        .with_detail(format!(
                            "The {:?} argument must be true or false.",
                            a.name.name.as_str()
                        ))
                        .with_span(a.expr.span),
                );
                None
            }
        }
    }

    fn string_arg(&mut self, a: &Attribute) -> Option<String> {
        let (x, ds) = TestExpr::lower(self.file, &a.expr);
        if ds.is_empty() {
            let (v, ds) = ferro_eval::eval_expr(&x.hir, &NoReferences, x.id);
            if ds.is_empty() {
                if let Some(s) = v.as_str() {
                    return Some(s.to_string());
                }
            }
        }
        self.diags.push(
            Diagnostic::error("test-invalid-value", "Invalid value")
                .with_detail(format!(
                    "The {:?} argument must be a literal string.",
                    a.name.name.as_str()
                ))
                .with_span(a.expr.span),
        );
        None
    }

    /// A list of references (`expect_failures`, `replace`, `target`).
    fn traversals(&mut self, a: &Attribute) -> Vec<Traversal> {
        let ExprKind::Tuple(items) = &a.expr.kind else {
            self.diags.push(
                Diagnostic::error("test-invalid-value", "Invalid value")
                    .with_detail(format!(
                        "The {:?} argument must be a list of references.",
                        a.name.name.as_str()
                    ))
                    .with_span(a.expr.span),
            );
            return Vec::new();
        };
        let mut out = Vec::new();
        for e in items {
            if !is_traversal(e) {
                self.diags.push(
                    Diagnostic::error("test-invalid-reference", "Invalid reference")
                        .with_detail("A single static variable reference is required: only attribute access and indexing with constant keys. No calculations, function calls, template expressions, etc are allowed here.")
                        .with_span(e.span),
                );
                continue;
            }
            out.push(Traversal {
                text: self.text_of(e.span),
                span: e.span,
            });
        }
        out
    }

    fn run(&mut self, b: &Block) -> Option<Run> {
        let name = self.one_label(b, "run", "name")?;
        let mut run = Run {
            name,
            span: b.labels[0].span,
            command: Command::Apply,
            variables: Vec::new(),
            asserts: Vec::new(),
            expect_failures: Vec::new(),
            plan_options: PlanOptions::default(),
            module: None,
            module_version: None,
            state_key: None,
            parallel: self.parallel,
            providers: None,
            overrides: Vec::new(),
        };
        for item in &b.body.items {
            match item {
                BodyItem::Attribute(a) => match a.name.name.as_str() {
                    "command" => {
                        if let Some(w) = self.keyword(a, &["apply", "plan"]) {
                            run.command = if w == "plan" {
                                Command::Plan
                            } else {
                                Command::Apply
                            };
                        }
                    }
                    "expect_failures" => run.expect_failures = self.traversals(a),
                    "state_key" => run.state_key = self.string_arg(a),
                    "parallel" => run.parallel = self.bool_arg(a).unwrap_or(false),
                    "skip_cleanup" => self.skip_cleanup(a),
                    "providers" => run.providers = Some(self.provider_map(a)),
                    _ => self.unsupported_argument(a, "a run block"),
                },
                BodyItem::Block(inner) => match inner.ty.name.as_str() {
                    "variables" => {
                        if self.no_labels(inner) {
                            run.variables.extend(self.attributes_map(&inner.body));
                        }
                    }
                    "assert" => {
                        if let Some(a) = self.assert(inner) {
                            run.asserts.push(a);
                        }
                    }
                    "plan_options" => run.plan_options = self.plan_options(inner),
                    "module" => {
                        if let Some((source, span, version)) = self.module_block(inner) {
                            run.module = Some((source, span));
                            run.module_version = version;
                        }
                    }
                    "override_resource" | "override_data" | "override_module" => {
                        if let Some(o) = self.override_block(inner) {
                            run.overrides.push(o);
                        }
                    }
                    other => self.unsupported_block(inner, other, "a run block"),
                },
            }
        }
        Some(run)
    }

    fn provider_map(&mut self, a: &Attribute) -> Vec<(String, String)> {
        let ExprKind::Object(items) = &a.expr.kind else {
            self.diags.push(
                Diagnostic::error("test-invalid-value", "Invalid value")
                    .with_detail(
                        "The \"providers\" argument must be a map of provider configurations.",
                    )
                    .with_span(a.expr.span),
            );
            return Vec::new();
        };
        items
            .iter()
            .map(|i| {
                let key = match &i.key {
                    ferro_syntax::ast::ObjectKey::Ident(id) => id.name.to_string(),
                    ferro_syntax::ast::ObjectKey::Expr(e) => {
                        self.text_of(e.span).trim_matches('"').to_string()
                    }
                };
                (key, self.text_of(i.value.span))
            })
            .collect()
    }

    fn assert(&mut self, b: &Block) -> Option<Assert> {
        let mut condition = None;
        let mut error_message = None;
        for item in &b.body.items {
            match item {
                BodyItem::Attribute(a) if a.name.name == "condition" => {
                    condition = Some(self.lower(&a.expr))
                }
                BodyItem::Attribute(a) if a.name.name == "error_message" => {
                    error_message = Some(self.lower(&a.expr))
                }
                BodyItem::Attribute(a) => self.unsupported_argument(a, "an assert block"),
                BodyItem::Block(inner) => {
                    self.unsupported_block(inner, inner.ty.name.as_str(), "an assert block")
                }
            }
        }
        match condition {
            Some(condition) => Some(Assert {
                condition,
                error_message,
            }),
            None => {
                self.diags.push(
                    Diagnostic::error("test-missing-argument", "Missing required argument")
                        .with_detail(
                            "The argument \"condition\" is required, but no definition was found.",
                        )
                        .with_span(b.open_brace),
                );
                None
            }
        }
    }

    fn plan_options(&mut self, b: &Block) -> PlanOptions {
        let mut o = PlanOptions::default();
        for item in &b.body.items {
            match item {
                BodyItem::Attribute(a) => match a.name.name.as_str() {
                    "mode" => {
                        o.refresh_only = self.keyword(a, &["normal", "refresh-only"]).as_deref()
                            == Some("refresh-only")
                    }
                    "refresh" => o.refresh = self.bool_arg(a),
                    "replace" => o.replace = self.traversals(a),
                    "target" => o.target = self.traversals(a),
                    _ => self.unsupported_argument(a, "a plan_options block"),
                },
                BodyItem::Block(inner) => {
                    self.unsupported_block(inner, inner.ty.name.as_str(), "a plan_options block")
                }
            }
        }
        o
    }

    /// A run's `module` block: its source (local, registry or remote; `ferro init` installs
    /// the ones that are not local), the source's range and the version constraint.
    fn module_block(&mut self, b: &Block) -> Option<(String, Span, Option<String>)> {
        let mut source = None;
        let mut version = None;
        for item in &b.body.items {
            match item {
                BodyItem::Attribute(a) if a.name.name == "source" => {
                    source = self.string_arg(a).map(|s| (s, a.expr.span));
                }
                BodyItem::Attribute(a) if a.name.name == "version" => {
                    version = self.string_arg(a);
                }
                BodyItem::Attribute(a) => self.unsupported_argument(a, "a module block"),
                BodyItem::Block(inner) => {
                    self.unsupported_block(inner, inner.ty.name.as_str(), "a module block")
                }
            }
        }
        match source {
            Some((s, span)) => Some((s, span, version)),
            None => {
                self.diags.push(
                    Diagnostic::error("test-missing-argument", "Missing required argument")
                        .with_detail(
                            "The argument \"source\" is required, but no definition was found.",
                        )
                        .with_span(b.open_brace),
                );
                None
            }
        }
    }

    fn during(&mut self, a: &Attribute) -> Option<OverrideDuring> {
        self.keyword(a, &["apply", "plan"]).map(|w| {
            if w == "plan" {
                OverrideDuring::Plan
            } else {
                OverrideDuring::Apply
            }
        })
    }

    fn override_block(&mut self, b: &Block) -> Option<Override> {
        let kind = match b.ty.name.as_str() {
            "override_resource" => OverrideKind::Resource,
            "override_data" => OverrideKind::Data,
            _ => OverrideKind::Module,
        };
        let mut target = None;
        let mut values = None;
        let mut during = None;
        for item in &b.body.items {
            match item {
                BodyItem::Attribute(a) => match a.name.name.as_str() {
                    "target" => {
                        if is_traversal(&a.expr) {
                            target = Some(Traversal {
                                text: self.text_of(a.expr.span),
                                span: a.expr.span,
                            });
                        } else {
                            self.diags.push(
                                Diagnostic::error("test-invalid-reference", "Invalid reference")
                                    .with_detail("The target of an override must be a reference to a resource, a data source or a module call.")
                                    .with_span(a.expr.span),
                            );
                        }
                    }
                    "values" if kind != OverrideKind::Module => values = Some(self.lower(&a.expr)),
                    "outputs" if kind == OverrideKind::Module => values = Some(self.lower(&a.expr)),
                    "override_during" => during = self.during(a),
                    _ => self.unsupported_argument(a, &format!("an {} block", b.ty.name.as_str())),
                },
                BodyItem::Block(inner) => self.unsupported_block(
                    inner,
                    inner.ty.name.as_str(),
                    &format!("an {} block", b.ty.name.as_str()),
                ),
            }
        }
        let Some(target) = target else {
            self.diags.push(
                Diagnostic::error("test-missing-argument", "Missing required argument")
                    .with_detail(
                        "The argument \"target\" is required, but no definition was found.",
                    )
                    .with_span(b.open_brace),
            );
            return None;
        };
        // A resource or data source target may sit in a child module and name one instance
        // (`module.a.aws_instance.b[0]`), as Terraform allows.
        let parsed = ferro_addrs::parse_target(&target.text).ok();
        let (data, module) = match &parsed {
            Some(ferro_addrs::Target::Resource(r)) => {
                (r.resource.mode == ferro_addrs::ResourceMode::Data, false)
            }
            Some(ferro_addrs::Target::Instance(i)) => (
                i.resource.resource.mode == ferro_addrs::ResourceMode::Data,
                false,
            ),
            Some(ferro_addrs::Target::Module(_)) => (false, true),
            None => (
                target.text.starts_with("data."),
                target.text.starts_with("module."),
            ),
        };
        let fits = match kind {
            OverrideKind::Resource => !data && !module,
            OverrideKind::Data => data,
            OverrideKind::Module => module,
        };
        if !fits {
            self.diags.push(
                Diagnostic::error("test-invalid-override-target", "Invalid override target")
                    .with_detail(format!(
                        "An {} block must target {}.",
                        b.ty.name.as_str(),
                        match kind {
                            OverrideKind::Resource => "a managed resource",
                            OverrideKind::Data => "a data source",
                            OverrideKind::Module => "a module call",
                        }
                    ))
                    .with_span(target.span),
            );
            return None;
        }
        // Module calls are overridden by a module of fixed outputs put in place of the call,
        // which ferro does for calls of the module under test only.
        if kind == OverrideKind::Module
            && (target.text.contains('[') || target.text.matches("module.").count() > 1)
        {
            self.diags.push(
                Diagnostic::error("test-override-unsupported", "Unsupported override")
                    .with_detail("ferro test overrides module calls of the module under test: the target must be module.NAME, without an instance key.")
                    .with_span(b.ty.span),
            );
            return None;
        }
        Some(Override {
            kind,
            target,
            values,
            during,
        })
    }

    fn mock_provider(&mut self, name: String, b: &Block) -> MockProvider {
        let mut m = MockProvider {
            name,
            alias: None,
            types: Vec::new(),
            overrides: Vec::new(),
            during: None,
            span: b.labels.first().map(|l| l.span).unwrap_or(b.ty.span),
            source: None,
        };
        for item in &b.body.items {
            match item {
                BodyItem::Attribute(a) => match a.name.name.as_str() {
                    "alias" => m.alias = self.string_arg(a),
                    "source" => m.source = self.string_arg(a).map(|s| (s, a.expr.span)),
                    "override_during" => m.during = self.during(a),
                    _ => self.unsupported_argument(a, "a mock_provider block"),
                },
                BodyItem::Block(inner) => self.mock_item(inner, &mut m, "a mock_provider block"),
            }
        }
        m
    }

    fn mock_item(&mut self, b: &Block, into: &mut MockProvider, place: &str) {
        match b.ty.name.as_str() {
            "mock_resource" | "mock_data" => {
                let Some(ty) = self.one_label(b, b.ty.name.as_str(), "type") else {
                    return;
                };
                let mut t = MockType {
                    data: b.ty.name == "mock_data",
                    ty,
                    defaults: None,
                    during: None,
                };
                for item in &b.body.items {
                    match item {
                        BodyItem::Attribute(a) if a.name.name == "defaults" => {
                            t.defaults = Some(self.lower(&a.expr))
                        }
                        BodyItem::Attribute(a) if a.name.name == "override_during" => {
                            t.during = self.during(a)
                        }
                        BodyItem::Attribute(a) => {
                            self.unsupported_argument(a, &format!("a {} block", b.ty.name.as_str()))
                        }
                        BodyItem::Block(inner) => self.unsupported_block(
                            inner,
                            inner.ty.name.as_str(),
                            &format!("a {} block", b.ty.name.as_str()),
                        ),
                    }
                }
                into.types.push(t);
            }
            "override_resource" | "override_data" | "override_module" => {
                if let Some(o) = self.override_block(b) {
                    into.overrides.push(o);
                }
            }
            other => self.unsupported_block(b, other, place),
        }
    }
}

/// Whether `e` is a static reference: a name followed by attribute accesses and constant keys.
fn is_traversal(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Variable(_) => true,
        ExprKind::GetAttr { target, .. } => is_traversal(target),
        ExprKind::Index { target, key, .. } => {
            is_traversal(target) && matches!(key.kind, ExprKind::Number(_) | ExprKind::Template(_))
        }
        _ => false,
    }
}

/// The scope of arguments that must be constants: every reference is an error.
struct NoReferences;

impl ferro_eval::Scope for NoReferences {
    fn reference(&self, r: &ferro_hir::Reference) -> Result<ferro_value::Value, Diagnostic> {
        Err(
            Diagnostic::error("test-invalid-value", "Variables not allowed").with_detail(format!(
                "The reference {r} cannot be used here: a literal value is required."
            )),
        )
    }
}

/// The test file suffixes, OpenTofu's first (a `.tofutest.hcl` file hides the `.tftest.hcl`
/// file of the same name).
pub const SUFFIXES: &[&str] = &[
    ".tofutest.hcl",
    ".tofutest.json",
    ".tftest.hcl",
    ".tftest.json",
];

/// The name of a test file without its suffix, and whether it is OpenTofu's.
pub fn test_stem(name: &str) -> Option<(&str, bool)> {
    SUFFIXES.iter().find_map(|s| {
        name.strip_suffix(s)
            .map(|stem| (stem, s.starts_with(".tofu")))
    })
}

/// Whether a file name is a test file's.
/// Where `ferro init` installs the module a run of the test file `file` (named relative to
/// the root module, `tests/main.tftest.hcl`) calls, as Terraform keys it: `test`, the file's
/// directories, its name without `.tftest.hcl`, and the run's name
/// (`test.tests.main.setup`).
pub fn test_module_key(file: &str, run: &str) -> String {
    let mut parts = vec!["test".to_string()];
    let (dir, base) = match file.rsplit_once('/') {
        Some((d, b)) => (Some(d), b),
        None => (None, file),
    };
    if let Some(d) = dir {
        parts.extend(
            d.split('/')
                .filter(|p| !p.is_empty() && *p != ".")
                .map(str::to_string),
        );
    }
    parts.push(base.strip_suffix(".tftest.hcl").unwrap_or(base).to_string());
    parts.push(run.to_string());
    parts.join(".")
}

pub fn is_test_file(name: &str) -> bool {
    test_stem(name).is_some()
}

/// The 1-based line and column of a byte offset in `text`.
fn line_col(text: &str, offset: u32) -> (usize, usize) {
    let before = text.get(..offset as usize).unwrap_or(text);
    let line = before.matches('\n').count() + 1;
    let col = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, col)
}

#[cfg(test)]
mod tests {
    use super::{parse_test_file, test_module_key};
    use ferro_diag::FileId;

    #[test]
    fn the_test_block_sets_the_runs_parallel_default() {
        let text =
            "run \"a\" {}\n\nrun \"b\" {\n  parallel = false\n}\n\ntest {\n  parallel = true\n}\n";
        let f = parse_test_file("main.tftest.hcl", FileId(0), text, false);
        assert!(f.diags.is_empty(), "{:?}", f.diags);
        let parallel: Vec<bool> = f.runs.iter().map(|r| r.parallel).collect();
        assert_eq!(parallel, [true, false]);
        let f = parse_test_file("main.tftest.hcl", FileId(0), "run \"a\" {}\n", false);
        assert!(!f.runs[0].parallel);
    }

    #[test]
    fn a_second_test_block_and_skip_cleanup_are_errors() {
        let text = "test {\n  skip_cleanup = true\n}\n\ntest {}\n\nrun \"a\" {\n  skip_cleanup = true\n}\n";
        let f = parse_test_file("tests/x.tftest.hcl", FileId(0), text, false);
        let details: Vec<String> = f
            .diags
            .iter()
            .map(|d| format!("{}: {}", d.summary, d.detail))
            .collect();
        assert_eq!(
            details,
            [
                "Invalid attribute: The skip_cleanup attribute is only available in experimental builds of Terraform.",
                "Multiple \"test\" blocks: This test file already has a \"test\" block defined at tests/x.tftest.hcl:1,1-5.",
                "Invalid attribute: The skip_cleanup attribute is only available in experimental builds of Terraform.",
            ]
        );
    }

    #[test]
    fn test_module_keys_are_terraforms() {
        assert_eq!(
            test_module_key("main.tftest.hcl", "setup"),
            "test.main.setup"
        );
        assert_eq!(
            test_module_key("tests/main.tftest.hcl", "setup"),
            "test.tests.main.setup"
        );
        assert_eq!(
            test_module_key("tests/unit/a.tftest.hcl", "s"),
            "test.tests.unit.a.s"
        );
    }
}
