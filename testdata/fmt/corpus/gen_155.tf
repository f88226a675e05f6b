#
value = (   "" 	 ? each :count.long_attribute_name.*.a   )	-( coalesce( max(	
  true  ) ,// lc
{"with space" = false, é_accent =   true,long_attribute_name 	 =false },
1e3   
  ) )
my-dashed =  <<EOF
      {
EOF
#   spaced



instance_type={ 
in_x	= false

  for_each:concat( 
 ) /* c */
depends_on= true
}  /* trailing */
