output "in_range" {
  value = cidrcontains("10.0.0.0/8", "10.1.2.0/24")
}

output "outside" {
  value = cidrcontains("fd00::/8", "fe80::1")
}

output "decoded" {
  value = urldecode("name%3Dferro+engine")
}

output "round_trip" {
  value = base64gunzip(base64gzip("compressed text"))
}

