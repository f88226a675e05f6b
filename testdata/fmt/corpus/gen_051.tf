a = ("${ aws_instance 	 }" ) 	 / null
é_accent={ for_each: 	 merge(  aws_instance ,{
é_accent   : true

    (aws_instance 	 [ 1 ].*["nameé"])=null

	"x.y"	=true,
ami=false	/* c */
} ) !=path,"k" 	 :true,   instance_type= 	 module [ count.index]||( /* c1 */ { 
	count:   null
  nameé:null # c

  "quoted" :false
})}
b =  ! true
_under = "%{ for k,v in ( [for v in [1, 2] : 	 (false ) if (0 	 )]	) }${v}%{~endfor  ~}["
name = "${007 ~}"  // trailing
 for_each	= "${ self}"
tags = [for  i ,v in range(3)   :  ( 	 [null, {   } , module.*.count.a,]) if (length(  
    )	&&( 	 true	) ) ]
