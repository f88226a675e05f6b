
name =count.é_accent[  0 ]["long_attribute_name"]
#
data  x-y "web"{	
	}
   my-dashed = -local
   in_x= format(	"" ? 	 path.value: 	 ("${self.value[   null ].my-dashed   }"  ),)  # longer trailing comment
