resource "terraform_data" "a" {
  input = "a"
}

data "terraform_remote_state" "reads_a" {
  backend = "local"
  config = {
    path = "other.tfstate"
  }
  depends_on = [terraform_data.a]
}

module "m" {
  source = "./m"
}
