terraform {
  required_providers {
    null = { source = "hashicorp/null" }
  }
}

provider "null" {
  version = ">= 2.0"
}

resource "null_resource" "o" {}
