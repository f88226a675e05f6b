  name="%{if (null ) ~}x%{~endif  ~}${~(   false) ?(   0)	:false ~}"? (	42 ) : path.*.my-dashed["tags"]
  tags = self[(  !( 100)	)   ].value
  long_attribute_name   =-"%{~ if each}x%{  else}y%{  endif  ~}%{~for k, v in module[*].depends_on}${v}%{  endfor}50% "
count=   var.my-dashed["k"] // trailing
