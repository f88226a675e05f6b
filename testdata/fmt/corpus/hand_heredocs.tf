a = <<EOT
hello
  world ${ var.x }
EOT
bb = <<-EOT
    indented
      more
    EOT
ccc = <<EOF
$${literal} %%{literal}
%{ if true }yes%{ endif }
EOF
d = [<<EOT
in list
EOT
, 1]
e = <<EOT
crlf line
EOT
f = 1
