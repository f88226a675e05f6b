variable "passphrase" {
  type      = string
  sensitive = true
}

terraform {
  encryption {
    key_provider "pbkdf2" "main" {
      passphrase    = var.passphrase
      iterations    = 200000
      hash_function = "sha256"
    }
    method "aes_gcm" "main" {
      keys = key_provider.pbkdf2.main
    }
    state {
      method = method.aes_gcm.main
    }
  }
}

resource "terraform_data" "r" {
  input = "a value that must not be readable"
}
