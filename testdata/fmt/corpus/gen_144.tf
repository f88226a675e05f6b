lifecycle "x" ""{ 
}
	output "" { 
for_each=  <<-EOF
    EOF
  }
 variable	"" {
  description = "//no"
}



é_accent   =path [0 	 ]
x1 =   { b: null, (count["value"])   =[ for  k, v	in	range(3): (null) -  concat(  
007 ,1)],b=  {for	k, v	in {a = 1} :  (module[each.key ]["my-dashed"].é_accent) 	 =>( true) +null	if	local }}
provider	"ünï"{}

  nameé =(  
  { (count.depends_on.12)   ="${ module["depends_on"]["my-dashed"][*].my-dashed 	 }",  "x.y"=[for	v in {a = 1} : null],	(module)   =[ "ünï[",[
    null, // item

    true   ,
	false,
    false	,
  ],[],{for k, v  in	{a = 1} : false=> true 	 }], /* c9 */ x1 = [ for	k, v in range(3) 	 :(true )]} ) #
