variable "name" {
  default = "web-1"
}

resource "terraform_data" "a" {
  input = var.name

  lifecycle {
    postcondition {
      condition     = startswith(self.output, "web-")
      error_message = "The name must start with web-, got ${self.output}."
    }
  }
}
