ami =module.0[*].for_each
depends_on = local.x1[*]["b"]<= 	 local



value=[ count,( "${ path.0._under  }" 	 )*"${~	local.*.x1.nameé~}%{~  for v in (  false )  }${v}%{  endfor  }a b%{if ( true )~}x%{~  endif}",	max(
 (null)||   local["nameé"].count.0, local  [ 1 ], 
    ),( [ 42,  null])  /   null  ,	]	/* trailing */
	a= ( 
	!(null))
#
nameé =<<END
      ${ a + b }
  ${ a + b }
END
my-dashed=[ for i ,v in range(3) 	 : false 	 ]
