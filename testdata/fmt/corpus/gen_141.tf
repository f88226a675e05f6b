nameé= coalesce(
	)
value=("${  aws_instance }" ) /count