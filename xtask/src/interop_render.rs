//! Interop scenario comparing the human plan text itself: a bookcase of the shelf provider
//! with nested blocks of every nesting mode (built by `dynamic` blocks) changed over four
//! steps, planned and applied by each tool. The changes' text (from the first `# address`
//! line to the plan summary, and the output changes) must be the same, apart from the tool's
//! name.

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

pub const SCENARIOS: &[crate::interop::Scenario] = &[("shelf-plan-text", shelf_plan_text)];
