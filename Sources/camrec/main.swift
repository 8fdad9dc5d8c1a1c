print("camrec")
