variable "passphrase" {
  type      = string
  sensitive = true
}

terraform {
  encryption {
    key_provider "pbkdf2" "literal" {
      passphrase = "too-short"
      iterations = 1000
    }
    key_provider "pbkdf2" "from_var" {
      passphrase = var.passphrase
    }
    method "aes_gcm" "main" {
      keys = key_provider.pbkdf2.from_var
    }
    state {
      method = method.aes_gcm.main
    }
  }
}
