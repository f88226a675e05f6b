x1 = var.in_x["_under"].name
_under =("${  self.*.depends_on[	0  ].my-dashed}"	)<=(  [
length(3.14) ,	# item
"50% \u00e9" ,
  "${ local.1.in_x}" ,
  ] )
a=<<-DOC
  trailing   
	trailing   
DOC
nested  "ünï"	x-y{
  é_accent="${ module["my-dashed"]["name"][*].for_each}"
	}
b=[
	{(module)= ! "",	"k"="%{~  if (true  )~}x%{  else  ~}y%{  endif  ~}",name =null  &&true, value:- ( 2.5E-2 ) 	 }  , // item
    {} 
]
#   spaced
tags=  null
