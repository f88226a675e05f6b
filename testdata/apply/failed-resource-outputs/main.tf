variable "v" {
  default = "1"
}

# Its provisioner fails unless v is "1": the new object is left tainted.
resource "terraform_data" "p" {
  input            = var.v
  triggers_replace = var.v
  provisioner "local-exec" {
    command = "test ${var.v} = 1"
  }
}

resource "terraform_data" "q" {
  input = terraform_data.p.id
}

# Planned wholly known: written as planned even though terraform_data.p failed.
output "v" {
  value = terraform_data.p.input
}

# Known only after apply: left as it was, since what it needs failed.
output "pid" {
  value = terraform_data.p.id
}

output "q" {
  value = terraform_data.q.input == terraform_data.p.id
}
