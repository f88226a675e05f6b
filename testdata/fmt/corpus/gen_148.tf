a=[
]
resource "e\u00e9" "aws_instance"	{
// comment
  my-dashed = -( 	 (2.5E-2 )== aws_instance.é_accent.value )
  nameé=[    ]
  locals	bare aws_s3_bucket { 
   a 	 ={ 
long_attribute_name   =("${var.depends_on.my-dashed }")>= ( { "quoted"=false,"k"=   false} ),
my-dashed:[ 	 ]
  a =   "%{~if ({ })  }x%{~ else ~}y%{~endif  }${~ null	~}%{~for k, v in ( [
null,
    true,
  null,
] )  }${v}%{ endfor  }", // c
}
 }
    in_x =true
	}
# comment
name  = {instance_type :""}
 provider "my label" {	
 long_attribute_name=42



 x1="" < data.b # longer trailing comment
  é_accent =""
  my-dashed =lookup(   "${local   }"	,true?"[":(null) )	?( aws_instance[*].b.depends_on && /* c4 */ merge(true)):"%{~ for v in "ünï" % ( null)}${v}%{  endfor  ~}%{if (1 	 )>module.value }x%{~  endif }%{~  for k, v in (	null) +data["_under"] }${v}%{~ endfor }"
   }
count=  "${  local.value }"
  lifecycle {
  é_accent = "%{if -"${~concat( true,true...
)~}tab\there%{~ for k,v in (null)}${v}%{endfor~}"}x%{~  else ~}y%{~  endif }${~ ( format((true) , self["instance_type"],   "" ) )}${~ (  false) 	 }"
   }
my-dashed84= count.my-dashed
