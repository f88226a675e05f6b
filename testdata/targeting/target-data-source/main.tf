resource "terraform_data" "a" {
  input = "a"
}

resource "terraform_data" "b" {
  input = "b"
}

data "terraform_remote_state" "src" {
  backend = "local"
  config = {
    path = "other.tfstate"
  }
  depends_on = [terraform_data.a]
}

resource "terraform_data" "uses" {
  input = data.terraform_remote_state.src.outputs.greeting
}
