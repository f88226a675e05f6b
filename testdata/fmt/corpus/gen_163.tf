in_x  =( 	 data.b   &&	(true 	 ) ) ?( self /* c3 */ )	: local ["k"  ][ count.index	].ami
for_each= "${"{}${  "%{~ if ( 	 true ) }x%{  else~}y%{ endif  }//no"~}tab\there"~}%{~if (   [ for  k, v in {a = 1}   :each [ 1 ][  "k"] ])~}x%{~  endif ~}${ ([  "${data["x1"] [null  ]}"   , "${self [   0 ].depends_on}" ,   "", [
null,
    true  , // item
    null ,
	null ,
]] )~}tab\there"
