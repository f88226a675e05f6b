# Terraform 1.13: a provider block's reference to a value given from outside without a
# definition warns, once for the file.
provider "ferrotest" {
  prefix = var.prefix
}

run "first" {
  assert {
    condition     = startswith(output.computed, "from-var-")
    error_message = "The provider block's value was not used: ${output.computed}"
  }
}

run "second" {
}
