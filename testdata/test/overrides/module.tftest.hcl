mock_provider "cloud" {}

run "module_override" {
  override_module {
    target = module.child
    outputs = {
      id   = "fixed-id"
      tags = { label = "fixed ${"$"}{not a template}" }
    }
  }

  assert {
    condition     = output.child_id == "fixed-id"
    error_message = "The module's outputs were not overridden."
  }

  assert {
    condition     = module.child.tags.label == "fixed $${not a template}"
    error_message = "Got ${module.child.tags.label}."
  }
}

run "real_module" {
  assert {
    condition     = length(output.child_id) == 36
    error_message = "Without the override the module runs."
  }
}
