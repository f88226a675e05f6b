//! `cargo xtask bench parse [--mb N] [--runs N] [--write PATH]`: generate an N MB configuration
//! (default 20) of realistic resources, parse the same bytes with ferro (`parse_file`) and with
//! hcl-edit (`parse_body`), and report throughput (best of the runs), the ratio, and the memory the
//! trees hold (bytes still allocated after parsing, counted by this binary's global allocator),
//! relative to the input size.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// The system allocator, counting live and peak bytes.
struct Counting;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);
static COUNT: AtomicUsize = AtomicUsize::new(0);

fn grew(n: usize) {
    COUNT.fetch_add(1, Ordering::Relaxed);
    let now = LIVE.fetch_add(n, Ordering::Relaxed) + n;
    PEAK.fetch_max(now, Ordering::Relaxed);
}

// SAFETY: every call is forwarded unchanged to the system allocator; only counters are added.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            grew(layout.size());
        }
        p
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        let p = unsafe { System.alloc_zeroed(layout) };
        if !p.is_null() {
            grew(layout.size());
        }
        p
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) };
        LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        if !p.is_null() {
            LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
            grew(new_size);
        }
        p
    }
}

#[global_allocator]
static ALLOC: Counting = Counting;

/// xorshift64*.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    fn pick<T: Copy>(&mut self, xs: &[T]) -> T {
        xs[self.below(xs.len())]
    }
}

const TYPES: &[&str] = &[
    "aws_instance",
    "aws_security_group",
    "google_compute_instance",
    "azurerm_linux_virtual_machine",
    "aws_s3_bucket",
];
const WORDS: &[&str] = &[
    "web", "api", "db", "cache", "worker", "frontend", "backend", "queue", "logs", "metrics",
];

/// One realistic resource (or variable/output/locals) with nested blocks, expressions,
/// templates, heredocs and comments.
fn item(r: &mut Rng, n: usize, out: &mut String) {
    use std::fmt::Write;
    let w = r.pick(WORDS);
    match r.below(10) {
        0 => {
            let _ = write!(
                out,
                "# Input for the {w} tier.\nvariable \"{w}_{n}\" {{\n  type        = map(object({{ size = number, tags = list(string) }}))\n  description = \"Settings of the {w} tier (#{n})\"\n  default = {{\n    small = {{ size = 1, tags = [\"a\", \"b\"] }}\n    large = {{ size = {}, tags = [] }}\n  }}\n}}\n\n",
                r.below(64)
            );
        }
        1 => {
            let _ = write!(
                out,
                "output \"{w}_{n}_ids\" {{\n  value       = [for i in aws_instance.{w}_{n} : i.id if i.tags[\"Role\"] != \"\"]\n  description = <<-EOT\n    Instance IDs of ${{var.env}} {w}.\n    Generated #{n}.\n  EOT\n  sensitive   = {}\n}}\n\n",
                r.below(2) == 0
            );
        }
        2 => {
            let _ = write!(
                out,
                "locals {{\n  {w}_{n}_name = \"${{var.prefix}}-{w}-${{terraform.workspace}}\"\n  {w}_{n}_tags = merge(var.common_tags, {{\n    Name = local.{w}_{n}_name // the display name\n    Tier = upper(\"{w}\")\n  }})\n  {w}_{n}_ports = {{ for p in var.ports : tostring(p) => p * 2 if p > 1024 }}\n}}\n\n"
            );
        }
        _ => {
            let ty = r.pick(TYPES);
            let _ = writeln!(out, "resource \"{ty}\" \"{w}_{n}\" {{");
            if r.below(2) == 0 {
                let _ = writeln!(out, "  count = var.enabled ? length(var.zones) : 0");
            } else {
                let _ = writeln!(out, "  for_each = toset(var.{w}_names)");
            }
            let _ = write!(
                out,
                "  ami           = data.aws_ami.ubuntu.id\n  instance_type = var.instance_types[\"{w}\"]\n  subnet_id     = element(module.vpc.private_subnets, {})\n  user_data     = <<-EOF\n    #!/bin/bash\n    echo \"starting {w} ${{var.env}}\" >> /var/log/boot.log\n    systemctl enable --now {w}.service\n  EOF\n\n",
                r.below(8)
            );
            let _ = write!(
                out,
                "  tags = {{\n    Name        = \"${{local.prefix}}-{w}-{n}\"\n    Environment = var.environment\n    Cost        = var.cost_center != null ? var.cost_center : \"shared\"\n    Index       = {}\n  }}\n\n",
                r.below(1000)
            );
            for b in 0..1 + r.below(3) {
                let _ = write!(
                    out,
                    "  ebs_block_device {{\n    device_name = \"/dev/sd{}\"\n    volume_size = {} * (var.scale + 1)\n    encrypted   = true\n  }}\n",
                    (b'f' + b as u8) as char,
                    8 << r.below(5)
                );
            }
            let _ = write!(
                out,
                "\n  /* Allow the {w} port range. */\n  dynamic \"ingress\" {{\n    for_each = var.{w}_rules\n    content {{\n      from_port   = ingress.value.from\n      to_port     = ingress.value.to\n      cidr_blocks = [for c in ingress.value.cidrs : cidrsubnet(c, 8, {})]\n    }}\n  }}\n\n  lifecycle {{\n    create_before_destroy = true\n    ignore_changes        = [tags[\"LastModified\"], user_data]\n  }}\n  depends_on = [aws_security_group.{w}, module.vpc]\n}}\n\n",
                r.below(255)
            );
        }
    }
}

fn generate(target: usize) -> String {
    let mut r = Rng(0x5eed_1234_abcd_ef01);
    let mut out = String::with_capacity(target + 4096);
    let mut n = 0;
    while out.len() < target {
        item(&mut r, n, &mut out);
        n += 1;
    }
    out
}

#[derive(Clone, Copy)]
struct Measure {
    best: Duration,
    retained: usize,
    peak: usize,
    allocs: usize,
}

impl Default for Measure {
    fn default() -> Self {
        Measure {
            best: Duration::MAX,
            retained: 0,
            peak: 0,
            allocs: 0,
        }
    }
}

/// One timed run of `f`, folded into `m` (best time; memory of the last run).
fn measure<T>(m: &mut Measure, f: impl FnOnce() -> T) {
    let before = LIVE.load(Ordering::Relaxed);
    PEAK.store(before, Ordering::Relaxed);
    let count = COUNT.load(Ordering::Relaxed);
    let t = Instant::now();
    let tree = f();
    m.best = m.best.min(t.elapsed());
    m.allocs = COUNT.load(Ordering::Relaxed) - count;
    m.retained = LIVE.load(Ordering::Relaxed).saturating_sub(before);
    m.peak = PEAK.load(Ordering::Relaxed).saturating_sub(before);
    drop(tree);
}

fn main() {
    let mut mb = 20.0f64;
    let mut runs = 5usize;
    let mut write = None;
    let mut only = None;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--mb" => mb = args.next().and_then(|v| v.parse().ok()).unwrap_or(mb),
            "--runs" => {
                runs = args
                    .next()
                    .and_then(|v| v.parse().ok())
                    .unwrap_or(runs)
                    .max(1)
            }
            "--write" => write = args.next(),
            // Parse with one parser only, once (for profiling).
            "--only" => only = args.next(),
            other => {
                eprintln!("unknown argument {other:?}; usage: ferro-parse-bench [--mb N] [--runs N] [--write PATH] [--only ferro|hcl-edit]");
                std::process::exit(2);
            }
        }
    }
    let text = generate((mb * 1e6) as usize);
    if let Some(path) = write {
        std::fs::write(&path, &text).expect("write the generated configuration");
    }
    let size = text.len() as f64;
    println!(
        "input: {:.1} MB generated configuration, {} lines",
        size / 1e6,
        text.lines().count()
    );

    match only.as_deref() {
        Some("ferro") => {
            let p = ferro_syntax::parse_file(ferro_diag::FileId(0), &text);
            println!(
                "{} items, {} diagnostics",
                p.body.items.len(),
                p.diagnostics.len()
            );
            // Not dropped: a profile of this run shows the parse alone.
            std::mem::forget(p);
            return;
        }
        Some(_) => {
            println!("{}", hcl_edit::parser::parse_body(&text).is_ok());
            return;
        }
        None => {}
    }
    let check = ferro_syntax::parse_file(ferro_diag::FileId(0), &text);
    if let Some(d) = check.diagnostics.first() {
        eprintln!("ferro rejects the generated input: {d:?}");
        std::process::exit(1);
    }
    let items = check.body.items.len();
    drop(check);
    if let Err(e) = hcl_edit::parser::parse_body(&text) {
        eprintln!("hcl-edit rejects the generated input: {e}");
        std::process::exit(1);
    }

    // The runs alternate between the parsers, so a change in machine load affects both alike.
    let (mut ferro, mut hcl) = (Measure::default(), Measure::default());
    for _ in 0..runs {
        measure(&mut ferro, || {
            ferro_syntax::parse_file(ferro_diag::FileId(0), &text)
        });
        measure(&mut hcl, || hcl_edit::parser::parse_body(&text));
    }
    let mbps = |d: Duration| size / 1e6 / d.as_secs_f64();
    println!("top-level items: {items}; best of {runs} runs each\n");
    println!(
        "{:<10} {:>10} {:>10} {:>14} {:>12} {:>12}",
        "parser", "time", "MB/s", "tree memory", "peak memory", "allocations"
    );
    for (name, m) in [("ferro", &ferro), ("hcl-edit", &hcl)] {
        println!(
            "{name:<10} {:>8.0}ms {:>10.1} {:>9.1} MB {:>3.1}x {:>7.1} MB {:>10.2}M",
            m.best.as_secs_f64() * 1e3,
            mbps(m.best),
            m.retained as f64 / 1e6,
            m.retained as f64 / size,
            m.peak as f64 / 1e6,
            m.allocs as f64 / 1e6
        );
    }
    println!(
        "\nferro/hcl-edit throughput ratio: {:.2}x (target >= 2x)\nferro tree memory: {:.2}x the input size (target < 10x)",
        hcl.best.as_secs_f64() / ferro.best.as_secs_f64(),
        ferro.retained as f64 / size
    );
}
