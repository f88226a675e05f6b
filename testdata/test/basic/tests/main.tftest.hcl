variables {
  name = "world"
}

run "plan_only" {
  command = plan

  assert {
    condition     = terraform_data.greeting.input == "hello world"
    error_message = "The greeting is wrong."
  }
}

run "apply" {
  variables {
    length = 6
  }

  assert {
    condition     = output.greeting == "hello world"
    error_message = "The output is wrong."
  }

  assert {
    condition     = output.suffix_length == 6
    error_message = "The suffix has the wrong length."
  }
}

run "uses_previous" {
  variables {
    name = "again ${run.apply.greeting}"
  }

  assert {
    condition     = terraform_data.greeting.output == "hello again hello world"
    error_message = "The previous run's output did not arrive."
  }
}
