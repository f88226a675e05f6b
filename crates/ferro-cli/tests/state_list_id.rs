//! `state list -id=ID`: only the instances whose object's `id` is ID, as Terraform prints
//! them: nothing (and exit 0) when none match, an address filter naming a resource in state
//! is no error when its instances do not match, and `-id` belongs to `list` alone.

mod cli_support;

use cli_support::{ferro, scratch};

#[test]
fn state_list_filters_by_id() {
    let dir = scratch("state-list-id");
    std::fs::write(
        dir.join("main.tf"),
        "resource \"terraform_data\" \"a\" {\n  count = 2\n}\nresource \"terraform_data\" \"b\" {}\n",
    )
    .unwrap();
    let (code, _, err) = ferro(&dir, &["apply", "-auto-approve", "-no-color"]);
    assert_eq!(code, 0, "{err}");
    let state: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("terraform.tfstate")).unwrap())
            .unwrap();
    let id_of_a1 = state["resources"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["name"] == "a")
        .unwrap()["instances"][1]["attributes"]["id"]
        .as_str()
        .unwrap()
        .to_string();
    let flag = format!("-id={id_of_a1}");

    let (code, out, _) = ferro(&dir, &["state", "list", &flag]);
    assert_eq!((code, out.as_str()), (0, "terraform_data.a[1]\n"));
    let (code, out, _) = ferro(&dir, &["state", "list", &flag, "terraform_data.b"]);
    assert_eq!((code, out.as_str()), (0, ""));
    let (code, out, _) = ferro(&dir, &["state", "list", "-id=nomatch"]);
    assert_eq!((code, out.as_str()), (0, ""));
    let (code, _, err) = ferro(&dir, &["state", "list", &flag, "terraform_data.zz"]);
    assert_eq!(code, 1);
    assert!(err.contains("Unknown resource"), "{err}");
    let (code, _, err) = ferro(&dir, &["state", "show", &flag, "terraform_data.b"]);
    assert_eq!(code, 1);
    assert!(err.contains("-id"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}
