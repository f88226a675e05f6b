variable "name" {
  type    = string
  default = "declared"
}

run "default_or_cli" {
  variables {
    name = var.name
  }

  assert {
    condition     = output.name == var.name
    error_message = "Expected ${var.name}, got ${output.name}."
  }
}
