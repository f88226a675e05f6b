variable "n" {
  type = number
}

resource "null_resource" "a" {
  triggers = {
    n = var.n
  }
  bogus = 1
}

output "id" {
  value = null_resource.a.id
}
