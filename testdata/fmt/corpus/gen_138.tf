  nameé = [ 	 each.value.ami[ 	 count.index ]	,false != aws_instance["value"].12 ]
for_each76= ( count.name.nameé )
value=!(true ) // trailing
ami = <<-EOF
      }
      {
  EOF


