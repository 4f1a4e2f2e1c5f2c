#!/usr/bin/python3
# ros2_sequence.py start SESSION DIR | stop SESSION | list SESSION |
# snapshot SESSION DIR: what ros2_tracing (humble, iron) asks of
# python3-lttng, Debian's, around a traced run: start:
# session_daemon_alive, create_session, create_handle, enable_channel
# with its attributes, enable_event of every compat:* tracepoint,
# add_context vpid, vtid, procname, start_tracing; stop: stop_tracing,
# destroy_session.  And what else it wraps: list prints list_domains,
# list_channels (with their attributes) and list_events of SESSION's
# user-space domain, a line each; snapshot creates a snapshot
# session writing to DIR (create_snapshot).  Prints what failed and
# exits 1.  ROS2_CHANNEL_ENABLED set: the channel is created enabled
# (python3-lttng 2.16 creates it disabled otherwise).
import os
import sys

import lttng


def check(what, ret):
    if ret < 0:
        print(f"{what}: {lttng.strerror(ret)} ({ret})")
        sys.exit(1)


def start(name, path):
    if not lttng.session_daemon_alive():
        print("session_daemon_alive: 0")
        sys.exit(1)
    check("create", lttng.create(name, path))
    domain = lttng.Domain()
    domain.type = lttng.DOMAIN_UST
    domain.buf_type = lttng.BUFFER_PER_UID
    handle = lttng.Handle(name, domain)
    channel = lttng.Channel()
    channel.name = "ros2"
    channel.attr.overwrite = 0
    channel.attr.subbuf_size = 2 * 4096
    channel.attr.num_subbuf = 8
    channel.attr.switch_timer_interval = 0
    channel.attr.read_timer_interval = 200
    channel.attr.output = lttng.EVENT_MMAP
    # python3-lttng 2.16's Channel() is disabled until this is set, and
    # LTTng 2.16's daemon creates it so: what ros2_tracing sets for it
    if os.environ.get("ROS2_CHANNEL_ENABLED"):
        channel.enabled = 1
    check("enable_channel", lttng.enable_channel(handle, channel))
    event = lttng.Event()
    event.name = "compat:*"
    event.type = lttng.EVENT_TRACEPOINT
    event.loglevel_type = lttng.EVENT_LOGLEVEL_ALL
    check("enable_event", lttng.enable_event(handle, event, channel.name))
    for ctx_type in (lttng.EVENT_CONTEXT_VPID, lttng.EVENT_CONTEXT_VTID,
                     lttng.EVENT_CONTEXT_PROCNAME):
        context = lttng.EventContext()
        context.ctx = ctx_type
        check("add_context", lttng.add_context(handle, context, None, None))
    check("start", lttng.start(name))


def stop(name):
    check("stop", lttng.stop(name))
    check("destroy", lttng.destroy(name))


def listing(name):
    # (not list_sessions: Debian's python3-lttng crashes in it, with
    # LTTng's own daemon too)
    for d in lttng.list_domains(name):
        print(f"domain {d.type} buf_type={d.buf_type}")
    domain = lttng.Domain()
    domain.type = lttng.DOMAIN_UST
    handle = lttng.Handle(name, domain)
    for c in lttng.list_channels(handle).values():
        a = c.attr
        print(f"channel {c.name} enabled={c.enabled} overwrite={a.overwrite} "
              f"subbuf_size={a.subbuf_size} num_subbuf={a.num_subbuf} "
              f"read_timer={a.read_timer_interval} output={a.output}")
        for e in lttng.list_events(handle, c.name).values():
            print(f"event {c.name} {e.name} type={e.type} enabled={e.enabled}")


if sys.argv[1] == "start":
    start(sys.argv[2], sys.argv[3])
elif sys.argv[1] == "list":
    listing(sys.argv[2])
elif sys.argv[1] == "snapshot":
    check("create_snapshot", lttng.create_snapshot(sys.argv[2], sys.argv[3]))
else:
    stop(sys.argv[2])
