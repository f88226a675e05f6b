in_x = ! length(	{  
	name= ( 	 true 
	)
    "k"=  ""
}	 )	# longer trailing comment
_under =( 	 "${ 	 aws_instance}"   )  &&"q\"uote%{~for v in true ~}${v}%{endfor ~}%{~  for k, v in format( 
	false  ,false ,   true
)	<(false)  ~}${v}%{~  endfor}ünï"
