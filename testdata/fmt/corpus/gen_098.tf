value=[ false,	merge( (true )   / jsonencode( null ),data [0], path  ...) ,{ }   , [(true )!= (false) , coalesce("", "", /* bc */
"${   path}"
	)   ,"%{~ if "%%{not}"}x%{ else ~}y%{endif  }%{~if count.ami.12 ~}x%{  else~}y%{  endif~}%{~  if true~}x%{else ~}y%{~endif  }"  , [ { 
  in_x=true,
	_under: null

    "quoted" =null
} , "${each }"  	]] ]
	a 	 = true
name ="%{for k,v in false  ~}${v}%{~ endfor ~}"
count= !"${"" }ünï"  # longer trailing comment
long_attribute_name =data.b [  count.index].b||	"${(null	)~}${~""}" // trailing
# comment
_under	= "${local}"
