run "apply_blocked" {
  variables {
    size = 0
  }

  expect_failures = [
    var.size,
  ]
}

run "skipped" {
  variables {
    size = 1
  }
}
