run "one" {
  parallel  = true
  state_key = "one"

  variables {
    name = "one"
  }
}

run "two" {
  parallel  = true
  state_key = "two"

  variables {
    name = "two"
  }
}

run "three" {
  parallel  = true
  state_key = "three"

  variables {
    name = "three"
  }
}

run "uses_them" {
  parallel = true

  variables {
    name = "${run.one.name}-${run.two.name}-${run.three.name}"
  }

  assert {
    condition     = output.name == "one-two-three"
    error_message = "The parallel runs' outputs did not arrive."
  }
}
