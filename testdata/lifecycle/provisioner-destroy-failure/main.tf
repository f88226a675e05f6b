resource "terraform_data" "keeps" {
  provisioner "local-exec" {
    when    = destroy
    command = "echo refusing; exit 2"
  }
}

resource "terraform_data" "goes" {
  provisioner "local-exec" {
    when       = destroy
    command    = "exit 5"
    on_failure = continue
  }
}
