resource "null_resource" "a" {
  provisioner "local-exec" {
    when       = "destroy"
    on_failure = "continue"
    command    = "echo ${self.id}"
  }

  provisioner "local-exec" {
    when    = "create"
    command = "echo created"
  }
}
