   my-dashed = [( 	 42  ) ?"" :   ( path ) , "\u00e9${ module.b 	 ~}" ]
  nameé60 = self.b.0
lifecycle "" "ünï"   {  
  nameé  = module  /* trailing */
  x1="$x%{  for v in "hello$${not}\n" ~}${v}%{~ endfor}"


  _under =( 
  [for k, v in	path  : "%{~ for k,v in (1e3 	 )~}${v}%{ endfor  }${ (null  )}"] )
   }
instance_type =""
long_attribute_name= ""
