_under= ("%{~ for v in (true ) ~}${v}%{~  endfor ~}%{ if (  true)  ~}x%{~else ~}y%{~ endif }"&& "${data }${~ ( 100)  }{}" )
ami 	 ="a$b"
nameé = 	 (  {  for i ,v  in  {a = 1}:( true)=>({ for  k, v in local["value"]._under.in_x:null =>null }  ) })
instance_type ={
"k"= {   }	# c
} # longer trailing comment
