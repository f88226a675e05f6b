data "terraform_remote_state" "backend" {
  backend = "nosuch"
}

data "terraform_remote_state" "config" {
  backend = "local"
  config  = { bogus = 1 }
}

data "terraform_remote_state" "defaults" {
  backend  = "local"
  defaults = "str"
}
