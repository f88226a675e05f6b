	é_accent=<<EOT
trailing   
    text
      $${esc}
EOT
  instance_type	= <<-EOT
    EOT
