variable "prefix" {
  type = string
}

resource "random_pet" "name" {
  prefix = var.prefix
}

output "name" {
  value = random_pet.name.id
}
