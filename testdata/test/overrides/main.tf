terraform {
  required_providers {
    cloud = { source = "example.com/acme/cloud" }
  }
}

resource "terraform_data" "real" {
  input = "real"
}

resource "cloud_server" "web" {
  name = "web"
}

data "cloud_image" "base" {
  family = "linux"
}

output "address" {
  value = cloud_server.web.address
}

output "image" {
  value = data.cloud_image.base.id
}

output "real" {
  value = terraform_data.real.output
}

module "child" {
  source = "./child"
  label  = "real"
}

output "child_id" {
  value = module.child.id
}
