for_each =false
dynamic  "a\"q"  {  }
é_accent =  ! ( {for i ,v in	range(3): 	 "["=>var... 	 }	)
   dynamic  "x"{ 
   my-dashed= ("${var.for_each}"  ) ? "%x": module.é_accent




  ami2 =	[for i ,v in	[1, 2]: ( lookup()< 	 "")  ]
}
_under   ="%{~ for v in "$x%%{not}"   &&   self  }${v}%{  endfor  }\U0001F600" >((null 	 ) != local.a	[0   ].12)
	x1 =(var.long_attribute_name.tags)&& coalesce(self.a.for_each._under, 	 false 	 )
ingress{
 }
terraform bare{
  ami = (  { 
"with space" :""
  a= null   ?(false	) :aws_instance.0.a.12
	a =	"${path.in_x.value [1]  }"

}  )
 ingress  aws_s3_bucket{  }
  content "my label" "x"	{
  }
}
locals "aws_instance"{ tags = count.long_attribute_name }
