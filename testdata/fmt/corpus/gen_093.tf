in_x=   jsonencode(module.in_x["my-dashed"], /* bc */
  [
tolist( ),
  aws_instance   [ 0 ]
] ) >=(  [ ]) // trailing
   data "" ""{ 
  provider ""{
	depends_on	=aws_instance
    ami ={for v in  range(3) : (   "back\\slash") 	 ?length( path["my-dashed"].é_accent["tags"] )   :  data=> path.é_accent[*].in_x... if count["ami"]["_under"] >"%{ if (true )}x%{~ else}y%{~ endif~}a b"} /* trailing */
  }
  nameé 	 = format(true,  {depends_on= "q\"uote" }, ) -("")
x1=("${ ( false)  ~}$xtab\there${~ (true	)}")!=(self.*.tags.nameé)
    long_attribute_name =null
}
_under= <<END
  
	# not a comment
  }
END
  my-dashed   =   { 
    count:aws_instance -"${(  true)  ~}${~ (false	) }${count }"
  _under=	( 	 true ) ?	(   { } ):("")
	_under =format( ) ==length( "${ each.0	}"	, data ,[ 3.14 ,007 	 ,   007, true ] )
    "with space"=false
}
tags=	data.*._under[0  ].é_accent
value	=   (false != var.depends_on.my-dashed 
    )
