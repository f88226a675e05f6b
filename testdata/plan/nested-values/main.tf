locals {
  servers = [
    { name = "web", ports = [80, 443] },
    { name = "db", ports = [5432] },
  ]
}

resource "terraform_data" "cfg" {
  input = {
    servers = local.servers
    enabled = true
    ratio   = 0.25
    tags    = { env = "prod", "team name" = "core" }
  }
}
