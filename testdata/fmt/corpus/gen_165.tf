long_attribute_name= var.a
ami 	 = " x %%{not}${~ "%{ for k,v in (	1 )}${v}%{ endfor  ~}${~( false)~}"+"tab\there//no%{  for v in (1 )  }${v}%{~ endfor  }${~module[*]}"~}%{~for k,v in ! (1e3)~}${v}%{~ endfor ~}"
instance_type =   - (( 	 false /* c6 */ ) =="" 	 )

/* multi
   line */

for_each  ={}
b = 	 (  null )
depends_on90=data[ count.index	]
