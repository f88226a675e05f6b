variable "greeting" {
  default = "hello"
}

resource "terraform_data" "a" {
  input = var.greeting
}

check "greets" {
  assert {
    condition     = terraform_data.a.output == "hello"
    error_message = "The output is ${terraform_data.a.output}."
  }
}
