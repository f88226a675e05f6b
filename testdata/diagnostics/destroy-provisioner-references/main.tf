variable "greeting" {
  default = "bye"
}

resource "null_resource" "a" {}

resource "null_resource" "b" {
  count = 2

  provisioner "local-exec" {
    when    = destroy
    command = "echo ${var.greeting} ${null_resource.a.id} ${self.id} ${count.index} ${path.module} ${terraform.workspace}"
    environment = {
      ID = null_resource.a.id
      N  = join(",", [for s in ["x"] : s])
    }

    connection {
      host = null_resource.a.id
    }
  }

  provisioner "local-exec" {
    command = "echo ${null_resource.a.id}"
  }
}
