# Terraform 1.13 evaluates a test file's variables with its built-in functions only: a
# provider-defined function there is a call to an unknown function (also under core::).
variables {
  who   = provider::ferrotest::greet("file")
  other = core::upper("x")
}

run "greets" {
  command = plan
}
