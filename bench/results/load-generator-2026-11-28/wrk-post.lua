wrk.method = "POST"
wrk.body   = '{"id":1,"method":"get_accounts","params":[["1.2.20"]]}'
wrk.headers["Content-Type"] = "application/json"
