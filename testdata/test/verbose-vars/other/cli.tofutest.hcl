run "opentofu_file_wins" {
  command = plan

  assert {
    condition     = terraform_data.a.input == var.name
    error_message = "The -var value did not arrive."
  }
}
