//! Interop scenarios comparing the human plan text itself:
//! * `shelf-plan-text`: a bookcase of the shelf provider with nested blocks of every nesting
//!   mode (built by `dynamic` blocks) changed over four steps, planned and applied by each
//!   tool. The changes' text (from the first `# address` line to the plan summary, and the
//!   output changes) must be the same, apart from the tool's name.
//! * `shelf-drift`: a note (a file) edited and then deleted outside; the plans' sections of
//!   objects changed outside, refresh-only plans and their output changes.

use crate::interop::{workdir, write, Env, Tool};

const CONFIG: &str = r#"terraform {
  required_providers {
    shelf = {
      source  = "example.test/ferro/shelf"
      version = "1.0.0"
    }
  }
}
provider "shelf" {
  defaults {
    genre = "scifi"
  }
}
variable "shelves" {
  default = {
    top    = { books = ["a", "b"], dividers = [1, 2] }
    bottom = { books = [], dividers = [] }
  }
}
locals {
  slots = { s1 = 1, s2 = null }
}
resource "shelf_bookcase" "c" {
  name = "main"
  dynamic "shelf" {
    for_each = var.shelves
    content {
      label = shelf.key
      books = shelf.value.books
      dynamic "divider" {
        for_each = shelf.value.dividers
        iterator = d
        content {
          at = d.value * 10
        }
      }
    }
  }
  trim {
    color = "oak"
  }
  dynamic "slot" {
    for_each = local.slots
    labels   = [slot.key]
    content {
      size = slot.value
    }
  }
}
output "case" {
  value = shelf_bookcase.c
}
"#;

/// The configuration of each step: dividers and trim changed; slots and shelves replaced;
/// then the bookcase renamed (replaced, every block unchanged).
fn steps() -> Vec<String> {
    let s2 = CONFIG
        .replace(
            r#"books = ["a", "b"], dividers = [1, 2]"#,
            r#"books = ["a", "c"], dividers = [2, 3]"#,
        )
        .replace(r#"color = "oak""#, r#"color = "pine""#);
    let s3 = s2.replace("s1 = 1, s2 = null", "s2 = 5, s3 = 7").replace(
        "bottom = { books = [], dividers = [] }",
        r#"middle = { books = ["z"], dividers = [9] }"#,
    );
    let s4 = s3.replace(r#"name = "main""#, r#"name = "other""#);
    vec![CONFIG.to_string(), s2, s3, s4]
}

/// The part of a plan's output that describes the changes, with the tool's name made the same.
fn changes_text(stdout: &str) -> String {
    let mut out = Vec::new();
    let mut on = false;
    for line in stdout.lines() {
        if line.starts_with("  # ") || line.starts_with("Changes to Outputs:") {
            on = true;
        }
        if line.starts_with('─') || line.starts_with("Note: You didn't") {
            on = false;
        }
        if on {
            out.push(line.replace("Terraform", "ferro"));
        }
    }
    out.join("\n")
}

pub(crate) fn shelf_plan_text(env: &Env) -> Result<(), String> {
    let steps = steps();
    let mut texts: Vec<Vec<String>> = Vec::new();
    for tool in [Tool::Terraform, Tool::Ferro] {
        let dir = workdir(env, "shelf-plan-text", tool, &steps[0])?;
        env.expect(tool, &dir, &["init", "-no-color", "-input=false"], 0)?;
        let mut per_step = Vec::new();
        for step in &steps {
            write(&dir, step)?;
            let plan = env.expect(tool, &dir, &["plan", "-no-color", "-input=false"], 0)?;
            per_step.push(changes_text(&plan.stdout));
            env.expect(
                tool,
                &dir,
                &["apply", "-no-color", "-input=false", "-auto-approve"],
                0,
            )?;
        }
        texts.push(per_step);
    }
    for (i, (tf, fe)) in texts[0].iter().zip(&texts[1]).enumerate() {
        if tf.is_empty() {
            return Err(format!("step {}: terraform planned no changes", i + 1));
        }
        if tf != fe {
            return Err(format!(
                "step {}: plan text differs\n--- terraform\n{tf}\n--- ferro\n{fe}",
                i + 1
            ));
        }
    }
    Ok(())
}

const NOTE_CONFIG: &str = r#"terraform {
  required_providers {
    shelf = {
      source  = "example.test/ferro/shelf"
      version = "1.0.0"
    }
  }
}
resource "shelf_note" "a" {
  path = "a.txt"
  text = "hello"
}
output "text" {
  value = shelf_note.a.text
}
"#;

/// The indented lines of a plan (resource and output changes, drift) and the blank lines
/// between them; prose, which each tool wraps around its own name, is left out.
fn layout_text(stdout: &str) -> String {
    stdout
        .lines()
        .filter(|l| !l.contains("Refreshing state..."))
        .filter(|l| l.is_empty() || l.starts_with(' ') || l.starts_with("Changes to Outputs"))
        .map(|l| l.replace("Terraform", "ferro"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Objects changed and deleted outside (the shelf provider's notes are files): the plan's
/// "Objects have changed outside" section, a refresh-only plan of it (with the output that
/// follows), applying that, and an object deleted outside.
pub(crate) fn shelf_drift(env: &Env) -> Result<(), String> {
    let mut texts: Vec<Vec<String>> = Vec::new();
    for tool in [Tool::Terraform, Tool::Ferro] {
        let dir = workdir(env, "shelf-drift", tool, NOTE_CONFIG)?;
        env.expect(tool, &dir, &["init", "-no-color", "-input=false"], 0)?;
        env.expect(
            tool,
            &dir,
            &["apply", "-no-color", "-input=false", "-auto-approve"],
            0,
        )?;
        let mut per_step = Vec::new();
        std::fs::write(dir.join("a.txt"), "changed").map_err(|e| e.to_string())?;
        // The saved plan's `resource_drift`, as `show -json` gives it.
        env.expect(
            tool,
            &dir,
            &["plan", "-no-color", "-input=false", "-out=drift.tfplan"],
            0,
        )?;
        let shown = env.expect(tool, &dir, &["show", "-json", "drift.tfplan"], 0)?;
        let json: serde_json::Value =
            serde_json::from_str(&shown.stdout).map_err(|e| format!("{tool:?}: {e}"))?;
        per_step.push(json["resource_drift"].to_string());
        for args in [
            &["plan", "-no-color", "-input=false"][..],
            &["plan", "-no-color", "-input=false", "-refresh-only"][..],
            &[
                "apply",
                "-no-color",
                "-input=false",
                "-refresh-only",
                "-auto-approve",
            ][..],
            &["plan", "-no-color", "-input=false", "-refresh-only"][..],
        ] {
            let out = env.expect(tool, &dir, args, 0)?;
            per_step.push(layout_text(&out.stdout));
        }
        std::fs::remove_file(dir.join("a.txt")).map_err(|e| e.to_string())?;
        let out = env.expect(tool, &dir, &["plan", "-no-color", "-input=false"], 0)?;
        per_step.push(layout_text(&out.stdout));
        texts.push(per_step);
    }
    for (i, (tf, fe)) in texts[0].iter().zip(&texts[1]).enumerate() {
        if tf != fe {
            return Err(format!(
                "run {}: plan text differs\n--- terraform\n{tf}\n--- ferro\n{fe}",
                i + 1
            ));
        }
    }
    if !texts[0][1].contains("has been changed") || !texts[0][5].contains("has been deleted") {
        return Err("terraform reported no change made outside".into());
    }
    Ok(())
}

pub const SCENARIOS: &[crate::interop::Scenario] = &[
    ("shelf-plan-text", shelf_plan_text),
    ("shelf-drift", shelf_drift),
];
