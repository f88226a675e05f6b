tags =module
count=each  >("")
nameé = ( "${"${~aws_instance.tags["name"]._under ~}%{ if merge( null   ,
 false , null)~}x%{endif ~}"~}")
