# A strip marker in a heredoc or template file removes whitespace only up to the nearest line
# break (HCL scans those templates one line per token); in a quoted string, all of it.
locals {
  from_file = templatefile("${path.module}/lines.tpl", { on = true, value = "v\n" })
  heredoc   = <<EOT
a
${"b" ~}


c
%{~ if true ~}

d
%{~ endif}
EOT
  quoted    = "x ${"y" ~}  \n\n z %{~ if true }w%{ endif }"
}

output "from_file" { value = local.from_file }
output "heredoc" { value = local.heredoc }
output "quoted" { value = local.quoted }
