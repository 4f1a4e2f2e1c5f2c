# A FUSE file system that never answers, for the tests of what a stalled
# file system must not hold (test_relay_tls.sh): /dev/fuse opened and
# mounted on DIR (as root, allow_other), and never read, so the kernel's
# first request (INIT) is never answered and every access under DIR
# waits (killably).  Prints "mounted" once it is, then waits until its
# stdin closes; its exit closes /dev/fuse, which aborts the connection
# (the waiters get ENOTCONN), and it unmounts DIR (lazily).
#   usage: fuse_stall.py DIR
import ctypes
import ctypes.util
import os
import sys

target = sys.argv[1].encode()
libc = ctypes.CDLL(ctypes.util.find_library("c"), use_errno=True)
fd = os.open("/dev/fuse", os.O_RDWR)
opts = ("fd=%d,rootmode=40000,user_id=0,group_id=0,allow_other" % fd).encode()
if libc.mount(b"ltt-stall", target, b"fuse", 0, opts) != 0:
    err = ctypes.get_errno()
    sys.exit("fuse_stall.py: mount: %s" % os.strerror(err))
print("mounted", flush=True)
sys.stdin.read()
os.close(fd)
libc.umount2(target, 2)  # MNT_DETACH
