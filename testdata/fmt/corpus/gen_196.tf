lifecycle /* hdr */   {	
   _under=var
for_each 	 =	"${ aws_instance["instance_type"].tags.*.nameé}"
}
in_x= false
count=	"${~("q\"uote" ) 	 ~}" ?( false):( ( 	 "\u00e9" ) )
name=concat( var [ 	 each.key ][*].x1["in_x"] )||  (local.b 	 )
