// A program that logs through LTTng's own Java agents, as Debian ships
// them (liblttng-ust-agent-java), for test_lttng_java.sh and the tests
// beside it (test_lttng_java_record.sh, test_lttng_agent_java_216.sh,
// the compat tests).  Its first argument picks the framework: "jul"
// (java.util.logging with LttngLogHandler) or "log4j" (log4j 1.2 with
// LttngLogAppender).  The handler hangs on the loggers qa.app and
// qa.other.  Beside the agent it runs LTTng's own agent client
// (LttngTcpSessiondClient) with a listener
// that prints each rule as the agent code parses it from the daemon:
//   rule enable NAME LEVEL TYPE FILTER   /  rule disable NAME
// and it answers lines on stdin:
//   enabled LOGGER yes|no -> waits (30 s at most) until the agent's
//                            isEventEnabled(LOGGER) says so; prints
//                            "enabled LOGGER yes|no"
//   log LOGGER N          -> logs N records at INFO on LOGGER; prints
//                            "count C", the records the handler passed on
//   record N              -> N rounds: in each, on qa.app, qa.other,
//                            qa.fmt.sub and zz.none (each of every level,
//                            the handler on it), one record at each of the
//                            framework's levels, "keep R at LEVEL" in odd
//                            rounds, "skip R at LEVEL" in even ones; then
//                            prints "recorded"
//   exit                  -> exits
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.lang.reflect.Method;
import java.util.Collection;
import java.util.Collections;

import org.lttng.ust.agent.AbstractLttngAgent;
import org.lttng.ust.agent.client.ILttngTcpClientListener;
import org.lttng.ust.agent.client.LttngTcpSessiondClient;
import org.lttng.ust.agent.session.EventRule;

public class LttngJavaApp {
	interface Framework {
		void log(String logger);
		long count();
		/* one record on LOGGER at each level, the message "WORD R at LEVEL" */
		void levels(String logger, String word, int round);
	}

	static final String[] RECORD_LOGGERS = { "qa.app", "qa.other", "qa.fmt.sub", "zz.none" };
	/* the loggers levels() set to every level (and gave the handler) */
	static final java.util.Set<String> prepared = new java.util.HashSet<>();

	static class Jul implements Framework {
		final org.lttng.ust.agent.jul.LttngLogHandler handler;

		Jul() throws Exception {
			handler = new org.lttng.ust.agent.jul.LttngLogHandler();
			for (String name : new String[] { "qa.app", "qa.other" })
				java.util.logging.Logger.getLogger(name).addHandler(handler);
		}

		public void log(String logger) {
			java.util.logging.Logger.getLogger(logger).info("hello");
		}

		public long count() {
			return handler.getEventCount();
		}

		public void levels(String name, String word, int round) {
			java.util.logging.Logger l = java.util.logging.Logger.getLogger(name);
			if (prepared.add(name)) {
				l.setLevel(java.util.logging.Level.ALL);
				if (!name.equals("qa.app") && !name.equals("qa.other"))
					l.addHandler(handler);
			}
			for (java.util.logging.Level v : new java.util.logging.Level[] {
					java.util.logging.Level.FINEST, java.util.logging.Level.FINER,
					java.util.logging.Level.FINE, java.util.logging.Level.CONFIG,
					java.util.logging.Level.INFO, java.util.logging.Level.WARNING,
					java.util.logging.Level.SEVERE })
				l.log(v, word + " " + round + " at " + v.intValue());
		}
	}

	static class Log4j implements Framework {
		final org.lttng.ust.agent.log4j.LttngLogAppender appender;

		Log4j() throws Exception {
			appender = new org.lttng.ust.agent.log4j.LttngLogAppender();
			for (String name : new String[] { "qa.app", "qa.other" })
				org.apache.log4j.Logger.getLogger(name).addAppender(appender);
		}

		public void log(String logger) {
			org.apache.log4j.Logger.getLogger(logger).info("hello");
		}

		public long count() {
			return appender.getEventCount();
		}

		public void levels(String name, String word, int round) {
			org.apache.log4j.Logger l = org.apache.log4j.Logger.getLogger(name);
			if (prepared.add(name)) {
				l.setLevel(org.apache.log4j.Level.ALL);
				if (!name.equals("qa.app") && !name.equals("qa.other"))
					l.addAppender(appender);
			}
			for (org.apache.log4j.Level v : new org.apache.log4j.Level[] {
					org.apache.log4j.Level.TRACE, org.apache.log4j.Level.DEBUG,
					org.apache.log4j.Level.INFO, org.apache.log4j.Level.WARN,
					org.apache.log4j.Level.ERROR, org.apache.log4j.Level.FATAL })
				l.log(v, word + " " + round + " at " + v.toInt());
		}
	}

	static synchronized void say(String line) {
		System.out.println(line);
		System.out.flush();
	}

	public static void main(String[] args) throws Exception {
		boolean jul = args[0].equals("jul");
		Framework fw = jul ? new Jul() : new Log4j();
		Class<?> c = Class.forName(jul ? "org.lttng.ust.agent.jul.LttngJulAgent"
				: "org.lttng.ust.agent.log4j.LttngLog4jAgent");
		Method get = c.getDeclaredMethod("getInstance");
		get.setAccessible(true);
		AbstractLttngAgent<?> agent = (AbstractLttngAgent<?>) get.invoke(null);
		ILttngTcpClientListener spy = new ILttngTcpClientListener() {
			public boolean eventEnabled(EventRule r) {
				say("rule enable " + r.getEventName() + " " + r.getLogLevelSelector().getLogLevel()
						+ " " + r.getLogLevelSelector().getLogLevelType() + " " + r.getFilterString());
				return true;
			}

			public boolean eventDisabled(String name) {
				say("rule disable " + name);
				return true;
			}

			public boolean appContextEnabled(String p, String n) {
				return true;
			}

			public boolean appContextDisabled(String p, String n) {
				return true;
			}

			public Collection<String> listAvailableEvents() {
				return Collections.emptyList();
			}
		};
		LttngTcpSessiondClient client = new LttngTcpSessiondClient(spy, jul ? 3 : 4, false);
		Thread t = new Thread(client);
		t.setDaemon(true);
		t.start();
		client.waitForConnection(10);
		say("ready");
		BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
		String line;
		while ((line = in.readLine()) != null) {
			String[] w = line.split(" ");
			if (w[0].equals("enabled")) {
				boolean want = w[2].equals("yes");
				long until = System.nanoTime() + 30_000_000_000L;
				while (agent.isEventEnabled(w[1]) != want && System.nanoTime() < until)
					Thread.sleep(5);
				say("enabled " + w[1] + " " + (agent.isEventEnabled(w[1]) ? "yes" : "no"));
			} else if (w[0].equals("log")) {
				for (int i = 0; i < Integer.parseInt(w[2]); i++)
					fw.log(w[1]);
				say("count " + fw.count());
			} else if (w[0].equals("record")) {
				for (int r = 0; r < Integer.parseInt(w[1]); r++)
					for (String name : RECORD_LOGGERS)
						fw.levels(name, r % 2 == 1 ? "keep" : "skip", r);
				say("recorded");
			} else if (w[0].equals("exit")) {
				break;
			}
		}
		client.close();
		System.exit(0);
	}
}
