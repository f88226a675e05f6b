value=  max("${  data.depends_on}" ,  "\U0001F600${"" ?count.name.for_each 	 : (	true) }${ ""}hello" 
	)
terraform	""{
  count 	 =lookup()	// trailing
  locals "" /* hdr */ {  


    variable	x-y  {	ami=merge(  [  ] ) }
  }
  é_accent34={ 
    count=path.value,
    (self.my-dashed.instance_type)=local[ 0   ]
(module [1	].0.depends_on) 	 =   ("${var[	0] }" )&& 	 "\n"
  _under:local["instance_type"].name
}
  b=	{ for  v in [1, 2]:module=> ( 	 ([
  2.5E-2 ,

	false,
  1
  ] )	) 	 }
}



