

   value ="${~ length( aws_instance? 	 data.é_accent :count[*].count["k" ].a )~}${~"%{~  if (( null)) ~}x%{~ endif }${~ 	 (1e3 ) !=path["for_each"]["é_accent"]   [count.index]}" }a b${~ 2.5E-2}" /* trailing */
	my-dashed =   <<EOT
  %{ if c }yes%{ endif }
    {
      }
EOT
name =  "${ module.count.in_x }"  # trailing
provider "e\u00e9" 	 { 
}
  #
content{ 
  in_x =	[ for k,v in {a = 1} :self.1.in_x 	 ]
   value= <<-EOT
      trailing   
    %{ if c }yes%{ endif }
EOT
  nameé40	={ 
    "quoted" = coalesce("" <= ( 	 false   ) )
}
}
	# comment
in_x= <<-END
  END
