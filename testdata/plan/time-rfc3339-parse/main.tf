terraform {
  required_providers {
    time = {
      source = "hashicorp/time"
    }
  }
}

output "parsed" {
  value = provider::time::rfc3339_parse("2023-07-25T23:43:16Z")
}

output "with_offset" {
  value = provider::time::rfc3339_parse("2021-01-01T01:30:00+02:00").iso_week
}
