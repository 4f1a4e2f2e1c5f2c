// SPDX-License-Identifier: LGPL-2.1-only
/*
 * ltt._agent - the C half of ltt.agent (src/python/ltt/agent.py): the
 * user-space event lttng_python:event that each wanted record of Python's
 * logging module becomes (LTTng's fields and types), and libltt-ust's
 * agent interface (src/ust/agent.h): the rules of the channels this
 * program records in, and the loggers it reports.
 *
 * Importing it loads libltt-ust, which registers the program with the
 * session daemons (bounded, as any program's start).  No function here
 * raises for a daemon's absence or death: event() records or does not,
 * wait() returns the generation, rules() what is known.  On Python's
 * limited API of 3.10 (METH_FASTCALL).
 */
#define Py_LIMITED_API 0x030A0000
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <stdint.h>
#include <stdlib.h>

#include "python/lttng-python-tp.h"
#include "ust/agent.h"

/* A str's UTF-8 (borrowed from it), "" for anything else. */
static const char *text(PyObject *o)
{
	const char *s;

	if (!PyUnicode_Check(o))
		return "";
	s = PyUnicode_AsUTF8AndSize(o, NULL);
	if (!s)
		PyErr_Clear();
	return s ? s : "";
}

/* A non-negative int as the event's 32 bits (LTTng's: truncated), 0 else. */
static unsigned int number(PyObject *o)
{
	unsigned long long v;

	if (!PyLong_Check(o))
		return 0;
	v = PyLong_AsUnsignedLongLongMask(o);
	if (v == (unsigned long long)-1 && PyErr_Occurred()) {
		PyErr_Clear();
		return 0;
	}
	return (unsigned int)v;
}

/*
 * event(asctime, msg, logger_name, funcName, lineno, int_loglevel,
 * thread, threadName): record one lttng_python:event in every channel
 * whose rules take it (filters run here, in libltt-ust).  Never raises.
 */
static PyObject *agent_event(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
	(void)self;
	if (nargs != 8)
		Py_RETURN_NONE;
	if (ltt_tracepoint_enabled(lttng_python, event))
		ltt_tracepoint(lttng_python, event, text(args[0]), text(args[1]), text(args[2]),
			       text(args[3]), number(args[4]), number(args[5]), number(args[6]),
			       text(args[7]));
	Py_RETURN_NONE;
}

/* wait(generation, timeout_ms): the rules' generation once it differs, or at the timeout. */
static PyObject *agent_wait(PyObject *self, PyObject *args)
{
	unsigned long long gen;
	int timeout_ms;
	uint64_t now;

	(void)self;
	if (!PyArg_ParseTuple(args, "Ki", &gen, &timeout_ms))
		return NULL;
	Py_BEGIN_ALLOW_THREADS
	now = ltt_ust_agent_wait(gen, timeout_ms);
	Py_END_ALLOW_THREADS
	return PyLong_FromUnsignedLongLong(now);
}

/* rules(): (generation, [(pattern, loglevel_type, loglevel, exclusions), ...]) */
static PyObject *agent_rules(PyObject *self, PyObject *unused)
{
	struct ltt_ust_agent_rule *rules = NULL;
	PyObject *list, *ret = NULL;
	size_t nr = 0, i;
	uint64_t gen = 0;
	int err;

	(void)self;
	(void)unused;
	Py_BEGIN_ALLOW_THREADS
	err = ltt_ust_agent_rules(&rules, &nr, &gen);
	Py_END_ALLOW_THREADS
	if (err)
		return PyErr_NoMemory();
	list = PyList_New((Py_ssize_t)nr);
	for (i = 0; list && i < nr; i++) {
		PyObject *t = Py_BuildValue("(siis)", rules[i].pattern, rules[i].loglevel_type,
					    rules[i].loglevel, rules[i].exclusions);

		if (!t) {
			Py_CLEAR(list);
			break;
		}
		PyList_SetItem(list, (Py_ssize_t)i, t);
	}
	free(rules);
	if (list) {
		ret = Py_BuildValue("(KO)", (unsigned long long)gen, list);
		Py_DECREF(list);
	}
	return ret;
}

/* loggers(names): report these loggers (a list of str) to the daemons. */
static PyObject *agent_loggers(PyObject *self, PyObject *arg)
{
	const char **names;
	Py_ssize_t n, i;
	int err;

	(void)self;
	if (!PyList_Check(arg)) {
		PyErr_SetString(PyExc_TypeError, "loggers() takes a list of str");
		return NULL;
	}
	n = PyList_Size(arg);
	names = calloc(n ? (size_t)n : 1, sizeof(*names));
	if (!names)
		return PyErr_NoMemory();
	for (i = 0; i < n; i++)
		names[i] = text(PyList_GetItem(arg, i));
	err = ltt_ust_agent_add_loggers(names, (size_t)n);
	free(names);
	if (err)
		return PyErr_NoMemory();
	Py_RETURN_NONE;
}

static PyMethodDef methods[] = {
	{ "event", (PyCFunction)(void (*)(void))agent_event, METH_FASTCALL,
	  "event(asctime, msg, logger_name, funcName, lineno, int_loglevel, thread, threadName)" },
	{ "wait", agent_wait, METH_VARARGS, "wait(generation, timeout_ms) -> generation" },
	{ "rules", agent_rules, METH_NOARGS, "rules() -> (generation, [rule, ...])" },
	{ "loggers", agent_loggers, METH_O, "loggers([name, ...])" },
	{ NULL, NULL, 0, NULL },
};

static struct PyModuleDef module = {
	PyModuleDef_HEAD_INIT, "ltt._agent",
	"libltt-ust for ltt.agent: the event lttng_python:event and the agent's rules",
	-1, methods, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__agent(void);
PyMODINIT_FUNC PyInit__agent(void)
{
	return PyModule_Create(&module);
}
