

b	=<<-EOT
EOT
