a = 1
b = <<EOT
hello
/* never closed
