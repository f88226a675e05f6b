instance_type =( "${ 	 var[*].a.é_accent	}")>=  var
count={	}
for_each={ 
for_each= ( "${each["value"][*]}"   ) ?"${local~}%{for k,v in false }${v}%{endfor  }":( [
    true ,
  0,
2.5E-2 ,
] )
}
