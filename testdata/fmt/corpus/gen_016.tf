_under= "${var }"
for_each = merge({ instance_type: {for k,v in {a = 1}: (false)=>module if path.value 	 },b=[], value   =" x " ? each.count	[ "k" ]: (42),"quoted"   ={  
    _under   = ""
} /* c6 */ }, /* c2 */ "${~( 	 count["my-dashed"].nameé)~}${~true	~}" 	 )
