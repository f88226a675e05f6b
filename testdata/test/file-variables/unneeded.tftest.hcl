# Terraform 1.13: a file-level variable that fails is reported even when no run needs it, and
# the file fails; one that refers to a run that did not complete is skipped without a word.
variables {
  input  = "ok"
  unused = length(null)
  late   = run.broken.out
}

run "passes" {
  assert {
    condition     = output.out == "ok-0"
    error_message = "passes: ${output.out}"
  }
}

run "broken" {
  variables {
    n = "not a number"
  }
}
