terraform {
  encryption {
    key_provider "pbkdf2" "main" {
      passphrase = "correct-horse-battery-staple"
    }
    method "aes_gcm" "main" {
      keys = key_provider.pbkdf2.main
    }
    method "unencrypted" "migrate" {}
    state {
      method   = method.aes_gcm.main
      enforced = true
      fallback {
        method = method.unencrypted.migrate
      }
    }
  }
}
