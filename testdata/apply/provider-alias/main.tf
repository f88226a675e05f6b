provider "terraform" {
  alias = "second"
}

resource "terraform_data" "a" {
  input = "default"
}

resource "terraform_data" "b" {
  provider = terraform.second
  input    = "aliased"
}
