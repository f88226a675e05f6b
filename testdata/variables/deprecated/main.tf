variable "old_root" {
  type       = string
  default    = "x"
  deprecated = "Use new_root instead."
}

module "m" {
  source = "./m"
  old    = "value"
  fresh  = "v"
}

resource "terraform_data" "t" {
  input = module.m.legacy
}

output "current" {
  value = module.m.current
}

module "k" {
  source = "./m"
  count  = 1
  fresh  = "k"
}

output "keyed" {
  value = module.k[0].legacy
}
