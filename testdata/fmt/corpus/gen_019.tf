  tags	=!( /* c4 */ [ 	 "tab\there",""])
_under =  (concat( lookup("",{ for	k, v	in module.*.b.name.x1:false=> true... }) ... # lc
  )// lc
  )
b="//no%{ if ( {  
	(each.tags.depends_on [count.index])   :null,	# c

    in_x	: 0  // c
	"k"	=false, /* c */

	(aws_instance) =null
} ) - 	 ( var.*.name.é_accent )  ~}x%{~endif }${~ merge("" 	  )+ true}" /* trailing */
/* block */
b61 = <<DOC
    
      # not a comment
DOC
value="%{~  if (	"${ 	 ( true ) ~}${	(false)	~}${~false	}" ) ~}x%{else~}y%{~  endif  ~}%{  if !(	aws_instance.*.ami["long_attribute_name"]["b"])}x%{~else~}y%{  endif~}"
 long_attribute_name = var["x1"] # trailing
  module ""{ 
   content bare{
	content	{  }
      locals "web"{ 
    }
value=false
    for_each= [
  ]
  }
  dynamic "" {  
    lifecycle  "a\"q" "my label"  {


    }
    a 	 =concat()
  }
  tags  = "//no"  /* trailing */
   name=  !"${~( "" ) }${tolist( // lc
 length(100 ), ) }"
  instance_type= 	 self	?( var.depends_on) : null	/* trailing */
}
