 ami = false
tags =   "${ self.value.12.ami}" /* trailing */
long_attribute_name=( "${(3.14 )~}%{for k, v in path.0 ~}${v}%{  endfor  ~}tab\there%{if count.x1~}x%{~  endif }" ) ? self.my-dashed	:   (( 	 false) ? ( false )   :(   null ))  #
  b = 	 {
b = - "%{~ if (false)  }x%{~ else }y%{  endif }50% %{for k,v in 100  }${v}%{  endfor}${ self.*.name.for_each[ null] ~}", // c
}
