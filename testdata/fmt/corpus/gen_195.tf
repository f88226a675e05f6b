count = (   path[*].name   )   ?format([
    module,
	[ 	 false 	 ] ,
	"${ count  }"	,
  "" ,
  ] , "${ (null) }%{~if false ~}x%{endif  ~}"  , 
    false 	  ):each["ami"]
ami= "${~   "%{for k,v in var.*.count	- ( false )}${v}%{endfor}[%{~  if "%{~if "" }x%{~ else }y%{~  endif ~}" }x%{  endif  }"  }${~ local	[ 0][*].depends_on.1~}%{if (aws_instance  )>(count["in_x"])}x%{  endif}"
a=	{
    "quoted"= true
	in_x :concat([
  data.* ,
    "",
    var,
    each ,
] ,{  }, path.for_each)

é_accent	:max("${ count["b"].ami[*].my-dashed   }" )? ( var.x1.count.12 ): null # c

	ami=each.my-dashed.b # c
}

name=( ! (false))?   ( count[*] )  :   (	{ for	i ,v  in range(3)	:  data["value"].my-dashed=>( true) /* c5 */ } ) #
