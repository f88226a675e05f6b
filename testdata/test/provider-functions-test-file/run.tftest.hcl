# The same in a run's variables.
run "greets" {
  command = plan

  variables {
    who = provider::ferrotest::greet("run")
  }
}
