variable "v" {
  default = "x"
}

resource "terraform_data" "a" {
  input            = var.v
  triggers_replace = ["t1"]
}

output "o" {
  value = terraform_data.a.input
}
