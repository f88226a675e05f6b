# var.NAME in a provider block: a -var value the module does not declare.
provider "ferrotest" {
  prefix = "${var.label}-"
}

run "from_cli" {
  assert {
    condition     = startswith(output.computed, "cli-")
    error_message = "The provider did not see -var: ${output.computed}"
  }
}
