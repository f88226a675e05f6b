tags=false
instance_type= 	 { count= self.1.x1 }
long_attribute_name = null
nameé = true /* trailing */
