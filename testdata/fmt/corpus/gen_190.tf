
value	=   !(true	) # trailing
