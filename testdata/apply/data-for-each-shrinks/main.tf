variable "names" {
  type    = list(string)
  default = ["a", "b", "c"]
}

data "terraform_remote_state" "cfg" {
  for_each = toset(var.names)
  backend  = "local"
  config = {
    path = "other.tfstate"
  }
  defaults = {
    name = upper(each.key)
  }
}

resource "terraform_data" "r" {
  count = length(data.terraform_remote_state.cfg)
  input = data.terraform_remote_state.cfg[var.names[count.index]].outputs.name
}

output "names" {
  value = terraform_data.r[*].output
}
