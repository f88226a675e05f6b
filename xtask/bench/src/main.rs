//! `cargo xtask bench eval`: time and count heap allocations of expression evaluation.
//!
//! * a `for` expression over 100 000 elements;
//! * every local value of a generated configuration with 10 000 resources (each local refers to
//!   the previous one and to a resource attribute, the shape of real configurations).

mod rpc_floor;

use ferro_diag::{Diagnostic, FileId};
use ferro_eval::{eval_expr, Scope};
use ferro_hir::{lower_file, lower_standalone_expr, Reference};
use ferro_value::ValueMap;
use ferro_value::{Type, Value};
use std::alloc::{GlobalAlloc, Layout, System};
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

struct Counting;

static ALLOCS: AtomicU64 = AtomicU64::new(0);
static BYTES: AtomicU64 = AtomicU64::new(0);

// SAFETY: forwards to the system allocator unchanged; only counts calls.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCS.fetch_add(1, Ordering::Relaxed);
        BYTES.fetch_add(layout.size() as u64, Ordering::Relaxed);
        // SAFETY: same contract as the caller's.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: same contract as the caller's.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        ALLOCS.fetch_add(1, Ordering::Relaxed);
        BYTES.fetch_add(new_size as u64, Ordering::Relaxed);
        // SAFETY: same contract as the caller's.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

fn measure<T>(name: &str, f: impl FnOnce() -> T) -> T {
    let (a0, b0) = (
        ALLOCS.load(Ordering::Relaxed),
        BYTES.load(Ordering::Relaxed),
    );
    let t = Instant::now();
    let r = f();
    let el = t.elapsed();
    let (a1, b1) = (
        ALLOCS.load(Ordering::Relaxed),
        BYTES.load(Ordering::Relaxed),
    );
    println!(
        "{name:<48} {:>10.2} ms {:>12} allocations {:>14} bytes",
        el.as_secs_f64() * 1e3,
        a1 - a0,
        b1 - b0
    );
    r
}

struct VarScope {
    vars: HashMap<String, Value>,
}

impl Scope for VarScope {
    fn reference(&self, r: &Reference) -> Result<Value, Diagnostic> {
        match r {
            Reference::Var(n) => self
                .vars
                .get(n)
                .cloned()
                .ok_or_else(|| Diagnostic::error("undeclared", "Undeclared")),
            _ => Ok(Value::dynamic_unknown()),
        }
    }
}

/// Locals are evaluated on demand and memoised, as the planner does.
struct LocalScope<'a> {
    hir: &'a ferro_hir::FileHir,
    index: HashMap<String, usize>,
    cache: std::cell::RefCell<HashMap<String, Value>>,
}

impl Scope for LocalScope<'_> {
    fn reference(&self, r: &Reference) -> Result<Value, Diagnostic> {
        match r {
            Reference::Local(n) => {
                if let Some(v) = self.cache.borrow().get(n) {
                    return Ok(v.clone());
                }
                let i = self.index[n];
                let (v, _) = eval_expr(self.hir, self, self.hir.locals[i].expr);
                self.cache.borrow_mut().insert(n.clone(), v.clone());
                Ok(v)
            }
            Reference::Resource(_) => Ok(Value::object(ValueMap::from([(
                "id".to_string(),
                Value::unknown(Type::String),
            )]))),
            _ => Ok(Value::dynamic_unknown()),
        }
    }
}

fn main() {
    let which = std::env::args().nth(1).unwrap_or_else(|| "eval".into());
    if which == "rpc-floor" {
        let args: Vec<String> = std::env::args().skip(2).collect();
        if let Err(e) = rpc_floor::run(&args) {
            eprintln!("rpc-floor: {e}");
            std::process::exit(1);
        }
        return;
    }
    if which != "eval" {
        eprintln!("unknown benchmark {which:?} (available: eval, rpc-floor)");
        std::process::exit(2);
    }
    // 1. A for expression over 100 000 elements.
    let xs: Vec<Value> = (0..100_000).map(Value::int).collect();
    let scope = VarScope {
        vars: HashMap::from([("xs".to_string(), Value::list(Type::Number, xs))]),
    };
    let text = "[for i, x in var.xs : \"${i}:${x * 2}\" if x % 3 != 0]";
    let (ast, _) = ferro_syntax::parse_expr(FileId(0), text);
    let (hir, id) = lower_standalone_expr(FileId(0), &ast);
    let v = measure("for expression over 100 000 elements", || {
        eval_expr(&hir, &scope, id).0
    });
    assert_eq!(v.as_elements().map(<[Value]>::len), Some(66_666));
    let obj_text = "{for x in var.xs : tostring(x) => x if x < 50000}";
    let (ast, _) = ferro_syntax::parse_expr(FileId(0), obj_text);
    let (hir, id) = lower_standalone_expr(FileId(0), &ast);
    measure("object for expression over 100 000 elements", || {
        eval_expr(&hir, &scope, id).0
    });

    // 2. The locals of a 10 000-resource configuration.
    let mut cfg = String::new();
    for i in 0..10_000 {
        cfg.push_str(&format!(
            "resource \"null_resource\" \"r{i}\" {{\n  triggers = {{ v = local.l{i} }}\n}}\n"
        ));
    }
    cfg.push_str("locals {\n  l0 = \"start\"\n");
    for i in 1..10_000 {
        cfg.push_str(&format!(
            "  l{i} = \"${{null_resource.r{}.id}}-${{upper(\"x\")}}-${{length(local.l{})}}\"\n",
            i - 1,
            i - 1
        ));
    }
    cfg.push_str("}\n");
    let parsed = measure("parse 10 000-resource configuration", || {
        ferro_syntax::parse_file(FileId(1), &cfg)
    });
    let hir = measure("lower 10 000-resource configuration", || {
        lower_file(FileId(1), &parsed.body)
    });
    let index: HashMap<String, usize> = hir
        .locals
        .iter()
        .enumerate()
        .map(|(i, l)| (l.name.clone(), i))
        .collect();
    let scope = LocalScope {
        hir: &hir,
        index,
        cache: Default::default(),
    };
    measure("evaluate 10 000 locals", || {
        for i in 0..10_000 {
            let _ = scope.reference(&Reference::Local(format!("l{i}")));
        }
    });
}
