# Terraform 1.12: a failure expected of an apply that does not happen fails the run, and the
# runs after it go on.
run "expects_failure" {
  variables {
    size = 3
  }

  expect_failures = [
    output.double,
  ]
}

run "continues" {
  variables {
    size = 1
  }

  assert {
    condition     = output.double == 2
    error_message = "double is ${output.double}"
  }
}
