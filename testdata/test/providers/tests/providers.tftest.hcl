provider "ferrotest" {
  prefix = "from-test-"
}

run "file_provider" {
  assert {
    condition     = startswith(output.computed, "from-test-")
    error_message = "The test file's provider block was not used: ${output.computed}"
  }
}
