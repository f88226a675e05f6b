//! A small random generator of valid HCL configurations, shared by the property tests and by
//! `cargo xtask fuzz-smoke` (which includes this file by path). Deterministic for a seed.
//!
//! It covers every expression form (templates with interpolations, directives, escapes and strip
//! markers; heredocs; traversals with splats and legacy indexes; calls with expansion; tuples and
//! objects on one or several lines; operators; conditionals; for expressions), blocks with and
//! without labels, single-line blocks, comments in the positions HCL allows, and uneven spacing.

#![allow(dead_code)]

/// xorshift64* — tiny, fast, good enough for test inputs.
#[derive(Clone)]
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Self {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }
    pub fn next_u64(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n.max(1) as u64) as usize
    }
    /// True with probability `percent`/100.
    pub fn chance(&mut self, percent: u32) -> bool {
        self.below(100) < percent as usize
    }
    pub fn pick<T: Copy>(&mut self, xs: &[T]) -> T {
        xs[self.below(xs.len())]
    }
}

const IDENTS: &[&str] = &[
    "a",
    "b",
    "name",
    "value",
    "tags",
    "ami",
    "instance_type",
    "x1",
    "long_attribute_name",
    "my-dashed",
    "_under",
    "é_accent",
    "cidr_block",
    "enabled",
];
const FUNCS: &[&str] = &[
    "length",
    "concat",
    "merge",
    "lookup",
    "format",
    "coalesce",
    "jsonencode",
    "max",
    "tolist",
];
const ROOTS: &[&str] = &[
    "var",
    "local",
    "module",
    "data",
    "aws_instance",
    "each",
    "count",
    "path",
    "self",
];
const BLOCKS: &[&str] = &[
    "resource",
    "data",
    "variable",
    "output",
    "locals",
    "provider",
    "module",
    "dynamic",
    "lifecycle",
];
const OPS: &[&str] = &[
    "+", "-", "*", "/", "%", "==", "!=", "<", "<=", ">", ">=", "&&", "||",
];

pub struct Gen {
    pub r: Rng,
    heredocs: usize,
    /// Size control: expressions stop nesting at this depth.
    pub max_depth: usize,
}

impl Gen {
    pub fn new(seed: u64) -> Self {
        Gen {
            r: Rng::new(seed),
            heredocs: 0,
            max_depth: 4,
        }
    }

    fn ident(&mut self) -> String {
        self.r.pick(IDENTS).to_string()
    }

    /// Spacing between tokens on one line.
    fn sp(&mut self) -> &'static str {
        match self.r.below(100) {
            0..=1 => " /* c */ ",
            2..=45 => "",
            46..=85 => " ",
            _ => self.r.pick(&["  ", "\t", "   "]),
        }
    }

    /// Spacing where a newline is allowed (inside brackets).
    fn gap(&mut self, nl_ok: bool) -> String {
        if nl_ok && self.r.chance(15) {
            format!("{}\n{}", self.sp(), " ".repeat(self.r.below(6)))
        } else {
            self.sp().to_string()
        }
    }

    /// A whole file.
    pub fn file(&mut self) -> String {
        let mut out = String::new();
        let n = 1 + self.r.below(8);
        self.body(&mut out, 0, n, 0);
        out
    }

    fn body(&mut self, out: &mut String, indent: usize, items: usize, depth: usize) {
        let pad = "  ".repeat(indent);
        let mut used = std::collections::HashSet::new();
        for i in 0..items {
            if self.r.chance(10) {
                out.push('\n');
            }
            if self.r.chance(10) {
                out.push_str(&format!("{pad}{} comment {i}\n", self.r.pick(&["#", "//"])));
            }
            if depth < 3 && self.r.chance(30) {
                self.block(out, indent, depth);
            } else {
                let mut name = self.ident();
                while !used.insert(name.clone()) {
                    name = format!("{name}_{}", used.len());
                }
                out.push_str(&format!("{pad}{name}{}={}", self.sp(), self.sp()));
                if self.r.chance(5) {
                    self.heredoc(out);
                    continue;
                }
                let e = self.expr(0, false);
                out.push_str(&e);
                if self.r.chance(10) {
                    out.push_str(&format!(" {} trailing", self.r.pick(&["#", "//"])));
                }
                out.push('\n');
            }
        }
    }

    fn block(&mut self, out: &mut String, indent: usize, depth: usize) {
        let pad = "  ".repeat(indent);
        let ty = self.r.pick(BLOCKS).to_string();
        out.push_str(&format!("{pad}{ty}"));
        for _ in 0..self.r.below(3) {
            if self.r.chance(70) {
                out.push_str(&format!(" \"{}\"", self.ident()));
            } else {
                out.push_str(&format!(" {}", self.ident()));
            }
        }
        match self.r.below(10) {
            0 => out.push_str(" {}\n"),
            1 => {
                let name = self.ident();
                let e = self.expr(self.max_depth.saturating_sub(1), false);
                out.push_str(&format!(" {{ {name} = {e} }}\n"));
            }
            _ => {
                out.push_str(" {\n");
                let n = self.r.below(5);
                self.body(out, indent + 1, n, depth + 1);
                out.push_str(&format!("{pad}}}\n"));
            }
        }
    }

    fn heredoc(&mut self, out: &mut String) {
        self.heredocs += 1;
        let marker = format!("EOT{}", self.heredocs);
        let indented = self.r.chance(50);
        out.push_str(&format!("<<{}{marker}\n", if indented { "-" } else { "" }));
        for _ in 0..self.r.below(4) {
            let lead = " ".repeat(self.r.below(6));
            let mut line = format!("{lead}line {}", self.r.below(100));
            if self.r.chance(40) {
                let e = self.expr(self.max_depth.saturating_sub(1), false);
                line.push_str(&format!(" ${{{e}}}"));
            }
            if self.r.chance(10) {
                line.push_str(" $${literal} \"quoted\"");
            }
            out.push_str(&line);
            out.push('\n');
        }
        let end_pad = if indented {
            " ".repeat(self.r.below(4))
        } else {
            String::new()
        };
        out.push_str(&format!("{end_pad}{marker}\n"));
    }

    fn string(&mut self, depth: usize) -> String {
        let mut s = String::from("\"");
        for _ in 0..self.r.below(5) {
            match self.r.below(12) {
                0..=4 => s.push_str(
                    self.r
                        .pick(&["abc", "hello world", " ", "x-y", "é", "日本"]),
                ),
                5 => s.push_str(
                    self.r
                        .pick(&["\\n", "\\t", "\\\"", "\\\\", "\\u00e9", "$${x}", "%%{y}"]),
                ),
                6..=8 if depth < self.max_depth => {
                    let strip_l = if self.r.chance(10) { "~" } else { "" };
                    let strip_r = if self.r.chance(10) { "~" } else { "" };
                    let mut e = self.expr(depth + 1, false);
                    // terraform fmt unwraps `"${"text"}"` to `"text"` (ferro fmt too): keep
                    // string literals out of interpolations in the property.
                    if e.starts_with('"') {
                        e = format!("({e})");
                    }
                    s.push_str(&format!("${{{strip_l}{e}{strip_r}}}"));
                }
                9 if depth < self.max_depth => {
                    let c = self.expr(depth + 1, false);
                    if self.r.chance(50) {
                        s.push_str(&format!("%{{ if {c} }}yes%{{ else }}no%{{ endif }}"));
                    } else {
                        s.push_str(&format!("%{{if {c}}}yes%{{endif}}"));
                    }
                }
                10 if depth < self.max_depth => {
                    let c = self.expr(depth + 1, false);
                    s.push_str(&format!("%{{ for v in {c} }}${{v}},%{{ endfor }}"));
                }
                _ => s.push('z'),
            }
        }
        s.push('"');
        s
    }

    fn traversal(&mut self, depth: usize) -> String {
        let mut s = self.r.pick(ROOTS).to_string();
        let mut legacy = false;
        for _ in 0..self.r.below(4) {
            let step = self.r.below(10);
            // Two legacy indexes in a row (`a.0.1`) are not allowed.
            let step = if legacy && step == 9 { 0 } else { step };
            legacy = step == 9;
            match step {
                0..=4 => s.push_str(&format!(".{}", self.ident())),
                5 | 6 if depth < self.max_depth => {
                    let mut k = self.expr(depth + 1, false);
                    // terraform fmt drops a keyword index key (`a[true]` becomes `a[]`), and
                    // ferro fmt does the same; keep such keys out of the property.
                    if matches!(k.as_str(), "true" | "false" | "null") {
                        k = "1".into();
                    }
                    s.push_str(&format!("[{k}]"));
                }
                5..=7 => s.push_str(&format!("[{}]", self.r.below(5))),
                8 => s.push_str(&format!("[*].{}", self.ident())),
                _ => s.push_str(&format!(".{}", self.r.below(3))),
            }
        }
        s
    }

    /// An expression. `nl_ok`: newlines are allowed around it (inside brackets).
    pub fn expr(&mut self, depth: usize, _nl_ok: bool) -> String {
        if depth >= self.max_depth {
            return match self.r.below(4) {
                0 => self.r.below(1000).to_string(),
                1 => self.traversal(depth),
                2 => self.string(depth),
                _ => self
                    .r
                    .pick(&["true", "false", "null", "1.5", "1e3"])
                    .to_string(),
            };
        }
        let d = depth + 1;
        match self.r.below(22) {
            0 => self.r.below(100000).to_string(),
            1 => self
                .r
                .pick(&["true", "false", "null", "0.25", "2E-3"])
                .to_string(),
            2 | 3 => self.string(depth),
            4..=6 => self.traversal(depth),
            7 => {
                let f = self.r.pick(FUNCS).to_string();
                let n = self.r.below(4);
                let args: Vec<String> = (0..n).map(|_| self.expr(d, true)).collect();
                let expand = n > 0 && self.r.chance(10);
                let g = self.gap(true);
                format!(
                    "{f}({g}{}{})",
                    args.join(&format!(",{}", self.gap(true))),
                    if expand { "..." } else { "" }
                )
            }
            8 | 9 => {
                let n = self.r.below(4);
                let items: Vec<String> = (0..n).map(|_| self.expr(d, true)).collect();
                if n > 0 && self.r.chance(30) {
                    let inner: String = items.iter().map(|i| format!("\n  {i},")).collect();
                    format!("[{inner}\n]")
                } else {
                    format!("[{}]", items.join(", "))
                }
            }
            10 | 11 => {
                let n = self.r.below(4);
                let multi = n > 0 && self.r.chance(50);
                let mut items = Vec::new();
                let mut used = std::collections::HashSet::new();
                for _ in 0..n {
                    let k = match self.r.below(4) {
                        0 => format!("\"{}\"", self.ident()),
                        1 => format!("({})", self.traversal(d)),
                        _ => self.ident(),
                    };
                    if !used.insert(k.clone()) {
                        continue;
                    }
                    let sep = if self.r.chance(80) { "=" } else { ":" };
                    let v = self.expr(d, multi);
                    items.push(format!("{k}{}{sep}{}{v}", self.sp(), self.sp()));
                }
                if multi {
                    let inner: String = items.iter().map(|i| format!("\n  {i}")).collect();
                    format!("{{{inner}\n}}")
                } else {
                    format!("{{{}}}", items.join(", "))
                }
            }
            12 => format!("{}{}", self.r.pick(&["!", "-"]), self.operand(d)),
            13 | 14 => {
                let op = self.r.pick(OPS).to_string();
                let l = self.operand(d);
                let r = self.operand(d);
                // `a-1` is the identifier `a-1`: a minus after a name needs a space.
                let before = if op == "-" { " " } else { self.sp() };
                format!("{l}{before}{op}{}{r}", self.sp())
            }
            15 => {
                let c = self.operand(d);
                let a = self.operand(d);
                let b = self.operand(d);
                format!("{c} ? {a} : {b}")
            }
            16 => {
                let coll = self.operand(d);
                let v = self.expr(d, true);
                let cond = if self.r.chance(30) {
                    format!(" if {}", self.operand(d))
                } else {
                    String::new()
                };
                format!("[for v in {coll} : {v}{cond}]")
            }
            17 => {
                let coll = self.operand(d);
                let v = self.expr(d, true);
                let group = if self.r.chance(20) { "..." } else { "" };
                format!("{{for k, v in {coll} : k => {v}{group}}}")
            }
            18 => format!(
                "({}{}{})",
                self.gap(true),
                self.expr(d, true),
                self.gap(true)
            ),
            _ => self.traversal(depth),
        }
    }

    /// An operand of an operator: parenthesised when it is itself an operation.
    fn operand(&mut self, depth: usize) -> String {
        let e = self.expr(depth, false);
        if e.contains([
            ' ', '?', '!', '-', '+', '*', '/', '%', '<', '>', '=', '&', '|',
        ]) && !e.starts_with('"')
        {
            format!("({e})")
        } else {
            e
        }
    }
}
