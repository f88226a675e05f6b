 é_accent  = aws_instance.é_accent.value	-  tolist(  true	/"a$b"  )
x1 =- "%{~if ( "$x")~}x%{~  else~}y%{~  endif ~}{}${!"a$b" ~}${~(each.0.x1.name)~}"
output	"x"  /* hdr */ 	 {
 # comment
  ingress{ 
  }
  content "" { 



    ami={for	v in range(3)  :3.14 	 =>	jsonencode( )?path.12.tags.0: count  }
      // comment
    a66=count.depends_on["for_each"] [ 	 each.key]
    b ="%{if lookup( [for k, v  in module 	 : ""   ],[
2.5E-2   ,
	[	for  k, v in [1, 2] :true], # item
  ]   )~}x%{~  endif}${~( false )~}${ ( var.long_attribute_name 	 )~}"
  }
  depends_on =module["count"][0 ]
 # comment
}
  instance_type={for	v in	[1, 2]: (	{long_attribute_name="",x1={ 
  value=false
}, for_each= 	 "" })=> ( ( false )   )/null... }
long_attribute_name 	 = ""&&( 3.14   )
  resource  "my label" "" /* hdr */	{ 
  count =max( ("" )	+( ""),	# lc
	([  for	k, v in	[1, 2] :(	true ) ])  )
depends_on=<<END
	
	trailing   
END
  in_x =jsonencode([
    [
  ] 	 ,
    ""	, # item
	aws_instance.b[ 1 ] 
] , /* bc */
  { 
  (local.1.value.tags)= each["instance_type"]["for_each"]
    b :   tolist( 	 
	false ,  0  )  # c
  value= 	 count  [1 ]
	(each[*].tags.nameé)={for  k,v  in	range(3) :true=>  false... if	0}

}	... )*module
  output "web"  { 
    module "e\u00e9"{ 
      count  ={
in_x =false
    _under 	 =local
}
      instance_type  = true
      _under27 = var  [  each.key ].count # trailing
      ami = "%{ if ! ([ for v in {a = 1}:null if  true] ) }x%{~ else  ~}y%{~endif  ~}${ - "${~var}"~}"
    }
    a="//no"
  }
  é_accent=	[ for v	in range(3):each.in_x.for_each [1]||module.1["nameé"][*].ami	if "${   local.name  [ count.index] ~}${( false	) ~}${ ( false   ) }${ path[false	].for_each~}"?( 	 ""	):  (format(
true, // lc
    null  ,null  ) ) ]
}
