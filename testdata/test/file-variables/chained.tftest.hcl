# Terraform 1.13: file-level variables refer to each other and to runs' outputs; a run that
# does not need one that cannot be evaluated yet runs all the same.
variables {
  input  = "${var.prefix}-file"
  prefix = "p"
  later  = run.setup.out
  twice  = "${var.later}/${var.later}"
}

run "setup" {
  assert {
    condition     = output.out == "p-file-0"
    error_message = "setup: ${output.out}"
  }
}

run "uses" {
  variables {
    input = var.twice
  }

  assert {
    condition     = output.out == "p-file-0/p-file-0-0"
    error_message = "uses: ${output.out}"
  }
}
