provider "terraform" {
  alias = "other"
}

data "terraform_remote_state" "src" {
  provider = terraform.other
  backend  = "local"
  config = {
    path = "other.tfstate"
  }
}

resource "terraform_data" "a" {
  input = data.terraform_remote_state.src.outputs.greeting
}
