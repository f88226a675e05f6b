// comment
count =	false + ( merge(true )||	format())
 depends_on =	<<EOT
      {
  trailing   
      
$${esc}
EOT
   name= 	 <<DOC
    {
    # not a comment
  
DOC

_under= ""
a	= [
each.*._under 	 ,

    true ,	// item
  [ {  } ] ,
	{"with space" = {é_accent 	 =jsonencode(null ,
 false ,null  // lc
	)  },name 	 = ""	/  ( 007), instance_type  = "${var["for_each"].depends_on }",   (count.tags[ count.index ].*) =( null)&& 	 each	} ,
]
in_x	= "${  aws_instance   }" // trailing


