# systemd: the units of the root session daemon and of the relay daemon,
# and the sysusers.d entry that creates the tracing group and the user ltt
# the root daemon drops to (make install never touches system groups).

systemdsystemunit_DATA = systemd/ltt-sessiond.service systemd/ltt-relayd.service
sysusersdir = $(prefix)/lib/sysusers.d
sysusers_DATA = systemd/ltt.conf

EXTRA_DIST += systemd/ltt-sessiond.service.in systemd/ltt-relayd.service.in \
	systemd/ltt.sysusers.conf systemd/lttng-compat.conf.in
CLEANFILES += systemd/ltt-sessiond.service systemd/ltt-relayd.service systemd/ltt.conf \
	systemd/lttng-compat.conf

# @bindir[@] keeps config.status from substituting the pattern itself.
systemd/ltt-sessiond.service: $(srcdir)/systemd/ltt-sessiond.service.in Makefile
	$(AM_V_GEN)$(MKDIR_P) systemd && \
	$(SED) -e 's|@bindir[@]|$(bindir)|g' -e 's|@sysconfdir[@]|$(sysconfdir)|g' \
		$(srcdir)/systemd/ltt-sessiond.service.in > $@.tmp && \
	mv -f $@.tmp $@

systemd/ltt-relayd.service: $(srcdir)/systemd/ltt-relayd.service.in Makefile
	$(AM_V_GEN)$(MKDIR_P) systemd && \
	$(SED) -e 's|@bindir[@]|$(bindir)|g' \
		$(srcdir)/systemd/ltt-relayd.service.in > $@.tmp && \
	mv -f $@.tmp $@

# make install-lttng-compat: the drop-in that turns --lttng-compat on for
# the root daemon's unit (ltt-sessiond.service.d/lttng-compat.conf), which
# a plain make install leaves out: the host may run LTTng's daemon.  The
# ltt-lttng-compat package holds it (debian/rules; doc/lttng-packaging.md).
systemd/lttng-compat.conf: $(srcdir)/systemd/lttng-compat.conf.in Makefile
	$(AM_V_GEN)$(MKDIR_P) systemd && \
	$(SED) -e 's|@bindir[@]|$(bindir)|g' \
		$(srcdir)/systemd/lttng-compat.conf.in > $@.tmp && \
	mv -f $@.tmp $@

install-lttng-compat: systemd/lttng-compat.conf
	$(MKDIR_P) '$(DESTDIR)$(systemdsystemunitdir)/ltt-sessiond.service.d'
	$(INSTALL_DATA) systemd/lttng-compat.conf \
		'$(DESTDIR)$(systemdsystemunitdir)/ltt-sessiond.service.d/lttng-compat.conf'

uninstall-lttng-compat:
	rm -f '$(DESTDIR)$(systemdsystemunitdir)/ltt-sessiond.service.d/lttng-compat.conf'
	-rmdir '$(DESTDIR)$(systemdsystemunitdir)/ltt-sessiond.service.d'

.PHONY: install-lttng-compat uninstall-lttng-compat

# Installed as ltt.conf; the group follows configure --with-tracing-group.
systemd/ltt.conf: $(srcdir)/systemd/ltt.sysusers.conf Makefile
	$(AM_V_GEN)$(MKDIR_P) systemd && \
	$(SED) -e 's|^g tracing |g $(LTT_TRACING_GROUP) |' \
		$(srcdir)/systemd/ltt.sysusers.conf > $@.tmp && \
	mv -f $@.tmp $@

# make install (as root, not staged with DESTDIR) creates the tracing
# group itself when systemd-sysusers is not there to do it, so that the
# root daemon's socket has a group to serve from the start.
install-data-hook:
	@if test -z "$(DESTDIR)" && test "`id -u`" = 0 && \
	    ! getent group $(LTT_TRACING_GROUP) >/dev/null; then \
		if command -v systemd-sysusers >/dev/null 2>&1; then \
			systemd-sysusers $(DESTDIR)$(sysusersdir)/ltt.conf; \
		else \
			groupadd -r $(LTT_TRACING_GROUP); \
		fi && echo "Created the system group $(LTT_TRACING_GROUP) (members may use the root session daemon)"; \
	fi
