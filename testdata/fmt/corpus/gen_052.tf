// comment


in_x =null // trailing
x1= ({for k,v	in  [1, 2]  :	max(true, 
	null,3.14  )=>"//no"... } ) + jsonencode(   )
