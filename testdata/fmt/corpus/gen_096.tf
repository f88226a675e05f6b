in_x   ={ 	 
	"x.y" : module._under

	b:(concat( null... ))? (  "ünï\u00e9" )   :	(null)
}
a= local.nameé
