terraform {
  required_providers {
    time = { source = "hashicorp/time" }
  }
}

provider "local" {}

resource "null_resource" "a" {
  bogus = 1
}
