value=false
locals{ 
  my-dashed= !( 	 module[*]["tags"].in_x   ) // trailing
  tags ="${"" 	 }${ true ~}%x%{if ( "${(null)}${~true}${~( false )}a b") ~}x%{  else ~}y%{  endif }"
}
_under =data.long_attribute_name
 b	=[ for k, v  in [1, 2]   : 	 42]
a = {for i ,v	in	range(3): -count["k"][*].é_accent=>( 	 [ for v	in  {a = 1} : "%%{not}" /* c6 */ ]) if	" x ${(true)~}${~ ( /* c4 */ null 	 )~}%{  if "\nback\\slash" }x%{~  else  }y%{~  endif  ~}"/   "%{ for k,v in 1 ~}${v}%{endfor  ~}"}
é_accent= local.in_x[*]["ami"]
