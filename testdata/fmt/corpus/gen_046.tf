name=[for v in count.*.in_x.my-dashed.instance_type : local["count"]]
instance_type = "${~( "") }%x${~	false /* c6 */ +local }"% 	 (( null ) /* c8 */ ?( 1) :   ( 42 ))
   depends_on	=var.a[ each.key].count
  /* multi
   line */
_under =!(""  )  /* trailing */
a=  null  /* trailing */
é_accent= {long_attribute_name=count,b=count.é_accent?data.x1.count["value"]: coalesce("" ,) 	 }
data  "ünï"  "a\"q"{ 
    count=tolist( "${ count  }","%{~ for k, v in data.instance_type [ 	 1]["nameé"]~}${v}%{~endfor ~}%{for k,v in data[*].x1}${v}%{ endfor~}%{if (true )  }x%{else }y%{  endif ~}"  <= ({ (self.*.depends_on.nameé.b) 	 =	2.5E-2} )      )
	data "web" x-y{ 
    # comment
  }
  data	x-y bare{
    #
   x1={for k, v in {a = 1}  : each.x1 [count.index ].depends_on 	 =>	- var.ami[*].b}
      depends_on=-2.5E-2
    ingress	x-y  "a\"q"  { 
      a = !"${~true ~}${(  self[*].long_attribute_name   ) ~}%{  if "${  module.count~}%{if false ~}x%{else}y%{ endif  }tab\there"  }x%{  endif}${( null )  -null ~}"
   long_attribute_name 	 ={
"k" : []
    (each.in_x	[	0  ])=- lookup( each ... ), // c
"quoted"=	{ 
  instance_type:false
"with space"= {   for k, v	in data.ami :length(true 	 , 	 true  , false ... )=>  each[1] }  // c
	"with space" = null
}
	"x.y" =   (   ( true   ) ) >= ( "$${not}")
}
    }
   }
  b = 	 "${   path.é_accent.my-dashed["nameé"]}"
}
long_attribute_name	= [
( self.count.instance_type["k"	]
),
	self,
	local?(coalesce(	
	2.5E-2 	 , true ,null  ) ) :false,
  [
    path   [ count.index ],
],
]
