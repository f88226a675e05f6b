ami =   007



