output "a" {
  value = file("hello.txt")
}
output "b" {
  value = file("${path.module}/hello.txt")
}
output "c" {
  value = fileexists("hello.txt")
}
output "d" {
  value = templatefile("missing.tmpl", {})
}
