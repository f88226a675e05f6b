content x-y bare { 
  long_attribute_name	=null
	}
long_attribute_name =[ (module.in_x["my-dashed"]), {nameé =[for v in module: max(	3.14 	 ,null ... )]} 	 ]
in_x= 	 data.name
tags	= false
x1 	 =- ""
