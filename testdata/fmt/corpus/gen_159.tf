output "ünï"{}
variable "" {  }
