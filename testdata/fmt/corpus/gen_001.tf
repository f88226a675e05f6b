a  =!max("${ module["x1"].*.in_x.depends_on 	 }"  ,  
  [ 	 jsonencode(2.5E-2,
  true )	, path.*.name ,count.in_x.for_each , ], "%{~for k, v in (null)}${v}%{~  endfor ~}%{~ if (	007 )  }x%{  else ~}y%{~endif  }hello" ... )
   count = 	 [null	,[ path.my-dashed, 	 "${var[*].count }"  ],false 	  /* c2 */ ]
