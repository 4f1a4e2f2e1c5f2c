/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * consumerd.h - map of ltt-consumerd, module by module, each under its
 * folder: cmd/, data/, trace/, source/, sink/, relay/.  See
 * doc/consumerd.md for its threads, object tree, states, ownership, lock
 * order and flush protocol.
 *
 *   main.c          options, signals, dropping to the owner's ids, starting
 *                   and stopping the threads
 *
 * cmd/: the command thread (the main thread after start):
 *   cmd/cmd.[ch]    the socket, HELLO, the one command table, dispatch,
 *                   the reply; the handlers' contract
 *   cmd/cmd-trace.c     ADD_TRACE, ADD_SNAPSHOT_TRACE, METADATA,
 *                   RESET_METADATA, DESTROY_TRACE, PROBE_OUTPUT
 *   cmd/cmd-channel.c   ADD_CHANNEL, ADD_STREAM, ADD_KERNEL_STREAM,
 *                   ADD_FTRACE_STREAM, STREAMS_SENT, FLUSH_CHANNEL,
 *                   CHANNEL_STATS, DESTROY_CHANNEL
 *   cmd/cmd-relay.c     ADD_RELAY, RELAY_DATA_PENDING, RELAY_STATUS,
 *                   RELAY_ARCHIVE, RELAY_ARCHIVE_RESULT, DEL_RELAY
 *   cmd/cmd-chunk.c     ROTATE_TRACE (new chunk, clear), SNAPSHOT_TRACE,
 *                   SNAPSHOT_TRACE_RELAY
 *   cmd/registry.[ch]   the traces, channels and relays by key, their
 *                   limits, their removal (a channel's through its parts'
 *                   data threads); a key that names nothing
 *
 * data/: the data threads (data-0 .. data-N-1, --data-threads N), each
 * its own event loop over the channel parts it was given:
 *   data/data.[ch]  the threads: their start and stop, placement (which
 *                   thread runs which part), the command thread's calls
 *                   (a channel request fanned out to its parts' threads)
 *   data/data-loop.[ch]  each thread's loop: its streams' sources and
 *                   sinks, its parts' timers, the requests it runs and
 *                   their answers
 *   data/data-relay.[ch] the relays, all on data-0: socket watches, tick,
 *                   live timer (data-loop.c's walk, handed down as a
 *                   hook), closing
 *   data/data-req.h the requests the data threads run and the answers
 *                   they fill in (above the object tree: it names
 *                   source.h's and snapshot.h's counters)
 *   data/prio.[ch]  each data thread's own scheduling: real-time, else
 *                   nice -10
 *
 * trace/: the object tree (a snapshot reads a trace's channels and
 * streams):
 *   trace/snapshot.[ch] a snapshot: the buffers copied, unconsumed, to a
 *                   directory or a relay path
 *   trace/trace.[ch]    a trace: local directories, a relay path or a
 *                   snapshot trace; its chunk; its packetized metadata
 *                   through its output
 *   trace/channel.[ch]  a channel: configuration, its parts (the streams
 *                   one data thread runs, with its timers), their stats,
 *                   its output in its trace
 *   trace/stream.[ch]   a stream: packets from its source to its sink, its
 *                   states, failures and counters
 *
 * source/: what a stream reads:
 *   source/source-ust.[ch]  the "ust" source: a user-space shared-memory
 *                   ring buffer
 *   source/source-kernel.[ch]  the "kernel" source: an ltt-tracer.ko
 *                   stream fd
 *   source/source-tracefs.[ch]  the "tracefs" source: an ftrace
 *                   instance's per_cpu/cpuN/trace_pipe_raw, converted
 *   source/source-tracefs-events.[ch]  a tracefs channel's copy of its
 *                   event map: the published layouts and filters, synced,
 *                   checked
 *   source/source-tracefs-stats.[ch]  ftrace's per_cpu/cpuN/stats beside
 *                   the pipe: what ftrace dropped or overwrote, its counts
 *   source/source.[ch]  the source interface
 *
 * sink/: sinks and outputs (where packets go):
 *   sink/sink-file.[ch] the file output: data and index files, rotation,
 *                   splice, taking over a dead consumer's files
 *   sink/fs.[ch]    creating directories and files for the trace's owner
 *   sink/sink-relay.[ch]  the relay output: its sinks and outputs, each
 *                   sending through the relay link
 *   sink/sink.[ch]  the sink and output interface
 *
 * relay/: the relay link, under the relay output:
 *   relay/rlink.h   its calls (ltt_rlink_*): a relay session's life, I/O,
 *                   queues, beacons, data pending, connection loss
 *   relay/relay-session.c  its life: connect (the command thread, with a
 *                   deadline), close and destroy (data-0)
 *   relay/relay-archive.c  a closed chunk archived on the relay
 *                   (ARCHIVE_CHUNK)
 *   relay/relay-reconcile.c  after the relay died: a relay answering
 *                   again asked which unconfirmed packets it wrote
 *                   (RECONCILE_STREAM), those counted recorded
 *   relay/relay-link.[ch]  one relay session's connections: socket I/O,
 *                   requests and the replies awaited, the relay's lock; an
 *                   archive's steps through the two calls relay-archive.c
 *                   sets
 *   relay/relay-queue.c  the link's byte queues, and a lost connection:
 *                   what is queued and awaited dropped, packets counted lost
 *
 * Each file calls only files listed below it, so no folder calls one
 * listed above it.
 *
 * The tracefs source converts pages with common/ftrace/ftrace-conv.[ch], which
 * the session daemon's kernel notifiers also read records with.
 */
#ifndef LTT_CONSUMERD_CONSUMERD_H
#define LTT_CONSUMERD_CONSUMERD_H

#include "consumerd/cmd/cmd.h"
#include "consumerd/cmd/registry.h"
#include "consumerd/data/data.h"
#include "consumerd/data/prio.h"
#include "consumerd/sink/fs.h"
#include "consumerd/sink/sink-file.h"
#include "consumerd/sink/sink-relay.h"
#include "consumerd/sink/sink.h"
#include "consumerd/source/source-kernel.h"
#include "consumerd/source/source-tracefs-events.h"
#include "consumerd/source/source-tracefs-stats.h"
#include "consumerd/source/source-tracefs.h"
#include "consumerd/source/source-ust.h"
#include "consumerd/source/source.h"
#include "consumerd/trace/channel.h"
#include "consumerd/trace/snapshot.h"
#include "consumerd/trace/stream.h"
#include "consumerd/trace/trace.h"

/*
 * lttng_consumer_get_type() - what LTTng's test point functions
 * (common/base/testpoint.h) ask a consumer, by LTTng's name: LTTng's
 * LTTNG_CONSUMER64_UST (2), or LTTNG_CONSUMER32_UST (3) in a 32-bit build,
 * whichever domain it serves: the test's pause FIFO is named "-ust64"
 * after it (LTTng's tests pause every consumer they find).
 */
int lttng_consumer_get_type(void);

#endif /* LTT_CONSUMERD_CONSUMERD_H */
