locals {
  a = <<EOT  
x
EOT
}
