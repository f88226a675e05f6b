terraform {
  encryption {
    key_provider "pbkdf2" "main" {
      passphrase    = "correct-horse-battery-staple"
      iterations    = 200000
      hash_function = "sha256"
    }
    key_provider "aws_kms" "kms" {
      kms_key_id = "alias/x"
      region     = "us-east-1"
      key_spec   = "AES_256"
    }
    key_provider "pbkdf2" "chained" {
      chain = key_provider.aws_kms.kms
    }
    method "aes_gcm" "main" {
      keys = key_provider.pbkdf2.main
    }
    method "aes_gcm" "kms" {
      keys = key_provider.pbkdf2.chained
    }
    state {
      method = method.aes_gcm.main
    }
  }
}

resource "terraform_data" "a" {
  input = "x"
}
