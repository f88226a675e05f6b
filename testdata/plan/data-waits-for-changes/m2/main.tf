data "terraform_remote_state" "inner" {
  backend = "local"
  config = {
    path = "other.tfstate"
  }
}
