run "from_cli" {
  assert {
    condition     = output.name == var.name
    error_message = "The -var value did not arrive."
  }
}
