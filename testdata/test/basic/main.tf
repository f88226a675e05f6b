variable "name" {
  type = string
}

variable "length" {
  type    = number
  default = 4
}

resource "terraform_data" "greeting" {
  input = "hello ${var.name}"
}

resource "random_string" "suffix" {
  length  = var.length
  special = false
}

output "greeting" {
  value = terraform_data.greeting.output
}

output "suffix_length" {
  value = length(random_string.suffix.result)
}
