resource "terraform_data" "a" {
  input = "hello"

  provisioner "local-exec" {
    command     = "echo created ${self.input} $GREETING > created.txt; cat created.txt"
    environment = { GREETING = "from the environment" }
  }

  provisioner "local-exec" {
    when    = destroy
    command = "echo destroying ${self.input}"
  }
}

resource "terraform_data" "fails" {
  provisioner "local-exec" {
    command = "echo about to fail; exit 3"
  }
}

resource "terraform_data" "continues" {
  provisioner "local-exec" {
    command    = "exit 4"
    on_failure = continue
  }
}
