# The configuration requires the provider but never calls its functions: only the
# assertions do, as in Terraform (the functions of every provider the module requires).
run "greets" {
  command = plan

  assert {
    condition     = provider::ferrotest::greet(output.who) == "Hello, module!"
    error_message = "got ${provider::ferrotest::greet(output.who)}"
  }
}

run "applies" {
  assert {
    condition     = provider::ferrotest::sum(1, 2) == 4
    error_message = "sum is ${provider::ferrotest::sum(1, 2)}"
  }
}

run "unknown" {
  command = plan

  assert {
    condition     = provider::nothere::greet("x") == "x"
    error_message = "never"
  }
}
