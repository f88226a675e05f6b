nameé= 	 true #


a= jsonencode(	) # longer trailing comment
a47 = "${ var }"
	ami =concat(
	( 	 [
	true,
	true ,
	null  # item

]), "a b",(true ) -merge(2.5E-2 , null ,	42 ... )... ) <=(  42 /* c2 */ )



  depends_on = <<-END
      ${ a + b }
  END
long_attribute_name= path[ /* c8 */ "k" /* c2 */ ].a

