data "terraform_remote_state" "src" {
  backend = "local"
  config = {
    path = "src/terraform.tfstate"
  }
}

resource "terraform_data" "a" {
  input = data.terraform_remote_state.src.outputs.greeting
}
