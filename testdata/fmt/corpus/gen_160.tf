 ami=	true ?"":aws_instance.*
  long_attribute_name = ( null 	 ?   ( false)   :false) #
 a= format({ },
  {
  "with space" =false
  "quoted"   : null // c
  "with space": module.name.a.*.my-dashed?   (false):merge(null), // c

},data.in_x == 	 ({  /* c7 */ }) 	 ...  )  # trailing
