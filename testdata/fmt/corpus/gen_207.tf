long_attribute_name =   concat()
count  = 	 "${ aws_instance}"	/* trailing */
 variable "my label"{ 	 
  type	=map(any)
  description = "\U0001F600"
}
tags="${~ max([ 2.5E-2,null	, 1e3]   // lc
	)<= data.1	~}//no%{  for k, v in (local)  }${v}%{~  endfor ~}"
nameé= var.nameé.12
