variable "gen" {
  default = 1
}

variable "owner" {
  default = "alice"
}

resource "terraform_data" "a" {
  input = tomap({
    owner = var.owner
    team  = "core"
  })
  triggers_replace = var.gen

  lifecycle {
    ignore_changes = [input["owner"]]
  }
}
