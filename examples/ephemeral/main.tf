# A secret that never reaches state: an ephemeral random_password (as hashicorp/random 3.7
# offers it) exists only while ferro runs. Here a provisioner hands it to a command, which
# records only its length; `terraform.tfstate` and saved plans hold no trace of it.
#
#   ferro -chdir=examples/ephemeral apply -auto-approve
#   cat examples/ephemeral/password-length.txt   # 24
#   grep -c random_password examples/ephemeral/terraform.tfstate   # 0

ephemeral "random_password" "db" {
  length  = 24
  special = false
}

resource "terraform_data" "db_user" {
  input = "app"

  provisioner "local-exec" {
    command = "printf '%s' \"$PASSWORD\" | wc -c | tr -d ' ' > password-length.txt"
    environment = {
      PASSWORD = ephemeral.random_password.db.result
    }
  }
}
