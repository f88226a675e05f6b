terraform {
  required_providers {
    null = {
      source                = "hashicorp/null"
      configuration_aliases = [null.z]
    }
  }
}

resource "null_resource" "a" {
  provider = null.z
}
