# A file-level variable that fails is reported for the runs that need it, once; a run that
# does not need it passes.
variables {
  input = "ok"
  bad   = length(null)
  worse = "${var.bad}!"
}

run "independent" {
  assert {
    condition     = output.out == "ok-0"
    error_message = "independent: ${output.out}"
  }
}

run "needs_bad" {
  variables {
    input = var.worse
  }
}

run "after" {
}
