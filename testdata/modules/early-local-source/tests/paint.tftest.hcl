# The module the variable chooses is the one the test runs.
run "paint" {
  assert {
    condition     = output.paint == "green module says green"
    error_message = "the module the variable chose was not used"
  }
}
