// native hash placeholder
