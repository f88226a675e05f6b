long_attribute_name=  each
	// comment
   # comment
 b = <<DOC
      # not a comment
      $${esc}
$${esc}
      trailing   
DOC
lifecycle { 


  name=merge(data , null,  
  ""   )
}
   name=0
a=   count.a.depends_on.for_each	# trailing
long_attribute_name25 = "%x%{~ if data.x1["tags"].for_each  }x%{ else }y%{ endif ~}${007~}${~ count ~}" /* trailing */
