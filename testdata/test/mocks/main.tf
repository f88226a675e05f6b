terraform {
  required_providers {
    cloud = { source = "example.com/acme/cloud" }
  }
}

variable "size" {
  type    = number
  default = 2
}

resource "cloud_server" "web" {
  count = var.size
  name  = "web-${count.index}"
}

data "cloud_image" "base" {
  family = "linux"
}

resource "cloud_disk" "data" {
  server = cloud_server.web[0].id
  image  = data.cloud_image.base.id
}

output "ids" {
  value = cloud_server.web[*].id
}

output "address" {
  value = cloud_server.web[0].address
}
