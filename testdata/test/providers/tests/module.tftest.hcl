run "module_provider" {
  assert {
    condition     = output.computed == "from-module-computed-v"
    error_message = "Without provider blocks in the test file the module's own is used: ${output.computed}"
  }
}
