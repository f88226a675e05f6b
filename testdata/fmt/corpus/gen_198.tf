

b=   ("${path.*._under 	 }" )/0
  tags= aws_instance["name"].nameé[*].é_accent <=  "%{~if ( path)}x%{~ endif ~}%{~if ( 	 false)  ~}x%{~ else }y%{~ endif }[${~ each.tags ~}"
name=[   ]
  variable  x-y{
  type = list
}
 for_each= true ?(1e3   ) : "" # longer trailing comment
   // comment
