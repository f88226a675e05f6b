variable "v" {
  default = "1"
}

resource "terraform_data" "a" {
  input = var.v
}

data "terraform_remote_state" "now" {
  backend = "local"
  config = {
    path = "other.tfstate"
  }
}

data "terraform_remote_state" "later" {
  backend = "local"
  config = {
    path = "other.tfstate"
  }
  depends_on = [terraform_data.a]
}

resource "terraform_data" "uses" {
  input = data.terraform_remote_state.later.outputs.greeting
}

output "now" {
  value = data.terraform_remote_state.now.outputs.greeting
}
