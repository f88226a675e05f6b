   output	""	{ 
  /* block */
  instance_type   ="\U0001F600${( false )~}${~	(var[*].my-dashed["value"] )}" 	 ?   false : ([ for k,v in [1, 2]: path["name"] ] )
  ingress x-y{ 
  }
 #   spaced
}
 _under = "${ each [ "k"]}"
# comment
my-dashed =[[ ]	]
for_each = merge(local[ each.key   ] , /* c2 */ null)
  value	= ({  } )<= ""
