value  =data.nameé.1.*.nameé
  for_each	=   <<-END
      trailing   
  END


count= <<-EOT
      }
    {
      %{ if c }yes%{ endif }
    ${ a + b }
EOT
/* multi
   line */
