terraform {
  required_providers {
    lxd = {
      source  = "terraform-lxd/lxd"
      version = "1.5.0"
    }
  }
}

# Second connection blocks, in a resource and in a provisioner: load errors.
resource "lxd_container" "twice" {
  name  = "twice"
  image = "ubuntu:20.04"

  connection {
    host = "a"
  }

  provisioner "remote-exec" {
    inline = ["true"]

    connection {
      host = "b"
    }

    connection {
      host = "c"
    }
  }

  connection {
    host = "d"
  }
}
