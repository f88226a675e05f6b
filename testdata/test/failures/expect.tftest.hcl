run "invalid_size" {
  command = plan

  variables {
    size = -1
  }

  expect_failures = [
    var.size,
  ]
}

run "too_large" {
  command = plan

  variables {
    size = 500
  }

  expect_failures = [
    output.double,
    check.small,
  ]
}

run "check_warning_expected" {
  variables {
    size = 20
  }

  expect_failures = [
    check.small,
  ]
}

run "postcondition_expected" {
  variables {
    size = 30
  }

  expect_failures = [
    terraform_data.checked,
    check.small,
  ]
}

run "nothing_fails" {
  command = plan

  variables {
    size = 5
  }

  expect_failures = [
    var.size,
  ]
}
