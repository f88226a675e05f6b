	tags =	<<-DOC
trailing   
  %{ if c }yes%{ endif }
  %{ if c }yes%{ endif }
trailing   
  DOC




count=count   [   count.index ]
name	=self
ami =<<-EOF
EOF
