resource "terraform_data" "in" {
  input = "in"
}

data "terraform_remote_state" "inner" {
  backend = "local"
  config = {
    path = "other.tfstate"
  }
  depends_on = [terraform_data.in]
}
