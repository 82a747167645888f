/*
 * Launcher: runs a main class (here kafka.Kafka) in this JVM and, when asked, ties the JVM's life to
 * its parent's.
 *
 *   java -cp 'LIB/*' test/broker-harness/Launcher.java [--exit-on-stdin-eof] [--halt-after-ms N] MAIN_CLASS [ARGS...]
 *
 * --exit-on-stdin-eof  a daemon thread reads standard input and discards it; at end of file (the parent
 *                      closed its end of the pipe, or died, even by SIGKILL) it calls System.exit(0), so
 *                      the main class's shutdown hooks run (Kafka then shuts the broker down cleanly).
 * --halt-after-ms N    after that exit has begun, halt the JVM if the shutdown hooks take longer than
 *                      N ms (default 30000), so a stuck shutdown cannot leave a JVM behind.
 *
 * Without --exit-on-stdin-eof the JVM lives until the main class returns or a signal stops it
 * (SIGTERM and SIGINT run the shutdown hooks too).
 *
 * Java 17 runs this file as a single source file; it needs nothing but the JDK.
 */

import java.io.InputStream;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.Arrays;

public class Launcher {
  public static void main(String[] args) throws Throwable {
    boolean exitOnEof = false;
    long haltAfterMs = 30_000;
    int i = 0;
    for (; i < args.length && args[i].startsWith("--"); i++) {
      switch (args[i]) {
        case "--exit-on-stdin-eof":
          exitOnEof = true;
          break;
        case "--halt-after-ms":
          haltAfterMs = Long.parseLong(args[++i]);
          break;
        default:
          System.err.println("Launcher: unknown option " + args[i]);
          System.exit(2);
      }
    }
    if (i >= args.length) {
      System.err.println(
          "usage: Launcher [--exit-on-stdin-eof] [--halt-after-ms N] MAIN_CLASS [ARGS...]");
      System.exit(2);
    }
    String mainClass = args[i];
    String[] mainArgs = Arrays.copyOfRange(args, i + 1, args.length);

    if (exitOnEof) {
      final long halt = haltAfterMs;
      Thread watcher = new Thread(() -> watchStdin(halt), "launcher-stdin-watch");
      watcher.setDaemon(true);
      watcher.start();
    }

    Class<?> cls = Class.forName(mainClass, true, ClassLoader.getSystemClassLoader());
    Method main = cls.getMethod("main", String[].class);
    try {
      main.invoke(null, (Object) mainArgs);
    } catch (InvocationTargetException e) {
      throw e.getCause();
    }
  }

  private static void watchStdin(long haltAfterMs) {
    byte[] buf = new byte[256];
    InputStream in = System.in;
    try {
      while (in.read(buf) >= 0) {
        // Input is ignored: only the end of the stream matters.
      }
    } catch (Exception e) {
      // A broken pipe means the parent is gone, just as end of file does.
    }
    System.err.println("Launcher: standard input closed, the parent is gone: exiting");
    Thread halter = new Thread(() -> {
      try {
        Thread.sleep(haltAfterMs);
      } catch (InterruptedException e) {
        return;
      }
      System.err.println("Launcher: shutdown took longer than " + haltAfterMs + " ms: halting");
      Runtime.getRuntime().halt(1);
    }, "launcher-halt");
    halter.setDaemon(true);
    halter.start();
    System.exit(0);
  }
}
