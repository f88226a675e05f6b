 ami= [ 	 for k, v in	{a = 1} : !false  if  (	"50% #no${ (false)~}%%{not}") ]
name =( null )	||"${   ("$x")   ~}"
   value ={for  k,v  in	[1, 2] :local.value=>( 	 {for  i ,v  in range(3) :42 =>	false... } ) - "//no%{ for k,v in self [ 	 "k" ].1.x1  ~}${v}%{  endfor  }%{~if (false)  }x%{ endif  ~}${ ( 	 null )~}" if null}	#
