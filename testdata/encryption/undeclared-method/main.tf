terraform {
  encryption {
    key_provider "pbkdf2" "main" {
      passphrase = "correct-horse-battery-staple"
    }
    method "aes_gcm" "main" {
      keys = key_provider.pbkdf2.other
    }
    state {
      method = method.aes_gcm.nope
    }
    plan {
      method = aes_gcm.main
    }
  }
}
