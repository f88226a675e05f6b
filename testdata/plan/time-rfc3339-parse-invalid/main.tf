terraform {
  required_providers {
    time = {
      source = "hashicorp/time"
    }
  }
}

output "invalid" {
  value = provider::time::rfc3339_parse("2023-02-30T00:00:00Z")
}
