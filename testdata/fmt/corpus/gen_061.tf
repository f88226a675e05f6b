dynamic  "x" { 
  count=[ length( module.*["depends_on"],{tags =null,  name:true,  depends_on   = false,"quoted" :true}...   /* bc */
    )% false,aws_instance  ?( [
	42 ,
	null,
	null ,

	true,
]): 2.5E-2 ,"${each.*}"]
nameé= false

}
long_attribute_name = {  }	// trailing
/* multi
   line */
name  = (   self.*.x1.é_accent   ) < count.for_each[*].instance_type["depends_on"]
é_accent   ="${count 	 }"


