# src/python: the package ltt for Python 3 (`import ltt`): ltt/__init__.py,
# the API, over _ltt.so, a C extension calling libltt-ctl (Python's
# limited API: one binary for every Python 3 from 3.9).  Installed in
# $(LTT_PYTHON_DIR)/ltt (configure --with-python-dir; --without-python
# leaves it out; "exec" in the directory's name: installed by
# install-exec, before its hook).  test_python_ctl.sh runs it from the
# build tree.
EXTRA_DIST += src/python/ltt/__init__.py src/python/ltt/agent.py
if BUILD_PYTHON
pythonlttexec_LTLIBRARIES = src/python/_ltt.la
pythonlttexec_DATA = src/python/ltt/__init__.py
src_python__ltt_la_SOURCES = src/python/_ltt.c
src_python__ltt_la_CPPFLAGS = $(AM_CPPFLAGS) $(PYTHON_CPPFLAGS)
# Python.h declares some of its calls twice (PY_SSIZE_T_CLEAN)
src_python__ltt_la_CFLAGS = $(AM_CFLAGS) -Wno-redundant-decls
# an extension's Python symbols come from the interpreter that loads it
src_python__ltt_la_LDFLAGS = -module -avoid-version -shared
src_python__ltt_la_LIBADD = src/lib/ltt-ctl/libltt-ctl.la
# ltt.agent's C half: lttng_python:event and libltt-ust's agent interface
pythonlttexec_LTLIBRARIES += src/python/_agent.la
pythonlttexec_DATA += src/python/ltt/agent.py
src_python__agent_la_SOURCES = src/python/_agent.c src/python/lttng-python-tp.h
src_python__agent_la_CPPFLAGS = $(AM_CPPFLAGS) $(PYTHON_CPPFLAGS)
src_python__agent_la_CFLAGS = $(AM_CFLAGS) -Wno-redundant-decls
src_python__agent_la_LDFLAGS = -module -avoid-version -shared
src_python__agent_la_LIBADD = src/ust/libltt-ust.la
endif

# libtool's archive is no use to Python; the module takes the name of
# the limited API's binaries (_ltt.abi3.so: any Python 3, which Debian's
# dh_python3 leaves as it is)
install-exec-hook: python-la-remove
python-la-remove:
	for m in _ltt _agent; do \
		rm -f "$(DESTDIR)$(pythonlttexecdir)/$$m.la"; \
		if test -f "$(DESTDIR)$(pythonlttexecdir)/$$m.so"; then \
			mv -f "$(DESTDIR)$(pythonlttexecdir)/$$m.so" "$(DESTDIR)$(pythonlttexecdir)/$$m.abi3.so"; fi; \
	done
# (nor to libtool's uninstall, which finds no archive to say what to remove)
uninstall-hook: python-uninstall
python-uninstall:
	rm -f '$(DESTDIR)$(pythonlttexecdir)/_ltt.abi3.so' '$(DESTDIR)$(pythonlttexecdir)/_agent.abi3.so'
	-rmdir '$(DESTDIR)$(pythonlttexecdir)' 2>/dev/null
.PHONY: python-la-remove python-uninstall
