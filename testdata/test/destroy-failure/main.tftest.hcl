run "create" {
  assert {
    condition     = ferrotest_thing.stuck.value == "x"
    error_message = "Wrong value."
  }
}
