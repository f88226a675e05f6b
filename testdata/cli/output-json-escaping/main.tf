output "html" {
  value = "<powershell> a & b </powershell>"
}
