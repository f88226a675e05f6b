é_accent  =( "${path[0].for_each.instance_type}"  )==jsonencode( "${	data[*].for_each }",module["in_x"]["tags"]  +self , 	 
  module	/ 	 var ... )
for_each = 	 (each)+ 	 ( false )
	/* block */
data  "aws_instance" x-y{ 
  variable	"aws_instance" /* hdr */ { 

	nested	/* hdr */ { 
instance_type  = count[*].é_accent
      é_accent 	 = format( ) /* trailing */
    }
	}
    nameé={(aws_instance)   = 	 {    	 }, long_attribute_name   =[  merge( null  	 )/ ( false ) , (  false) >  count.tags["depends_on"].count,(null)==( null)],a="${~ coalesce( "" , {}  /* c9 */ ) ~} x ${~ module ~}${~  data[*].count.é_accent.instance_type	}"}
}
	long_attribute_name  ="${(	007)~}${each.1 	 ? var.12:true~}"
tags 	 =   ("back\\slash" )
count	=   !aws_instance["b"]
locals { 
  x1= { 
    (count.*.1): {
  a:local[each.key 	 ]	!= coalesce(0, true ...)
	ami: ""||   (1)  # c
} /* c */

  (count.b) 	 = count._under

}	# longer trailing comment
	dynamic "a-b"   { 
    variable  "aws_instance" {  
	}
    #   spaced
    b=   each [count.index] [0]* "${ data.name.count.name?max( 
	42 , true 	 , /* c6 */ 2.5E-2 )  :""}${~ "#noq\"uotea b"	>= ""	}" /* trailing */
	}
   }
