//! A `pg` backend whose `conn_str` and `schema_name` come from variables (OpenTofu 1.8's early
//! evaluation), against a real server (see `pg_support`): `init -var` records the evaluated
//! configuration, later commands evaluate it with their own variables, and another schema is a
//! changed backend configuration until `init` runs again.

mod pg_support;
use pg_support::*;

const CONFIG: &str = r#"variable "conn" {
  type = string
}

variable "schema" {
  default = "first"
}

locals {
  schema = "ferro_${var.schema}"
}

terraform {
  backend "pg" {
    conn_str    = var.conn
    schema_name = local.schema
  }
}

resource "terraform_data" "a" {
  input = "one"
}
"#;

fn schema_rows(db: &Db, schema: &str) -> Vec<String> {
    db.client()
        .query(
            &format!("SELECT name FROM {schema}.states ORDER BY name"),
            &[],
        )
        .unwrap()
        .iter()
        .map(|r| r.get(0))
        .collect()
}

#[test]
fn pg_backend_arguments_from_variables() {
    let db = Db::new("early");
    let d = TempDir::new("early");
    d.write("main.tf", CONFIG);
    let conn = format!("-var=conn={}", db.conn);

    // The variable without a value is OpenTofu's error, at the argument.
    let o = run(FERRO, &d.0, &["-no-color", "init"]);
    let err = text(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(err.contains("No value for required variable"), "{err}");
    assert!(err.contains("conn_str    = var.conn"), "{err}");

    let out = ok(FERRO, &d.0, &["-no-color", "init", &conn]);
    assert!(
        out.contains("Successfully configured the backend \"pg\""),
        "{out}"
    );
    let meta = std::fs::read_to_string(d.0.join(".terraform/terraform.tfstate")).unwrap();
    assert!(meta.contains("\"schema_name\": \"ferro_first\""), "{meta}");
    assert!(
        meta.contains(&format!("\"conn_str\": {:?}", db.conn)),
        "{meta}"
    );

    ok(FERRO, &d.0, &["-no-color", "apply", "-auto-approve", &conn]);
    assert_eq!(schema_rows(&db, "ferro_first"), vec!["default".to_string()]);
    let list = ok(FERRO, &d.0, &["-no-color", "state", "list", &conn]);
    assert_eq!(list, "terraform_data.a\n");

    // Another schema is another backend configuration: init first.
    let o = run(
        FERRO,
        &d.0,
        &["-no-color", "plan", &conn, "-var=schema=second"],
    );
    let err = text(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(
        err.contains("Backend configuration changed for \"pg\""),
        "{err}"
    );

    ok(
        FERRO,
        &d.0,
        &[
            "-no-color",
            "init",
            "-reconfigure",
            &conn,
            "-var=schema=second",
        ],
    );
    ok(
        FERRO,
        &d.0,
        &[
            "-no-color",
            "apply",
            "-auto-approve",
            &conn,
            "-var=schema=second",
        ],
    );
    assert_eq!(
        schema_rows(&db, "ferro_second"),
        vec!["default".to_string()]
    );
    assert_eq!(schema_rows(&db, "ferro_first"), vec!["default".to_string()]);
}
