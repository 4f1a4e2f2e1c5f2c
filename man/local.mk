# man: pages written in troff -man, nothing to generate.
dist_man_MANS += \
	man/ltt-run.1 \
	man/lttctl.1 \
	man/lttctl-create.1 \
	man/lttctl-destroy.1 \
	man/lttctl-start.1 \
	man/lttctl-stop.1 \
	man/lttctl-list.1 \
	man/lttctl-status.1 \
	man/lttctl-set-session.1 \
	man/lttctl-enable-channel.1 \
	man/lttctl-disable-channel.1 \
	man/lttctl-enable-event.1 \
	man/lttctl-disable-event.1 \
	man/lttctl-add-context.1 \
	man/lttctl-view.1 \
	man/lttctl-snapshot.1 \
	man/lttctl-save.1 \
	man/lttctl-load.1 \
	man/lttctl-version.1 \
	man/lttctl-help.1 \
	man/lttctl-rotate.1 \
	man/lttctl-enable-rotation.1 \
	man/lttctl-disable-rotation.1 \
	man/lttctl-clear.1 \
	man/lttctl-regenerate.1 \
	man/lttctl-track.1 \
	man/lttctl-untrack.1 \
	man/lttctl-add-trigger.1 \
	man/lttctl-list-triggers.1 \
	man/lttctl-remove-trigger.1 \
	man/lttctl-wait-trigger.1 \
	man/ltt-ust.3 \
	man/ltt_tracepoint.3 \
	man/ltt-sessiond.8 \
	man/ltt-consumerd.8 \
	man/ltt-relayd.8
