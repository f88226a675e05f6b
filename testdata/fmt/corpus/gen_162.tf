tags= [ null ,{ ami   = count.value[ 0].1 	 }]
instance_type  =max("%x%{~ for k,v in ( { 	 (path) 	 :null})}${v}%{ endfor}${~ ([ 	 true, null] )  ~}" )
ami84="${each["instance_type"].*.name }"
 ingress ""{ 
  ami= "{}${~self}\u00e9${~ path[0 ] ~}"
  depends_on=   "${~( "${path[*]~}${~ (  null ) 	 ~}$${not}${path["a"].nameé 	 ~}" ) }"
 locals "aws_instance"{ 
ami= [ ]
    b =  ("%{~ if (   42 )~}x%{~  endif~}"||"#no" // lc
 )
  }
	}
in_x = local


