output "a" { value = 1 }
