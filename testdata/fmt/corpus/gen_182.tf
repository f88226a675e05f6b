my-dashed =module["k"].é_accent // trailing
é_accent= aws_instance.depends_on?007: ("" ||   2.5E-2 )
# comment
b ={ /* c3 */ for v in [1, 2]: "" || ( 	 "${ count.tags }"	)   => (lookup(	true)*( false ))}
nameé =(! ( true	) ) ? "${~	([ for i ,v	in  {a = 1}: 	 false if true ] ) }[${aws_instance.value["x1"] }":	"\U0001F600%{  if ((null))}x%{~ endif  ~}" # trailing
   value =(! (	false /* c4 */ ) )  &&( "a$b${~(true)~}"   )
