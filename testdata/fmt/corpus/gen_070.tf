tags= { 	 
    (path) = 	 "${~lookup( true 	 ,	
1 ... )~}${~(null )}"+(   each.tags.a) // c
long_attribute_name=("${module  }")   ? 	 ""   :({ 	 
	"k" = 007
	"with space" =	null, // c

  for_each=false,
  depends_on 	 = true	// c
} )

"quoted" :null
  "quoted" ={	}
}

