

nameé= 1e3 >	path.instance_type /* trailing */
provider ""  { 
  depends_on =self.a!=(	self["name"] ?data [	0 ]	: each [ count.index].1)
 for_each= module.1.value.my-dashed // trailing
  _under ={	}
  x1  =  [lookup()	,each.*.instance_type ,!(aws_instance [ each.key][*] ),path.tags ]  // trailing
 # comment
}
 ami =	null
x1=2.5E-2
value  = 	 data.ami.depends_on.count
ami66=true  # trailing
   my-dashed= {for  i ,v in [1, 2] :	( { 	 	}   ) =>0 if	( path[  count.index ].value) + ([42, 	 null ,2.5E-2 ])   } # trailing



