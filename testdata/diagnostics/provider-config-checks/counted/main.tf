provider "null" {
  version = ">= 2.0"
}

resource "null_resource" "c" {}
