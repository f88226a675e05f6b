//! `ferro console` in a configuration that calls modules: the module tree is loaded as plan
//! loads it, so root expressions evaluate against state, and a module call is known to exist.

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
    // Module outputs are not in state, so the console knows only that the call exists.
    let (code, out, err) = ferro_with_input(&dir, &["console", "-no-color"], "module.m\n");
    assert_eq!(code, 0, "{err}");
    assert_eq!(out, "(known after apply)\n");
    // An undeclared module is an error, with the name.
    let (code, _, err) = ferro_with_input(&dir, &["console", "-no-color"], "module.nope\n");
    assert_eq!(code, 1);
    assert!(err.contains("Reference to undeclared module"), "{err}");
    assert!(err.contains("\"nope\""), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}
