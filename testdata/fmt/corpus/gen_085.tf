   provider  aws_s3_bucket /* hdr */ {
  ami  =[ [for  k, v	in range(3)   : ([
] 	 )	if false] ,{for	v  in	[1, 2] : "#no">( null /* c2 */ ) 	 =>( local.*.b.for_each ) } ]
  in_x86= "${ 	 count.my-dashed }"	// trailing
  nameé= 	 {"x.y"=! module.x1["value"].ami  }
	instance_type =  data.1 ?(	"#no$${not}"  ?( false   ) :  ( false	) ):"%{~  if (( 2.5E-2	)	)  ~}x%{else  ~}y%{endif  }${ concat( 
)}${	jsonencode( null,
    false, 	 true , ) ? "":"\U0001F600\u00e9"	}"	#
}
name="%{~  if (   ! "50% ") }x%{~else~}y%{~  endif  }"
provider aws_s3_bucket   {
  }
value=!"%{~  if (true) == 	 null  }x%{~  endif~}${( true) / ( true ) ~}${ (""  )~}${  "${~ false ~}%{for k,v in path ~}${v}%{~  endfor}"~}"
x1=[for	k, v in [1, 2]   :   (null) if  null   ]
 dynamic "" { x1= 	 (tolist() )	}
a  =<<-END
  ${ a + b }
      $${esc}
END
nameé	=aws_instance [ each.key ]
