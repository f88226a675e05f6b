  count  =var # trailing
variable "" {  name={ 
  "x.y"="${module }"
	"x.y" :(	false) ? 	 (false ) :(" x " ),
  value=var.1
} }
data  ""  "e\u00e9" { 
  long_attribute_name= ( "" > length( 
	true  ))+( module  ? (false):length( null	, 3.14	,false ...) ) /* trailing */
  value = <<-EOT
EOT
    count =  count [ "k" 	 ][ 1  ][   1  ]>= false
  locals	aws_s3_bucket {
   my-dashed 	 = count?""   :	false
  }
  name   = coalesce( )
}
long_attribute_name=null
b 	 = "${   ( [
	coalesce()	,	# item
[for	i ,v in range(3):null  if true ],
  [
    null	,
  0 ,
true,
    0,
  ] ,
    {
    for_each=false

(local.*.for_each.1.ami)  :null
  for_each=null
},
]	)}${(each ) ? 	 ( [
    false,
	false  , # item
false ,
  false ,
]) :"[back\\slash"   }${("${data["value"][ "k" ]}")> /* c2 */ ( "${aws_instance.1}" ) ~}"
data	"web"	aws_s3_bucket {}
