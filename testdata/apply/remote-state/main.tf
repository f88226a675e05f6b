data "terraform_remote_state" "src" {
  backend = "local"
  config = {
    path = "src/terraform.tfstate"
  }
  defaults = {
    greeting = "default greeting"
    extra    = "only a default"
  }
}

data "terraform_remote_state" "ws" {
  backend   = "local"
  workspace = "blue"
  config = {
    workspace_dir = "src/terraform.tfstate.d"
  }
}

output "all" {
  value = data.terraform_remote_state.src.outputs
}

output "secret" {
  value = data.terraform_remote_state.src.outputs.secret
}

output "blue" {
  value = data.terraform_remote_state.ws.outputs.greeting
}
