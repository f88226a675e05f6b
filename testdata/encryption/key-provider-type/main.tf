terraform {
  encryption {
    key_provider "pbkdf3" "main" {
      passphrase = "correct-horse-battery-staple"
    }
    key_provider "aws_kms" "kms" {
      kms_key_id = "alias/x"
    }
    method "aes_gcm" "main" {
      keys = key_provider.pbkdf3.main
    }
    state {
      method = method.aes_gcm.main
    }
  }
}
