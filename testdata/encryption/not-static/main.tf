resource "terraform_data" "secret" {
  input = "x"
}

locals {
  pass = "${terraform_data.secret.output}-and-more-text"
}

terraform {
  encryption {
    key_provider "pbkdf2" "direct" {
      passphrase = terraform_data.secret.output
    }
    key_provider "pbkdf2" "via_local" {
      passphrase = local.pass
    }
    method "aes_gcm" "main" {
      keys = key_provider.pbkdf2.via_local
    }
    state {
      method = method.aes_gcm.main
    }
  }
}
