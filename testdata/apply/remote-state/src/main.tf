output "greeting" {
  value = "hello"
}

output "count" {
  value = 3
}

output "secret" {
  value     = "s3cr3t"
  sensitive = true
}

output "list" {
  value = [1, "x"]
}
