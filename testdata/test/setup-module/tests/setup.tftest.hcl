run "setup" {
  module {
    source = "./setup"
  }

  variables {
    prefix = "test"
  }
}

run "main" {
  variables {
    name = run.setup.name
  }

  assert {
    condition     = startswith(output.bucket, "bucket-test-")
    error_message = "The bucket was not named after the setup's pet."
  }
}

run "second_state" {
  state_key = "copy"

  variables {
    name = "copy"
  }

  assert {
    condition     = output.bucket == "bucket-copy"
    error_message = "Wrong bucket."
  }
}

run "refresh_only" {
  variables {
    name = run.setup.name
  }

  plan_options {
    mode = refresh-only
  }

  assert {
    condition     = output.bucket == run.main.bucket
    error_message = "A refresh-only run changed the bucket."
  }
}

run "targeted" {
  command = plan

  variables {
    name = "changed"
  }

  plan_options {
    target  = [terraform_data.other]
    replace = [terraform_data.other]
    refresh = false
  }

  assert {
    condition     = terraform_data.bucket.input == "bucket-${run.setup.name}"
    error_message = "The untargeted bucket was planned."
  }
}
