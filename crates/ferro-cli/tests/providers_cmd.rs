//! `version`, `providers` and `providers schema -json` as Terraform 1.0.3 prints them: tools
//! that drive Terraform run these first (the version to know what the binary can do, the
//! schemas to generate documentation or completions).

mod cli_support;

use cli_support::{ferro, scratch};

#[test]
fn version_json_reads_as_terraforms_with_the_lock_files_selections() {
    let dir = scratch("version-json");
    std::fs::write(
        dir.join(".terraform.lock.hcl"),
        "provider \"registry.terraform.io/hashicorp/null\" {\n  version     = \"2.1.2\"\n  constraints = \"2.1.2\"\n  hashes = [\n    \"h1:CFnENdqQu4g3LJNevA32aDxcUz2qGkRGQpFfkI8TCdE=\",\n  ]\n}\n",
    )
    .unwrap();
    let (code, out, err) = ferro(&dir, &["version", "-json"]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["terraform_version"], "1.0.3");
    assert!(v["platform"].as_str().unwrap().contains('_'), "{v}");
    assert_eq!(
        v["provider_selections"],
        serde_json::json!({"registry.terraform.io/hashicorp/null": "2.1.2"})
    );
    assert_eq!(v["terraform_outdated"], false);
    let keys: Vec<&String> = v.as_object().unwrap().keys().collect();
    assert_eq!(
        &keys[..4],
        [
            "terraform_version",
            "platform",
            "provider_selections",
            "terraform_outdated"
        ]
    );

    let (code, out, _) = ferro(&dir, &["-v"]);
    assert_eq!(code, 0);
    assert!(
        out.contains("+ provider registry.terraform.io/hashicorp/null v2.1.2"),
        "{out}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn providers_prints_the_requirements_of_every_module_and_of_state() {
    let dir = scratch("providers-tree");
    std::fs::create_dir_all(dir.join("child/grand")).unwrap();
    std::fs::write(
        dir.join("main.tf"),
        r#"
terraform {
  required_providers {
    null = { source = "hashicorp/null", version = ">= 2.0" }
  }
}
provider "null" {
  alias = "two"
}
module "child" {
  source    = "./child"
  providers = { null = null.two }
}
resource "terraform_data" "a" {}
"#,
    )
    .unwrap();
    std::fs::write(
        dir.join("child/main.tf"),
        "terraform {\n  required_providers {\n    null = { source = \"hashicorp/null\", version = \"~> 2\" }\n  }\n}\nmodule \"grand\" {\n  source = \"./grand\"\n}\n",
    )
    .unwrap();
    std::fs::write(
        dir.join("child/grand/main.tf"),
        "resource \"null_resource\" \"c\" {}\n",
    )
    .unwrap();
    let (code, out, err) = ferro(&dir, &["providers", "-no-color"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        out,
        "
Providers required by configuration:
.
├── provider[registry.terraform.io/hashicorp/null] >= 2.0.0
├── provider[terraform.io/builtin/terraform]
└── module.child
    ├── provider[registry.terraform.io/hashicorp/null] ~> 2.0
    └── module.grand
        └── provider[registry.terraform.io/hashicorp/null]

"
    );

    // With state, the providers it records follow.
    std::fs::write(
        dir.join("main.tf"),
        "resource \"terraform_data\" \"a\" {}\n",
    )
    .unwrap();
    std::fs::remove_dir_all(dir.join("child")).unwrap();
    let (code, _, err) = ferro(&dir, &["apply", "-auto-approve", "-no-color"]);
    assert_eq!(code, 0, "{err}");
    let (code, out, err) = ferro(&dir, &["providers", "-no-color"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.ends_with(
            "Providers required by state:\n\n    provider[terraform.io/builtin/terraform]\n\n"
        ),
        "{out}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn providers_schema_json_is_terraforms_format() {
    let dir = scratch("providers-schema");
    std::fs::write(
        dir.join("main.tf"),
        "resource \"terraform_data\" \"a\" {}\n",
    )
    .unwrap();
    let (code, out, err) = ferro(&dir, &["providers", "schema"]);
    assert_eq!(code, 1, "{out}");
    assert!(err.contains("-json"), "{err}");

    let (code, out, err) = ferro(&dir, &["providers", "schema", "-json"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        out.lines().count(),
        1,
        "one compact line, as Terraform writes it"
    );
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["format_version"], "0.2");
    let p = &v["provider_schemas"]["terraform.io/builtin/terraform"];
    let input = &p["resource_schemas"]["terraform_data"]["block"]["attributes"]["input"];
    assert_eq!(input["type"], "dynamic", "{p}");
    assert_eq!(input["optional"], true);
    assert!(input.get("required").is_none(), "false flags are left out");
    assert!(input["description_kind"].is_string());
    assert_eq!(
        p["resource_schemas"]["terraform_data"]["block"]["description_kind"],
        "plain"
    );
    // Terraform's own provider describes terraform_remote_state in markdown.
    let backend =
        &p["data_source_schemas"]["terraform_remote_state"]["block"]["attributes"]["backend"];
    assert_eq!(backend["description_kind"], "markdown", "{backend}");
    assert_eq!(backend["required"], true);
    let _ = std::fs::remove_dir_all(&dir);
}

/// The flags terraform-exec (the library most tools drive Terraform with) passes to `init`,
/// once `version -json` told it the binary is Terraform 1.0.3.
#[test]
fn init_takes_the_flags_driving_tools_pass() {
    let dir = scratch("init-flags");
    std::fs::write(
        dir.join("main.tf"),
        "resource \"terraform_data\" \"a\" {}\n",
    )
    .unwrap();
    let (code, out, err) = ferro(
        &dir,
        &[
            "init",
            "-no-color",
            "-force-copy",
            "-input=false",
            "-lock-timeout=0s",
            "-backend=true",
            "-get=true",
            "-upgrade=false",
            "-lock=true",
        ],
    );
    assert_eq!(code, 0, "{out}\n{err}");
    assert!(out.contains("Initializing the backend..."), "{out}");
    let _ = std::fs::remove_dir_all(&dir);
}
