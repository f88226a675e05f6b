instance_type =format(
  {
	nameé   :[for k,v  in	[1, 2] :(100 ) ]
  _under =(path.1[*].a )
in_x= "%{ if tolist(
)  ~}x%{endif ~}%{for k, v in null }${v}%{  endfor  ~}$x" /* c */
  for_each   ={
  (data): "${ module[*].tags.count }"

  (local.b.*)="${ self.instance_type	[1 ]   [	count.index]}"
  value=  { 
	value=null # c
} /* c */
}
} , "${~({"x.y" = true })~}${~-(true) }${~ "%{~if (007  )  ~}x%{~ else  ~}y%{  endif}${~"" 	 }${~ self["count"]["value"].nameé}%{if null  }x%{  else  ~}y%{endif  }" ~}%{ for v in ""?""   : (  false)~}${v}%{~ endfor ~}" 	 )
name=   "${ (true) /* c4 */ ?concat( [ true	,null,true], 
 "" 
 ): (   local["long_attribute_name"][*].12)   }${local.1.é_accent.1~}"
