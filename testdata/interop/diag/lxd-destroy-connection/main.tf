terraform {
  required_providers {
    lxd = {
      source  = "terraform-lxd/lxd"
      version = "1.5.0"
    }
  }
}

variable "key" {
  default = "not a key"
}

# A resource with a destroy-time provisioner: its own connection block may refer only to the
# object too.
resource "lxd_container" "web" {
  name  = "web"
  image = "ubuntu:20.04"

  connection {
    host        = self.ip_address
    private_key = var.key
  }

  provisioner "remote-exec" {
    when   = destroy
    inline = ["echo bye"]

    connection {
      user = var.key
    }
  }
}
