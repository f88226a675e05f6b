ami = 	 ( "")>= "a b%{for k, v in !100  ~}${v}%{endfor}%{  if true  ~}x%{endif  ~}tab\there" // trailing
  nested x-y {}
in_x=!merge(  )
_under= !false
a=(- ( 1   ) ) /   ""
name =(   false)
x145 ={
	"k"= {for	v  in	range(3): lookup( 
) =>concat( ) }
	my-dashed=(merge(false	,false
    ))?lookup(	""      ) 	 :"${~( true ) }\n%{for k,v in (false)  ~}${v}%{  endfor }${~ ( true )}",
}


