a =concat( count ["k"] , ( "//noq\"uote")   *"${ ( 100 ) }${~(	null )}${~  data.12 ~}${3.14}"		)
   name =   ( [
  "${~( 42	)}%%{not}" ,
	each,
    { 
	(path["ami"].x1.instance_type) 	 =2.5E-2  # c

}
  ] )
lifecycle aws_s3_bucket	"aws_instance"{  my-dashed = "${~	"${~"" }${~(42 )   }$x"}%{~ if ( 	 "")~}x%{ endif }" 	 <true }
name58 =[ 	 coalesce(   {_under= { 
  x1= true
  my-dashed =3.14,  // c
}}, 1e3,"%{~if null  ~}x%{  else~}y%{  endif~}"   ), "${~null~}${~  path["for_each"][*][ each.key] ~}",merge(count,self , 
    {
	(self[*].count) =	false
"x.y" =0
	"quoted"  =true
	"quoted" =false
},// lc
	) /each ,]
é_accent ={   
  tags =!(   self[*]	)
  b  :" x 50% q\"uote50% "  ==  merge( 
  "" ) // c
(local[each.key].for_each.nameé)=count["long_attribute_name"].depends_on # c
}
b=[  for v	in path.b[*].my-dashed.tags :( -var.tags ) /* c9 */ ]	/* trailing */
