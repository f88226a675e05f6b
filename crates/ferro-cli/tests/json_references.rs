//! `show -json` of a plan lists each expression's references as Terraform 1.0.3 does (checked
//! by hand against it): every shorter form of a traversal down to the referenced object, then
//! the resource of a resource instance and the call of a module call instance, but an output
//! of a module call instance (`module.a["k"].out`) ends at that instance.

mod cli_support;

use cli_support::{ferro, scratch};

const MAIN: &str = r#"
module "env" {
  source   = "./m"
  for_each = toset(["dev"])
}

module "one" {
  source = "./m"
}

module "cnt" {
  source = "./m"
  count  = 1
}

resource "terraform_data" "c" {
  count = 1
}

output "keyed_output" { value = module.env["dev"].info }
output "output" { value = module.one.info }
output "counted_output" { value = module.cnt[0].info }
output "nested" { value = module.one.obj.inner }
output "keyed_nested" { value = module.env["dev"].obj.inner }
output "keyed_call" { value = module.env["dev"] }
output "call" { value = module.env }
output "resource_instance" { value = terraform_data.c[0].id }
output "splat" { value = module.cnt[*].info }
"#;

const CHILD: &str = r#"
output "info" { value = "x" }
output "obj" { value = { inner = "y" } }
"#;

#[test]
fn references_in_show_json_follow_terraform() {
    let dir = scratch("json-references");
    std::fs::write(dir.join("main.tf"), MAIN).unwrap();
    std::fs::create_dir_all(dir.join("m")).unwrap();
    std::fs::write(dir.join("m/main.tf"), CHILD).unwrap();
    let (code, out, err) = ferro(&dir, &["init", "-no-color"]);
    assert_eq!(code, 0, "{out}\n{err}");
    let (code, out, err) = ferro(&dir, &["plan", "-no-color", "-out=p"]);
    assert_eq!(code, 0, "{out}\n{err}");
    let (code, out, err) = ferro(&dir, &["show", "-json", "p"]);
    assert_eq!(code, 0, "{out}\n{err}");
    let plan: serde_json::Value = serde_json::from_str(&out).unwrap();
    let outputs = &plan["configuration"]["root_module"]["outputs"];
    let refs = |name: &str| -> Vec<String> {
        outputs[name]["expression"]["references"]
            .as_array()
            .unwrap_or_else(|| panic!("{name}: {}", outputs[name]))
            .iter()
            .map(|r| r.as_str().unwrap().to_string())
            .collect()
    };
    assert_eq!(
        refs("keyed_output"),
        [r#"module.env["dev"].info"#, r#"module.env["dev"]"#]
    );
    assert_eq!(refs("output"), ["module.one.info", "module.one"]);
    assert_eq!(
        refs("counted_output"),
        ["module.cnt[0].info", "module.cnt[0]"]
    );
    assert_eq!(
        refs("nested"),
        ["module.one.obj.inner", "module.one.obj", "module.one"]
    );
    assert_eq!(
        refs("keyed_nested"),
        [
            r#"module.env["dev"].obj.inner"#,
            r#"module.env["dev"].obj"#,
            r#"module.env["dev"]"#
        ]
    );
    assert_eq!(refs("keyed_call"), [r#"module.env["dev"]"#, "module.env"]);
    assert_eq!(refs("call"), ["module.env"]);
    assert_eq!(
        refs("resource_instance"),
        [
            "terraform_data.c[0].id",
            "terraform_data.c[0]",
            "terraform_data.c"
        ]
    );
    assert_eq!(refs("splat"), ["module.cnt"]);
}
