variable "state_file" {
  default = "network.tfstate"
}

data "terraform_remote_state" "net" {
  backend = "local"
  config = {
    path = var.state_file
  }

  lifecycle {
    postcondition {
      condition     = self.outputs.cidr != ""
      error_message = "The network state has an empty cidr."
    }
  }
}

resource "terraform_data" "subnet" {
  input = data.terraform_remote_state.net.outputs.cidr
}
