   in_x = <<-END
}
      trailing   
      }
trailing   
END
a = ! coalesce()
   x1 	 =( 
    "#no%{~for k, v in (   [ for k,v	in {a = 1} :true if  0	] ) ~}${v}%{endfor}" /* bc */
    )
b=   <<-EOT
  trailing   
    EOT
é_accent=""
   depends_on = ""
   instance_type= {"k"=max( (100)< ( false	),	!(null ) ),   value=1e3,ami= "" ==   ( false ) }
name="%{~if tolist(
) /* c0 */ ?("\n"  ): module.nameé.1 ~}x%{endif}"
value90 = ( {} )
