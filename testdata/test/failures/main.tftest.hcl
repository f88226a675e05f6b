run "wrong_value" {
  variables {
    size = 3
  }

  assert {
    condition     = output.double == 7
    error_message = "Expected ${output.double} to be 7."
  }

  assert {
    condition     = terraform_data.a.input > 0
    error_message = "Never shown."
  }
}

run "secret_compare" {
  command = plan

  variables {
    size = 1
  }

  assert {
    condition     = var.secret == "swordfish"
    error_message = "The secret is wrong."
  }
}

run "unknown_in_plan" {
  command = plan

  variables {
    size = 2
  }

  assert {
    condition     = output.double == 4
    error_message = "Never decided."
  }
}

run "after_error" {
  command = plan

  variables {
    size = 1
  }
}
