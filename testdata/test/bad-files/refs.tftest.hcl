run "undeclared" {
  command = plan

  assert {
    condition     = terraform_data.missing.id == "x"
    error_message = "No such resource."
  }
}
