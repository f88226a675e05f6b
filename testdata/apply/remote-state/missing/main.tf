data "terraform_remote_state" "missing" {
  backend = "local"
  config = {
    path = "nope.tfstate"
  }
}

data "terraform_remote_state" "workspace" {
  backend   = "local"
  workspace = "nope"
}
