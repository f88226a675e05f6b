s1 = "a\nb\t\"q\" \\ \u00e9 \U0001F600"
s2 = "hello ${name}!"
s3 = "$${literal} %%{literal}"
s4 = "%{ if c }yes%{ else }no%{ endif }"
s5 = "%{ for x in xs }${x},%{ endfor }"
s6 = "%{ for k, v in m }${k}=${v}%{ endfor }"
s7 = "a   ${~ x ~}   b"
s8 = ""
s9 = "${ {a = 1}.a }"
h1 = <<EOT
line1
line2
EOT
h2 = <<-EOT
    indented ${x}
      more
    EOT
h3 = <<EOT
%{ for x in xs ~}
${x}
%{ endfor ~}
EOT
