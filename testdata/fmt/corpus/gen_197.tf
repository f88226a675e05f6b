my-dashed={ 	 } # longer trailing comment
nested "my label"{
   name  ={ name = each [ 1 ].0.x1 }
}

#   spaced
long_attribute_name  = {a  = 	 1,   "quoted" :{
"with space" = 	 ["${ each.12 [ count.index 	 ].in_x }" 	 ,"${ path	}"]
    (aws_instance.tags) :"" ==   coalesce( )
(self.my-dashed	[each.key])="\u00e9" % ""
	(path.tags)	:""/"50% "
},"with space" =aws_instance}
   instance_type=self.*.instance_type.my-dashed.é_accent
b= [  [
	"${~true ~}%{~  if false ~}x%{ endif  }",
  ]  ,{ 
tags:(false)	<( 	 007)
  instance_type= "${module  }"
    x1:self [ "k"].for_each   ==path.12
ami = "${module ["k"]["ami"].12}" /* c */
} 	 , { for	k, v in  aws_instance.b[*].x1.tags :"${~ "//no"   }"   =>coalesce("${ 	 each }"	, # lc
 tolist( null ,true   , true) )...  if  "%{ if (  null ) }x%{~endif  ~}"}  ]


