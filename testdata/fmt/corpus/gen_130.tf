a	=	<<-DOC
DOC
_under={for	i ,v in [1, 2] :lookup(data [1   ] ,[ true	, null 	 , 	 3.14 , true ]    ) 	 % local[*].for_each [ (2.5E-2) ]=>( 1)||( tolist(007 ,	null,true) 	 )}
é_accent=( /* c6 */ concat( 2.5E-2  )  <= 0	) ?"{}"	:	( [ ]	)
count ="${"back\\slash${ each.x1.x1.x1 }\u00e9" }hello//no%{~for v in !(local["b"]["ami"].b  )~}${v}%{~  endfor}" /* trailing */


