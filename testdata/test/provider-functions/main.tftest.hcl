# Assertions call the provider's functions as the configuration does.
run "greets" {
  command = plan

  assert {
    condition     = output.greeting == provider::ferrotest::greet("module")
    error_message = "the greeting is not the provider's"
  }

  assert {
    condition     = provider::ferrotest::sum(1, 2) == 3
    error_message = "sum is wrong"
  }
}

run "fails" {
  command = plan

  assert {
    condition     = provider::ferrotest::greet("x") == "Hi, x"
    error_message = "the provider greets differently: ${provider::ferrotest::greet("x")}"
  }
}
