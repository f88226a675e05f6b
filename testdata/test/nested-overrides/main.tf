terraform {
  required_providers {
    cloud = { source = "example.com/acme/cloud" }
  }
}

resource "terraform_data" "many" {
  count = 3
  input = "item-${count.index}"
}

module "child" {
  source = "./child"
}

output "many" {
  value = terraform_data.many[*].output
}

output "child_inner" {
  value = module.child.inner
}

output "child_image" {
  value = module.child.image
}
