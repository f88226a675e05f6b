//! The server driven as an editor drives it, in process: diagnostics as you type, navigation
//! across files and modules, completion, rename, formatting, and bad input that must never
//! crash it (every request gets a result or a JSON-RPC error).

mod common;

use common::{pos, workspace, Client};
use serde_json::{json, Value};

const MAIN: &str = r#"variable "region" {
  type        = string
  default     = "eu"
  description = "Where everything goes."
}

locals {
  name = "app-${var.region}"
}

resource "random_id" "suffix" {
  byte_length = 4
  keepers = {
    region = var.region
  }
}

module "net" {
  source = "./modules/net"
  cidr   = local.name
}

output "id" {
  value = "${random_id.suffix.hex}-${module.net.subnet}"
}
"#;

const NET: &str = r#"variable "cidr" {
  type = string
}

output "subnet" {
  value = var.cidr
}
"#;

fn tree(name: &str) -> (common::Workspace, Client) {
    let root = workspace(name, &[("main.tf", MAIN), ("modules/net/main.tf", NET)]);
    let c = Client::start(&root);
    (root, c)
}

fn at(c: &Client, file: &str, text: &str, needle: &str, delta: usize) -> Value {
    json!({"textDocument": {"uri": c.uri(file)}, "position": pos(text, needle, delta)})
}

#[test]
fn diagnostics_appear_as_you_type_and_clear_when_fixed() {
    let (_root, mut c) = tree("diags");
    let uri = c.uri("main.tf");
    c.open(&uri, MAIN);
    assert!(c.diagnostics(&uri).is_empty());
    // A one-character edit makes the reference undeclared.
    let p = pos(MAIN, "var.region}", 4);
    c.notify(
        "textDocument/didChange",
        json!({
            "textDocument": {"uri": uri, "version": 2},
            "contentChanges": [{"range": {"start": p, "end": {"line": p["line"], "character": p["character"].as_u64().unwrap() + 1}}, "text": "x"}],
        }),
    );
    let d = c.diagnostics(&uri);
    assert_eq!(d.len(), 1, "{d:?}");
    let msg = d[0]["message"].as_str().unwrap();
    assert!(
        msg.starts_with("Reference to undeclared input variable"),
        "{msg}"
    );
    assert_eq!(d[0]["range"]["start"]["line"], p["line"]);
    // Fixed again: the diagnostics are cleared.
    c.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": uri, "version": 3}, "contentChanges": [{"text": MAIN}]}),
    );
    assert!(c.diagnostics(&uri).is_empty());
    assert_eq!(c.shutdown(), 0);
}

#[test]
fn schema_diagnostics_of_builtin_providers() {
    let text = "resource \"random_id\" \"x\" {\n  bogus = 1\n}\n";
    let root = workspace("schema", &[("main.tf", text)]);
    let mut c = Client::start(&root);
    let uri = c.uri("main.tf");
    c.open(&uri, text);
    let d = c.diagnostics(&uri);
    let msgs: Vec<&str> = d.iter().map(|x| x["message"].as_str().unwrap()).collect();
    assert!(
        msgs.iter()
            .any(|m| m.starts_with("Missing required argument")),
        "{msgs:?} {:?}",
        c.notifications
    );
    assert!(
        msgs.iter().any(|m| m.starts_with("Unsupported argument")),
        "{msgs:?}"
    );
    c.shutdown();
}

#[test]
fn definition_and_references_cross_files_and_modules() {
    let (_root, mut c) = tree("nav");
    // var.region → the variable's name label.
    let r = c.result(
        "textDocument/definition",
        at(&c, "main.tf", MAIN, "var.region}", 5),
    );
    assert_eq!(r["range"]["start"], pos(MAIN, "region\" {", 0), "{r}");
    // module.net.subnet → the child's output.
    let r = c.result(
        "textDocument/definition",
        at(&c, "main.tf", MAIN, "net.subnet", 5),
    );
    assert_eq!(r["uri"], c.uri("modules/net/main.tf"));
    assert_eq!(r["range"]["start"], pos(NET, "subnet\"", 0));
    // A call argument → the child's variable.
    let r = c.result(
        "textDocument/definition",
        at(&c, "main.tf", MAIN, "cidr   =", 1),
    );
    assert_eq!(r["range"]["start"], pos(NET, "cidr\"", 0));
    // The source → the module's files.
    let r = c.result(
        "textDocument/definition",
        at(&c, "main.tf", MAIN, "./modules/net", 2),
    );
    assert_eq!(r[0]["uri"], c.uri("modules/net/main.tf"));
    // References of the child's variable: its declaration, its use, the parent's argument.
    let r = c.result(
        "textDocument/references",
        json!({"textDocument": {"uri": c.uri("modules/net/main.tf")}, "position": pos(NET, "cidr\"", 1), "context": {"includeDeclaration": true}}),
    );
    let uris: Vec<&str> = r
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["uri"].as_str().unwrap())
        .collect();
    assert_eq!(uris.len(), 3, "{r}");
    assert!(uris.contains(&c.uri("main.tf").as_str()));
    c.shutdown();
}

#[test]
fn rename_edits_every_reference_across_modules() {
    let (_root, mut c) = tree("rename");
    let r = c.result(
        "textDocument/rename",
        json!({"textDocument": {"uri": c.uri("modules/net/main.tf")}, "position": pos(NET, "subnet", 0), "newName": "sub"}),
    );
    let main_edits = r["changes"][c.uri("main.tf")].as_array().unwrap().clone();
    let net_edits = r["changes"][c.uri("modules/net/main.tf")]
        .as_array()
        .unwrap()
        .clone();
    assert_eq!(main_edits.len(), 1, "{r}");
    assert_eq!(net_edits.len(), 1, "{r}");
    assert_eq!(main_edits[0]["range"]["start"], pos(MAIN, "subnet}", 0));
    // Renaming a resource edits its name label and references, not its type.
    let r = c.result(
        "textDocument/rename",
        json!({"textDocument": {"uri": c.uri("main.tf")}, "position": pos(MAIN, "suffix.hex", 1), "newName": "tail"}),
    );
    let edits = r["changes"][c.uri("main.tf")].as_array().unwrap();
    assert_eq!(edits.len(), 2, "{r}");
    assert!(edits
        .iter()
        .any(|e| e["range"]["start"] == pos(MAIN, "suffix\" {", 0)));
    // A bad name is an error, not a crash.
    let r = c.request(
        "textDocument/rename",
        json!({"textDocument": {"uri": c.uri("main.tf")}, "position": pos(MAIN, "suffix.hex", 1), "newName": "9 x"}),
    );
    assert_eq!(r["error"]["code"], -32602, "{r}");
    c.shutdown();
}

#[test]
fn hover_completion_and_formatting() {
    let (_root, mut c) = tree("features");
    let h = c.result(
        "textDocument/hover",
        at(&c, "main.tf", MAIN, "var.region}", 5),
    );
    let text = h["contents"]["value"].as_str().unwrap();
    assert!(
        text.contains("string") && text.contains("Where everything goes."),
        "{text}"
    );
    let h = c.result(
        "textDocument/hover",
        at(&c, "main.tf", MAIN, "byte_length", 2),
    );
    assert!(
        h["contents"]["value"]
            .as_str()
            .unwrap()
            .contains("required"),
        "{h}"
    );
    // Completion of `var.` in a new expression.
    let edited = MAIN.replace("cidr   = local.name", "cidr   = var.");
    let uri = c.uri("main.tf");
    c.open(&uri, &edited);
    let r = c.result(
        "textDocument/completion",
        at(&c, "main.tf", &edited, "= var.", 6),
    );
    let labels: Vec<&str> = r["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["label"].as_str().unwrap())
        .collect();
    assert_eq!(labels, ["region"], "{r}");
    // Attribute names of a resource: required first.
    let body = "resource \"random_string\" \"s\" {\n  \n}\n";
    let uri2 = c.uri("extra.tf");
    c.open(&uri2, body);
    let r = c.result(
        "textDocument/completion",
        at(&c, "extra.tf", body, "{\n  ", 4),
    );
    let first = &r["items"]
        .as_array()
        .unwrap()
        .iter()
        .min_by_key(|i| i["sortText"].as_str().unwrap().to_string())
        .unwrap()["label"];
    assert_eq!(first, "length", "{r}");
    // A provider block offers OpenTofu's `alias` and `for_each` (1.9).
    let body = "provider \"random\" {\n  \n}\n";
    c.open(&uri2, body);
    let r = c.result(
        "textDocument/completion",
        at(&c, "extra.tf", body, "{\n  ", 4),
    );
    let labels: Vec<&str> = r["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["label"].as_str().unwrap())
        .collect();
    assert!(
        labels.contains(&"for_each") && labels.contains(&"alias"),
        "{r}"
    );
    // Formatting is ferro fmt's.
    let messy = "locals {\n  a=1\n  bb = 2\n}\n";
    c.open(&uri2, messy);
    let r = c.result(
        "textDocument/formatting",
        json!({"textDocument": {"uri": uri2}, "options": {"tabSize": 2, "insertSpaces": true}}),
    );
    assert_eq!(r[0]["newText"], "locals {\n  a  = 1\n  bb = 2\n}\n");
    c.shutdown();
}

#[test]
fn bad_input_never_crashes_the_server() {
    let root = workspace("robust", &[("main.tf", "variable \"x\" {}\n")]);
    let mut c = Client::spawn(&root);
    // Before initialize: an error.
    let r = c.request("textDocument/hover", json!({}));
    assert_eq!(r["error"]["code"], -32002, "{r}");
    let r = c.request(
        "initialize",
        json!({"rootUri": c.uri(""), "capabilities": {}}),
    );
    assert!(r["result"]["capabilities"].is_object());
    // Invalid UTF-8 and invalid JSON in a message body: a parse error, then business as usual.
    c.send_raw(b"Content-Length: 4\r\n\r\n\xff\xfe\xfd{");
    // A request for an unknown document gets an error.
    let r = c.request("textDocument/hover", json!({"textDocument": {"uri": "file:///nowhere/x.tf"}, "position": {"line": 0, "character": 0}}));
    assert_eq!(r["error"]["code"], -32602, "{r}");
    let r = c.request(
        "textDocument/hover",
        json!({"textDocument": {"uri": "untitled:1"}, "position": {"line": 0, "character": 0}}),
    );
    assert_eq!(r["error"]["code"], -32602, "{r}");
    assert!(
        c.notifications.is_empty()
            || c.notifications
                .iter()
                .all(|n| n["method"] != "window/logMessage")
    );
    // Half-typed blocks: every feature answers.
    let uri = c.uri("main.tf");
    let half = "resource \"random_id\" \"a\" {\n  byte_length = \nresource \"ran\nvariable \"x\" {\n  default = var.\n";
    c.open(&uri, half);
    for method in [
        "textDocument/hover",
        "textDocument/definition",
        "textDocument/completion",
        "textDocument/signatureHelp",
        "textDocument/references",
        "textDocument/prepareRename",
    ] {
        for line in 0..6 {
            for ch in [0, 3, 12, 40] {
                let r = c.request(method, json!({"textDocument": {"uri": uri}, "position": {"line": line, "character": ch}, "context": {"includeDeclaration": true}}));
                assert!(
                    r.get("result").is_some() || r["error"]["code"] == -32602,
                    "{method}: {r}"
                );
            }
        }
    }
    for method in [
        "textDocument/documentSymbol",
        "textDocument/formatting",
        "textDocument/semanticTokens/full",
        "textDocument/foldingRange",
    ] {
        let r = c.request(method, json!({"textDocument": {"uri": uri}}));
        assert!(r.get("result").is_some(), "{method}: {r}");
    }
    assert!(!c.diagnostics(&uri).is_empty());
    // Edits far past the end of the text are clamped.
    c.notify("textDocument/didChange", json!({"textDocument": {"uri": uri, "version": 5}, "contentChanges": [{"range": {"start": {"line": 99, "character": 0}, "end": {"line": 99, "character": 5}}, "text": "\n"}]}));
    // A file deleted while open keeps its editor text; after close it is gone.
    std::fs::remove_file(root.join("main.tf")).unwrap();
    c.notify(
        "workspace/didChangeWatchedFiles",
        json!({"changes": [{"uri": uri, "type": 3}]}),
    );
    let r = c.request(
        "textDocument/documentSymbol",
        json!({"textDocument": {"uri": uri}}),
    );
    assert!(r["result"].is_array(), "{r}");
    c.notify(
        "textDocument/didClose",
        json!({"textDocument": {"uri": uri}}),
    );
    let r = c.request(
        "textDocument/documentSymbol",
        json!({"textDocument": {"uri": uri}}),
    );
    assert_eq!(r["error"]["code"], -32602, "{r}");
    assert!(
        c.diagnostics(&uri).is_empty(),
        "the deleted file's diagnostics are cleared"
    );
    // A document that is not configuration is not analysed: requests about it are errors.
    let vars = c.uri("terraform.tfvars");
    c.open(&vars, "region = \"eu\"\n");
    let r = c.request(
        "textDocument/hover",
        json!({"textDocument": {"uri": vars}, "position": {"line": 0, "character": 1}}),
    );
    assert_eq!(r["error"]["code"], -32602, "{r}");
    assert!(c.diagnostics(&vars).is_empty());
    // Unknown methods are an error too.
    let r = c.request("textDocument/noSuchThing", json!({}));
    assert_eq!(r["error"]["code"], -32601, "{r}");
    assert_eq!(c.shutdown(), 0);
}

#[test]
fn exit_without_shutdown_is_exit_code_1() {
    let root = workspace("exit", &[]);
    let mut c = Client::start(&root);
    c.notify("exit", Value::Null);
    assert_eq!(c.join(), 1);
}

#[test]
fn dependency_cycles_are_reported_once_the_input_is_quiet() {
    let text = "locals {\n  a = local.b\n  b = local.a\n}\n";
    let root = workspace("cycle", &[("main.tf", text)]);
    let mut c = Client::start(&root);
    let uri = c.uri("main.tf");
    c.open(&uri, text);
    std::thread::sleep(std::time::Duration::from_millis(800));
    let d = c.diagnostics(&uri);
    assert_eq!(d.len(), 1, "{d:?}");
    assert!(
        d[0]["message"].as_str().unwrap().starts_with("Cycle"),
        "{d:?}"
    );
    c.shutdown();
}

#[test]
fn schemas_cached_by_init_are_used_for_validation() {
    use ferro_value::schema::{Attribute, Block, Schema};
    let text = "resource \"example_thing\" \"x\" {\n}\n";
    let root = workspace("cached", &[("main.tf", text)]);
    let schema = Schema::new(
        0,
        Block {
            attributes: [(
                "size".to_string(),
                Attribute::new(ferro_value::Type::Number).required(),
            )]
            .into_iter()
            .collect(),
            block_types: Default::default(),
            description: String::new(),
            description_markdown: false,
            deprecated: false,
        },
    );
    let mut catalog = ferro_lsp::schemas::SchemaCatalog {
        format_version: 1,
        ..Default::default()
    };
    let mut p = ferro_lsp::schemas::ProviderSchemas::default();
    p.resources.insert("example_thing".into(), schema);
    catalog
        .providers
        .insert("registry.terraform.io/acme/example".into(), p);
    let cache = root.join(ferro_lsp::schemas::CACHE_FILE);
    std::fs::create_dir_all(cache.parent().unwrap()).unwrap();
    std::fs::write(&cache, serde_json::to_vec(&catalog).unwrap()).unwrap();
    let mut c = Client::start(&root);
    let uri = c.uri("main.tf");
    c.open(&uri, text);
    let d = c.diagnostics(&uri);
    assert_eq!(d.len(), 1, "{d:?}");
    assert!(
        d[0]["message"]
            .as_str()
            .unwrap()
            .contains("\"size\" is required"),
        "{d:?}"
    );
    // Completion offers the cached provider's resource types.
    let r = c.result(
        "textDocument/completion",
        json!({"textDocument": {"uri": uri}, "position": {"line": 0, "character": 12}}),
    );
    assert!(
        r["items"]
            .as_array()
            .unwrap()
            .iter()
            .any(|i| i["label"] == "example_thing"),
        "{r}"
    );
    // The code action adds the missing argument.
    let r = c.result("textDocument/codeAction", json!({"textDocument": {"uri": uri}, "range": {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 0}}, "context": {"diagnostics": []}}));
    assert_eq!(
        r[0]["edit"]["changes"][&uri][0]["newText"], "  size = 0\n",
        "{r}"
    );
    c.shutdown();
}

#[test]
fn hover_shows_block_descriptions_from_cached_schemas() {
    use ferro_value::schema::{Attribute, Block, NestedBlock, NestingMode, Schema};
    let text = "resource \"example_thing\" \"x\" {\n  size = 1\n  rule {\n    port = 80\n  }\n}\n";
    let root = workspace("blockdesc", &[("main.tf", text)]);
    let rule = Block {
        attributes: [(
            "port".to_string(),
            Attribute::new(ferro_value::Type::Number).optional(),
        )]
        .into_iter()
        .collect(),
        block_types: Default::default(),
        description: "A firewall rule admitting one port.".into(),
        description_markdown: false,
        deprecated: false,
    };
    let schema = Schema::new(
        0,
        Block {
            attributes: [(
                "size".to_string(),
                Attribute::new(ferro_value::Type::Number).required(),
            )]
            .into_iter()
            .collect(),
            block_types: [(
                "rule".to_string(),
                NestedBlock {
                    nesting: NestingMode::List,
                    block: rule,
                    min_items: 0,
                    max_items: 0,
                },
            )]
            .into_iter()
            .collect(),
            description: "Manages an example thing.".into(),
            description_markdown: false,
            deprecated: false,
        },
    );
    let mut catalog = ferro_lsp::schemas::SchemaCatalog {
        format_version: 1,
        ..Default::default()
    };
    let mut p = ferro_lsp::schemas::ProviderSchemas::default();
    p.resources.insert("example_thing".into(), schema);
    catalog
        .providers
        .insert("registry.terraform.io/acme/example".into(), p);
    let cache = root.join(ferro_lsp::schemas::CACHE_FILE);
    std::fs::create_dir_all(cache.parent().unwrap()).unwrap();
    std::fs::write(&cache, serde_json::to_vec(&catalog).unwrap()).unwrap();
    let mut c = Client::start(&root);
    let uri = c.uri("main.tf");
    c.open(&uri, text);
    // The nested block type name.
    let r = c.result(
        "textDocument/hover",
        json!({"textDocument": {"uri": uri}, "position": {"line": 2, "character": 3}}),
    );
    let v = r["contents"]["value"].as_str().unwrap_or_default();
    assert!(v.contains("rule { … }"), "{r}");
    assert!(v.contains("A firewall rule admitting one port."), "{r}");
    // The resource block header shows the resource type's description.
    let r = c.result(
        "textDocument/hover",
        json!({"textDocument": {"uri": uri}, "position": {"line": 0, "character": 2}}),
    );
    let v = r["contents"]["value"].as_str().unwrap_or_default();
    assert!(v.contains("Manages an example thing."), "{r}");
    c.shutdown();
}

#[test]
fn schema_caches_without_block_descriptions_still_read() {
    // A cache written before blocks carried descriptions.
    let old = r#"{"format_version":1,"providers":{"registry.terraform.io/acme/example":{
        "provider":{"version":0,"block":{"attributes":{},"block_types":{}}},
        "resources":{"example_thing":{"version":0,"block":{"attributes":{},"block_types":{}}}},
        "data_sources":{}}}}"#;
    let c: ferro_lsp::schemas::SchemaCatalog = serde_json::from_str(old).unwrap();
    let p = &c.providers["registry.terraform.io/acme/example"];
    assert_eq!(p.resources["example_thing"].block.description, "");
}

#[test]
fn test_files_get_diagnostics_as_you_type() {
    let good = "run \"ok\" {\n  command = plan\n}\n";
    let root = workspace(
        "tftest",
        &[
            ("main.tf", "resource \"terraform_data\" \"a\" {}\n"),
            ("tests/a.tftest.hcl", good),
        ],
    );
    let mut c = Client::start(&root);
    let uri = c.uri("tests/a.tftest.hcl");
    c.open(&uri, good);
    assert!(c.diagnostics(&uri).is_empty());
    let bad = "run \"ok\" {\n  command = destroy\n}\n";
    c.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": uri, "version": 2}, "contentChanges": [{"text": bad}]}),
    );
    let d = c.diagnostics(&uri);
    assert_eq!(d.len(), 1, "{d:?}");
    assert!(
        d[0]["message"]
            .as_str()
            .unwrap()
            .starts_with("Invalid \"command\" keyword"),
        "{d:?}"
    );
    assert_eq!(d[0]["range"]["start"], json!({"line": 1, "character": 12}));
    c.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": uri, "version": 3}, "contentChanges": [{"text": good}]}),
    );
    assert!(c.diagnostics(&uri).is_empty());
    assert_eq!(c.shutdown(), 0);
}

#[test]
fn completion_in_test_files_knows_their_blocks() {
    let text = "run \"setup\" {\n}\n\nrun \"check\" {\n  as\n  variables {\n    x = run.\n  }\n}\n";
    let root = workspace("tftest-complete", &[("main.tf", "")]);
    let mut c = Client::start(&root);
    let uri = c.uri("a.tftest.hcl");
    c.open(&uri, text);
    let labels = |v: Value| -> Vec<String> {
        v["items"]
            .as_array()
            .unwrap()
            .iter()
            .map(|i| i["label"].as_str().unwrap().to_string())
            .collect()
    };
    let r = c.result(
        "textDocument/completion",
        json!({"textDocument": {"uri": uri}, "position": pos(text, "  as", 4)}),
    );
    assert_eq!(labels(r), ["assert"]);
    let r = c.result(
        "textDocument/completion",
        json!({"textDocument": {"uri": uri}, "position": pos(text, "run.\n", 4)}),
    );
    assert_eq!(labels(r), ["setup"]);
    assert_eq!(c.shutdown(), 0);
}

#[test]
fn encryption_block_completion_and_diagnostics() {
    let text = "terraform {\n  encryption {\n    key_provider \"pbkdf2\" \"k\" {\n      \n    }\n    method \"aes_gcm\" \"m\" {\n      keys = key_provider.pbkdf2.k\n    }\n    state {\n      \n    }\n    key_provider \"nope\" \"x\" {}\n  }\n}\n";
    let root = workspace("encryption-complete", &[("main.tf", "")]);
    let mut c = Client::start(&root);
    let uri = c.uri("enc.tf");
    c.open(&uri, text);
    let labels = |v: Value| -> Vec<String> {
        let mut l: Vec<String> = v["items"]
            .as_array()
            .unwrap()
            .iter()
            .map(|i| i["label"].as_str().unwrap().to_string())
            .collect();
        l.sort();
        l
    };
    // The pbkdf2 key provider's arguments.
    let r = c.result(
        "textDocument/completion",
        json!({"textDocument": {"uri": uri}, "position": pos(text, "\"k\" {\n      ", 13)}),
    );
    assert_eq!(
        labels(r),
        [
            "chain",
            "encrypted_metadata_alias",
            "hash_function",
            "iterations",
            "key_length",
            "passphrase",
            "salt_length"
        ]
    );
    // A target's.
    let r = c.result(
        "textDocument/completion",
        json!({"textDocument": {"uri": uri}, "position": pos(text, "state {\n      ", 14)}),
    );
    assert_eq!(labels(r), ["enforced", "fallback", "method"]);
    // References to what the block declares.
    let edited = text.replace(
        "state {\n      \n",
        "state {\n      method = method.aes_gcm.\n",
    );
    let uri2 = c.uri("enc2.tf");
    c.open(&uri2, &edited);
    let r = c.result(
        "textDocument/completion",
        json!({"textDocument": {"uri": uri2}, "position": pos(&edited, "method.aes_gcm.\n", 15)}),
    );
    assert_eq!(labels(r), ["m"]);
    let r = c.result(
        "textDocument/completion",
        json!({"textDocument": {"uri": uri2}, "position": pos(&edited, "keys = key_provider.", 20)}),
    );
    assert_eq!(labels(r), ["nope", "pbkdf2"]);
    // The unknown key provider type is reported where it is written.
    let diags = c.diagnostics(&uri);
    assert!(
        diags.iter().any(|d| d["message"]
            .as_str()
            .unwrap_or_default()
            .contains("Unknown key_provider type")),
        "{diags:?}"
    );
    assert_eq!(c.shutdown(), 0);
}

#[test]
fn tofu_files_are_configuration_and_lifecycle_completion_knows_opentofu_arguments() {
    // main.tofu hides main.tf: its output "y" is no duplicate of main.tofu's.
    let hidden = "output \"y\" {\n  value = 1\n}\n";
    let text = "resource \"terraform_data\" \"a\" {\n  lifecycle {\n    \n  }\n}\n\nmodule \"m\" {\n  source = \"./m\"\n  lifecycle {\n    \n  }\n}\n\nremoved {\n  from = terraform_data.b\n  lifecycle {\n    \n  }\n}\n\noutput \"y\" {\n  value = var.missing\n}\n";
    let root = workspace(
        "tofu-files",
        &[
            ("main.tf", hidden),
            ("m/main.tofu", "output \"v\" {\n  value = 1\n}\n"),
        ],
    );
    let mut c = Client::start(&root);
    let uri = c.uri("main.tofu");
    c.open(&uri, text);
    let d = c.diagnostics(&uri);
    let msgs: Vec<&str> = d.iter().map(|x| x["message"].as_str().unwrap()).collect();
    assert_eq!(msgs.len(), 1, "{msgs:?}");
    assert!(
        msgs[0].starts_with("Reference to undeclared input variable"),
        "{msgs:?}"
    );
    let labels = |v: Value| -> Vec<String> {
        let mut l: Vec<String> = v["items"]
            .as_array()
            .unwrap()
            .iter()
            .map(|i| i["label"].as_str().unwrap().to_string())
            .collect();
        l.sort();
        l
    };
    let inside = |nth: usize| {
        let at = text.match_indices("lifecycle {\n    ").nth(nth).unwrap().0;
        let line = text[..at].matches('\n').count();
        json!({"textDocument": {"uri": uri}, "position": {"line": line + 1, "character": 4}})
    };
    let r = c.result("textDocument/completion", inside(0));
    assert_eq!(
        labels(r),
        [
            "create_before_destroy",
            "destroy",
            "enabled",
            "ignore_changes",
            "prevent_destroy"
        ]
    );
    let r = c.result("textDocument/completion", inside(1));
    assert_eq!(labels(r), ["enabled"]);
    let r = c.result("textDocument/completion", inside(2));
    assert_eq!(labels(r), ["destroy"]);
    // A removed block's own body: `from` is written, so only the blocks are left.
    let at = text.find("  from = terraform_data.b").unwrap();
    let line = text[..at].matches('\n').count();
    let r = c.result(
        "textDocument/completion",
        json!({"textDocument": {"uri": uri}, "position": {"line": line, "character": 0}}),
    );
    assert_eq!(labels(r), ["lifecycle", "provisioner"]);
    // OpenTofu's `deprecated` in an output.
    let at = text.find("  value = var.missing").unwrap();
    let line = text[..at].matches('\n').count();
    let r = c.result(
        "textDocument/completion",
        json!({"textDocument": {"uri": uri}, "position": {"line": line, "character": 0}}),
    );
    assert!(labels(r).contains(&"deprecated".to_string()));
    assert_eq!(c.shutdown(), 0);
}

#[test]
fn module_source_from_variables_is_no_error() {
    // OpenTofu 1.8 evaluates a module call's `source` and `version` early, from variables and
    // locals: the editor reports no "literal string" error for them, but still checks the
    // references they make.
    let text = "variable \"dir\" {\n  default = \"./m\"\n}\n\nlocals {\n  dir = var.dir\n}\n\nmodule \"a\" {\n  source = local.dir\n}\n\nmodule \"b\" {\n  source  = \"./m\"\n  version = var.dir\n}\n";
    let root = workspace(
        "early-source",
        &[
            ("main.tf", text),
            ("m/main.tf", "output \"x\" {\n  value = 1\n}\n"),
        ],
    );
    let mut c = Client::start(&root);
    let uri = c.uri("main.tf");
    c.open(&uri, text);
    let d = c.diagnostics(&uri);
    assert!(d.is_empty(), "{d:?}");
    let typo = text.replace("source = local.dir", "source = var.dri");
    c.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": uri, "version": 2}, "contentChanges": [{"text": typo}]}),
    );
    let d = c.diagnostics(&uri);
    let msgs: Vec<&str> = d.iter().map(|x| x["message"].as_str().unwrap()).collect();
    assert!(
        msgs.iter()
            .any(|m| m.starts_with("Reference to undeclared input variable")),
        "{msgs:?}"
    );
    assert_eq!(c.shutdown(), 0);
}

#[test]
fn provider_functions_complete_and_hover_with_their_signatures() {
    let required = "terraform {\n  required_providers {\n    terraform = {\n      source = \"terraform.io/builtin/terraform\"\n    }\n  }\n}\n";
    let text = "output \"a\" {\n  value = provider::terraform::encode_expr(1)\n}\n\noutput \"b\" {\n  value = provider::terraform::\n}\n\noutput \"c\" {\n  value = provider::\n}\n";
    let checked = "output \"d\" {\n  value = provider::terraform::nosuch(1)\n}\n";
    let root = workspace(
        "provider-functions",
        &[
            ("versions.tf", required),
            ("main.tf", text),
            ("d.tf", checked),
        ],
    );
    let mut c = Client::start(&root);
    let uri = c.uri("main.tf");
    c.open(&uri, text);
    let labels = |v: Value| -> Vec<String> {
        let mut l: Vec<String> = v["items"]
            .as_array()
            .unwrap()
            .iter()
            .map(|i| i["label"].as_str().unwrap().to_string())
            .collect();
        l.sort();
        l
    };
    let after = |needle: &str| {
        let at = text.find(needle).unwrap() + needle.len();
        let line = text[..at].matches('\n').count();
        let col = at - text[..at].rfind('\n').map_or(0, |i| i + 1);
        json!({"textDocument": {"uri": uri}, "position": {"line": line, "character": col}})
    };
    let r = c.result(
        "textDocument/completion",
        after("  value = provider::terraform::"),
    );
    assert_eq!(labels(r), ["decode_tfvars", "encode_expr", "encode_tfvars"]);
    let r = c.result("textDocument/completion", after("  value = provider::"));
    assert!(labels(r).contains(&"terraform".to_string()));
    let r = c.result(
        "textDocument/hover",
        after("  value = provider::terraform::enc"),
    );
    let hover = r["contents"]["value"].as_str().unwrap().to_string();
    assert!(
        hover.contains("provider::terraform::encode_expr(value any) string"),
        "{hover}"
    );
    assert!(hover.contains("Terraform expression syntax"), "{hover}");
    // Diagnostics come from lowering and validation against the declarations.
    let d_uri = c.uri("d.tf");
    c.open(&d_uri, checked);
    let d = c.diagnostics(&d_uri);
    let msgs: Vec<&str> = d.iter().map(|x| x["message"].as_str().unwrap()).collect();
    assert!(
        msgs.iter().any(|m| m
            .contains("The function \"nosuch\" is not available from the provider \"terraform\"")),
        "{msgs:?}"
    );
    assert_eq!(c.shutdown(), 0);
}

#[test]
fn ephemeral_blocks_complete_and_hover_from_the_schema() {
    let text = "ephemeral \"random_password\" \"db\" {\n  \n}\n\nlocals {\n  a = ephemeral.\n  b = ephemeral.random_password.\n  c = ephemeral.random_password.db.\n}\n";
    let root = workspace("ephemeral-blocks", &[("main.tf", text)]);
    let mut c = Client::start(&root);
    let uri = c.uri("main.tf");
    c.open(&uri, text);
    let labels = |v: Value| -> Vec<String> {
        let mut l: Vec<String> = v["items"]
            .as_array()
            .unwrap()
            .iter()
            .map(|i| i["label"].as_str().unwrap().to_string())
            .collect();
        l.sort();
        l
    };
    let after = |needle: &str| {
        let at = text.find(needle).unwrap() + needle.len();
        let line = text[..at].matches('\n').count();
        let col = at - text[..at].rfind('\n').map_or(0, |i| i + 1);
        json!({"textDocument": {"uri": uri}, "position": {"line": line, "character": col}})
    };
    // The block's arguments from the ephemeral resource's schema, and the meta-arguments.
    let r = c.result("textDocument/completion", after("\"db\" {\n  "));
    let got = labels(r);
    for want in [
        "length",
        "override_special",
        "count",
        "for_each",
        "lifecycle",
    ] {
        assert!(got.contains(&want.to_string()), "{want} in {got:?}");
    }
    assert!(!got.contains(&"result".to_string()), "{got:?}");
    assert!(!got.contains(&"keepers".to_string()), "{got:?}");
    // References: types, names, attributes.
    let r = c.result("textDocument/completion", after("  a = ephemeral."));
    assert_eq!(labels(r), ["random_password"]);
    let r = c.result(
        "textDocument/completion",
        after("  b = ephemeral.random_password."),
    );
    assert_eq!(labels(r), ["db"]);
    let r = c.result(
        "textDocument/completion",
        after("  c = ephemeral.random_password.db."),
    );
    let got = labels(r);
    assert!(
        got.contains(&"result".to_string()) && got.contains(&"bcrypt_hash".to_string()),
        "{got:?}"
    );
    // Hover on the block's header names the kind and the schema's size.
    let r = c.result("textDocument/hover", after("ephemeral \"random_pa"));
    let hover = r["contents"]["value"].as_str().unwrap().to_string();
    assert!(hover.contains("ephemeral \"random_password\""), "{hover}");
    // A block label completes the ephemeral resource types.
    let typed = text.replace("\"random_password\" \"db\"", "\"\" \"db\"");
    c.open(&uri, &typed);
    let at = typed.find("ephemeral \"").unwrap() + "ephemeral \"".len();
    let r = c.result(
        "textDocument/completion",
        json!({"textDocument": {"uri": uri}, "position": {"line": 0, "character": at}}),
    );
    assert_eq!(labels(r), ["random_password"]);
    assert_eq!(c.shutdown(), 0);
}

/// Import blocks in a child module (Terraform 1.16) are no error; one whose target the module
/// does not declare is Terraform's validate error at its `to`.
#[test]
fn import_blocks_in_child_modules() {
    let main = "module \"child\" {\n  source = \"./child\"\n  prefix = \"p\"\n}\n";
    let child = r#"variable "prefix" {
  type = string
}

locals {
  ids = { a = "x", b = "y" }
}

import {
  to = terraform_data.one
  id = "${var.prefix}-one"
}

import {
  for_each = local.ids
  to       = terraform_data.many[each.key]
  id       = each.value
}

resource "terraform_data" "one" {}

resource "terraform_data" "many" {
  for_each = local.ids
}
"#;
    let root = workspace(
        "child-imports",
        &[("main.tf", main), ("child/main.tf", child)],
    );
    let mut c = Client::start(&root);
    let uri = c.uri("child/main.tf");
    c.open(&uri, child);
    assert!(c.diagnostics(&uri).is_empty(), "{:?}", c.diagnostics(&uri));
    let bad = child.replace("terraform_data.one\n", "terraform_data.nowhere\n");
    c.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": uri, "version": 2}, "contentChanges": [{"text": bad}]}),
    );
    let d = c.diagnostics(&uri);
    assert_eq!(d.len(), 1, "{d:?}");
    assert!(d[0]["message"]
        .as_str()
        .unwrap()
        .starts_with("Configuration for import target does not exist"));
    assert_eq!(
        d[0]["range"]["start"],
        pos(&bad, "terraform_data.nowhere", 0)
    );
    c.shutdown();
}

#[test]
fn import_identity_completes_and_hovers_from_the_identity_schema() {
    use ferro_lsp::schemas::{IdentityAttribute, IdentitySchema, ProviderSchemas, SchemaCatalog};
    use ferro_value::schema::{Attribute, Block, Schema};
    let text = "import {\n  to = example_thing.x\n  identity = {\n    name = \"a\"\n    \n  }\n}\n\nimport {\n  to = example_thing.y\n  \n  id = \"y\"\n}\n\nresource \"example_thing\" \"x\" {\n  size = 1\n}\n\nresource \"example_thing\" \"y\" {\n  size = 2\n}\n";
    let root = workspace("importidentity", &[("main.tf", text)]);
    let schema = Schema::new(
        0,
        Block {
            attributes: [(
                "size".to_string(),
                Attribute::new(ferro_value::Type::Number).required(),
            )]
            .into_iter()
            .collect(),
            ..Block::default()
        },
    );
    let attr = |required: bool, description: &str| IdentityAttribute {
        ty: ferro_value::Type::String,
        required_for_import: required,
        description: description.into(),
    };
    let identity = IdentitySchema {
        attributes: [
            ("name".to_string(), attr(true, "The thing's name.")),
            ("zone".to_string(), attr(false, "The thing's zone.")),
            ("region".to_string(), attr(false, "")),
        ]
        .into_iter()
        .collect(),
    };
    let mut p = ProviderSchemas::default();
    p.resources.insert("example_thing".into(), schema);
    p.identities.insert("example_thing".into(), identity);
    let mut catalog = SchemaCatalog {
        format_version: 1,
        ..Default::default()
    };
    catalog
        .providers
        .insert("registry.terraform.io/acme/example".into(), p);
    let cache = root.join(ferro_lsp::schemas::CACHE_FILE);
    std::fs::create_dir_all(cache.parent().unwrap()).unwrap();
    std::fs::write(&cache, serde_json::to_vec(&catalog).unwrap()).unwrap();
    let mut c = Client::start(&root);
    let uri = c.uri("main.tf");
    c.open(&uri, text);
    let d0 = c.diagnostics(&uri);
    assert!(d0.is_empty(), "{d0:?}");
    let items = |r: &Value| -> Vec<Value> { r["items"].as_array().unwrap().clone() };
    let label = |i: &Value| i["label"].as_str().unwrap().to_string();
    // Inside the object: the identity attributes not set yet, the required ones first.
    let r = c.result(
        "textDocument/completion",
        at(&c, "main.tf", text, "\"a\"\n    ", 8),
    );
    let mut got = items(&r);
    got.sort_by_key(|i| i["sortText"].as_str().unwrap().to_string());
    assert_eq!(
        got.iter().map(label).collect::<Vec<_>>(),
        ["region", "zone"],
        "{r}"
    );
    let zone = &got[1];
    assert_eq!(zone["detail"], "optional for import string", "{r}");
    assert_eq!(zone["documentation"], "The thing's zone.", "{r}");
    assert_eq!(zone["insertText"], "zone = $0", "{r}");
    // An empty object offers `name` first.
    let empty = text.replace("    name = \"a\"\n", "");
    c.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": uri, "version": 2}, "contentChanges": [{"text": empty}]}),
    );
    let r = c.result(
        "textDocument/completion",
        at(&c, "main.tf", &empty, "identity = {\n    ", 17),
    );
    let mut got = items(&r);
    got.sort_by_key(|i| i["sortText"].as_str().unwrap().to_string());
    assert_eq!(got[0]["label"], "name", "{r}");
    assert_eq!(got[0]["detail"], "required for import string", "{r}");
    // The block's own arguments: `identity` where it is not set yet.
    let r = c.result(
        "textDocument/completion",
        at(&c, "main.tf", &empty, "example_thing.y\n  ", 18),
    );
    let labels: Vec<String> = items(&r).iter().map(label).collect();
    assert!(labels.contains(&"identity".to_string()), "{labels:?}");
    assert!(labels.contains(&"for_each".to_string()), "{labels:?}");
    assert!(!labels.contains(&"to".to_string()), "{labels:?}");
    assert!(!labels.contains(&"id".to_string()), "{labels:?}");
    let r = c.result(
        "textDocument/completion",
        at(&c, "main.tf", &empty, "example_thing.x\n  ", 18),
    );
    let labels: Vec<String> = items(&r).iter().map(label).collect();
    assert!(!labels.contains(&"identity".to_string()), "{labels:?}");
    c.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": uri, "version": 3}, "contentChanges": [{"text": text}]}),
    );
    assert!(c.diagnostics(&uri).is_empty());
    // Hover: an attribute of the object, and the argument.
    let r = c.result(
        "textDocument/hover",
        at(&c, "main.tf", text, "name = \"a\"", 1),
    );
    let v = r["contents"]["value"].as_str().unwrap();
    assert!(v.contains("name: string"), "{v}");
    assert!(v.contains("*required for import*"), "{v}");
    assert!(v.contains("The thing's name."), "{v}");
    let r = c.result(
        "textDocument/hover",
        at(&c, "main.tf", text, "identity = {", 2),
    );
    let v = r["contents"]["value"].as_str().unwrap();
    assert!(v.contains("identity: object"), "{v}");
    assert!(v.contains("Terraform 1.12"), "{v}");
    // The editor checks the object against the cached identity schema, as `validate` does.
    let bad = text.replace("name = \"a\"", "zone = \"eu\"");
    c.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": uri, "version": 4}, "contentChanges": [{"text": bad}]}),
    );
    let d = c.diagnostics(&uri);
    assert_eq!(d.len(), 1, "{d:?}");
    assert!(
        d[0]["message"]
            .as_str()
            .unwrap()
            .contains("attribute \"name\" is required"),
        "{d:?}"
    );
    c.shutdown();
}

/// An import block's `identity` for a type without an identity schema is refused (plan's and
/// validate's error) only when the schema cache says it recorded identity schemas: the caches
/// older versions of ferro wrote have none, for every type.
#[test]
fn import_identity_for_a_type_without_one_is_refused_when_the_cache_records_identities() {
    use ferro_lsp::schemas::{ProviderSchemas, SchemaCatalog};
    use ferro_value::schema::{Block, Schema};
    let text = "import {\n  to = example_plain.x\n  identity = {\n    name = \"a\"\n  }\n}\n\nresource \"example_plain\" \"x\" {}\n";
    let diagnostics = |name: &str, recorded: bool| {
        let root = workspace(name, &[("main.tf", text)]);
        let mut p = ProviderSchemas::default();
        p.resources
            .insert("example_plain".into(), Schema::new(0, Block::default()));
        p.identities_recorded = recorded;
        let mut catalog = SchemaCatalog {
            format_version: 1,
            ..Default::default()
        };
        catalog
            .providers
            .insert("registry.terraform.io/acme/example".into(), p);
        let cache = root.join(ferro_lsp::schemas::CACHE_FILE);
        std::fs::create_dir_all(cache.parent().unwrap()).unwrap();
        let mut json = serde_json::to_value(&catalog).unwrap();
        if !recorded {
            // As an older ferro wrote it: without the marker at all.
            let p = &mut json["providers"]["registry.terraform.io/acme/example"];
            p.as_object_mut().unwrap().remove("identities_recorded");
        }
        std::fs::write(&cache, serde_json::to_vec(&json).unwrap()).unwrap();
        let mut c = Client::start(&root);
        let uri = c.uri("main.tf");
        c.open(&uri, text);
        let d = c.diagnostics(&uri);
        c.shutdown();
        d
    };
    let old = diagnostics("importnoidentityold", false);
    assert!(old.is_empty(), "{old:?}");
    let d = diagnostics("importnoidentity", true);
    assert_eq!(d.len(), 1, "{d:?}");
    let message = d[0]["message"].as_str().unwrap();
    assert!(
        message.contains("unknown identity type \"example_plain\""),
        "{d:?}"
    );
    assert!(message.contains("import it by \"id\""), "{d:?}");
    // At the identity's value, as plan and validate point.
    assert_eq!(
        d[0]["range"]["start"],
        json!({"line": 2, "character": 13}),
        "{d:?}"
    );
}
