terraform {
  required_providers {
    time = {
      source = "hashicorp/time"
    }
  }
}

output "duration" {
  value = provider::time::duration_parse("1h30m15.5s")
}

output "negative_micros" {
  value = provider::time::duration_parse("-1.5us").microseconds
}

output "unix" {
  value = provider::time::unix_timestamp_parse(1690328596)
}

output "before_epoch" {
  value = provider::time::unix_timestamp_parse(-1).rfc3339
}
