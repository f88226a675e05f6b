terraform {
  required_providers {
    null = {
      source  = "hashicorp/null"
      version = "~> 2"
    }
  }
}

provider "null" {
  alias = "two"
}

module "a" {
  source = "./m"
}

module "b" {
  source = "./m"
  providers = {
    null = null.two
  }
}
