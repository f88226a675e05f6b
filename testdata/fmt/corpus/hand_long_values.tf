tags = { Name = "a", Environment = "production", Owner = "someone@example.com", CostCenter = "1234" }
list = ["aaaaaaaaaaaa", "bbbbbbbbbbbbbbbb", "cccccccccccccccccc", "dddddddddddddddd", "eeeeeeeeeeeeee"]
