terraform {
  required_providers {
    cloud = { source = "example.com/acme/cloud" }
  }
}

resource "terraform_data" "inner" {
  input = "real"
}

data "cloud_image" "base" {
  family = "linux"
}

output "inner" {
  value = terraform_data.inner.output
}

output "image" {
  value = data.cloud_image.base.id
}
