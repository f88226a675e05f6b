long_attribute_name=false // trailing
  x1 =  "${count[*] }"
my-dashed =coalesce("${~ ((3.14) ) ~}${~each.b[*]}" , (	each.1.value ), count.0.value.1 
    )



a =	[!"${ (true )}%{~  if ""  ~}x%{ else~}y%{  endif  }"   ,"${self   }" 	 ] # longer trailing comment
depends_on 	 = [("${path.12 [each.key ].value}" )> "%{~ for k, v in null }${v}%{~endfor  ~} x ${   ( true)~}${~"$${not}"~}", [ 	 ] ,-"\nq\"uote" ]
   resource aws_s3_bucket ""{ 

}
