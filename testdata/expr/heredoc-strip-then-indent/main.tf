locals {
  xs = ["a", "b"]

  # The first line's indentation goes with the `%{~`: no common indentation is left.
  looped = <<-EOT
    %{~ for i, x in local.xs ~}
    ${i}=${x}
    %{~ endfor ~}
    %{ if length(local.xs) > 0 }some%{ else }none%{ endif }
  EOT

  # No line starts with a stripped token: the indentation goes as usual.
  listed = <<-EOT
    begin
      %{ for x in local.xs ~}
      * ${x}
      %{ endfor ~}
    end
  EOT

  # A stripped interpolation opening the first line leaves it without indentation.
  joined = <<-EOT
    ${~ local.xs[0] ~}
    after
  EOT
}

output "heredocs" {
  value = [local.looped, local.listed, local.joined]
}
