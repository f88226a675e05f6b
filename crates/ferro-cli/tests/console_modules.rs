//! `ferro console` in a configuration that calls modules: the module tree is loaded as plan
//! loads it and expanded against the state, so `module.NAME.OUT` evaluates as in Terraform.

mod cli_support;
use cli_support::{ferro, ferro_with_input, scratch};

#[test]
fn console_loads_a_configuration_with_local_modules() {
    let dir = scratch("console-modules");
    std::fs::create_dir_all(dir.join("m")).unwrap();
    std::fs::write(
        dir.join("main.tf"),
        "resource \"terraform_data\" \"a\" {\n  input = \"root\"\n}\n\nmodule \"m\" {\n  source = \"./m\"\n  v      = terraform_data.a.output\n}\n",
    )
    .unwrap();
    std::fs::write(
        dir.join("m/main.tf"),
        "variable \"v\" {}\n\noutput \"echo\" {\n  value = var.v\n}\n",
    )
    .unwrap();
    let (code, _, err) = ferro(&dir, &["apply", "-auto-approve", "-no-color"]);
    assert_eq!(code, 0, "{err}");
    // Piped, only the last line's result is printed (as Terraform 1.0.3 does).
    let (code, out, err) = ferro_with_input(
        &dir,
        &["console", "-no-color"],
        "module.m\nlength(terraform_data.a.id)\n",
    );
    assert_eq!(code, 0, "{err}");
    assert_eq!(out, "36\n");
    // Module outputs are evaluated from the state (a dynamically typed attribute, decoded with
    // its schema, keeps no type wrapper).
    let (code, out, err) = ferro_with_input(&dir, &["console", "-no-color"], "module.m\n");
    assert_eq!(code, 0, "{err}");
    assert_eq!(out, "{\n  \"echo\" = \"root\"\n}\n");
    let (code, out, err) =
        ferro_with_input(&dir, &["console", "-no-color"], "upper(module.m.echo)\n");
    assert_eq!(code, 0, "{err}");
    assert_eq!(out, "\"ROOT\"\n");
    // An undeclared module is an error, with the name.
    let (code, _, err) = ferro_with_input(&dir, &["console", "-no-color"], "module.nope\n");
    assert_eq!(code, 1);
    assert!(err.contains("Reference to undeclared module"), "{err}");
    assert!(err.contains("\"nope\""), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn console_expands_counted_and_keyed_module_calls_from_state() {
    let dir = scratch("console-module-calls");
    std::fs::create_dir_all(dir.join("m")).unwrap();
    std::fs::write(
        dir.join("main.tf"),
        "module \"c\" {\n  source = \"./m\"\n  count  = 2\n  v      = \"c${count.index}\"\n}\n\nmodule \"e\" {\n  source   = \"./m\"\n  for_each = toset([\"x\", \"y\"])\n  v        = each.key\n}\n",
    )
    .unwrap();
    std::fs::write(
        dir.join("m/main.tf"),
        "variable \"v\" {}\n\nresource \"terraform_data\" \"r\" {\n  input = var.v\n}\n\noutput \"v\" {\n  value = terraform_data.r.output\n}\n",
    )
    .unwrap();
    let (code, _, err) = ferro(&dir, &["apply", "-auto-approve", "-no-color"]);
    assert_eq!(code, 0, "{err}");
    for (expr, want) in [
        ("module.c[1].v", "\"c1\"\n"),
        ("module.c[*].v", "[\n  \"c0\",\n  \"c1\",\n]\n"),
        ("module.e[\"y\"].v", "\"y\"\n"),
        ("length(module.e)", "2\n"),
    ] {
        let (code, out, err) =
            ferro_with_input(&dir, &["console", "-no-color"], &format!("{expr}\n"));
        assert_eq!(code, 0, "{expr}: {err}");
        assert_eq!(out, want, "{expr}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
