variable "input" {
}

resource "terraform_data" "mid" {
  input = "${var.input}-mid"
}

output "out" {
  value = terraform_data.mid.output
}
