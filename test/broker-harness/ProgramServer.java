/*
 * ProgramServer: one long-lived JVM that runs the harness's one-shot Admin programs (Offsets,
 * AdminOps, CommitOffset, GroupAdmin) on request, so a test's read-back through Kafka's own Admin
 * client costs the Admin client's round trips, not a JVM start and Kafka's class loading (about a
 * second each on a loaded 2-core machine, hundreds of times a run).
 *
 *   java -cp 'CLASSES:CLIENTS_LIB/*' ProgramServer
 *
 * Standard input, one request a line:  RUN <id> <Program> [<base64 UTF-8 argument> ...]
 * Standard output, one answer a line:  DONE <id> <exit code> <base64 stdout> <base64 stderr>
 * A program's `public static int run(String[] argv, PrintStream out, PrintStream err)` does the work,
 * the same method its own main calls, so its output is exactly what a run of its own would print.
 * Requests run side by side, each on a thread of its own. The JVM exits when its standard input
 * closes: it never outlives the test process that started it.
 */

import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Set;

public class ProgramServer {
  static final Set<String> PROGRAMS = Set.of("Offsets", "AdminOps", "CommitOffset", "GroupAdmin");
  static final PrintStream OUT =
      new PrintStream(new FileOutputStream(FileDescriptor.out), false, StandardCharsets.UTF_8);

  public static void main(String[] argv) throws Exception {
    BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    for (String line = in.readLine(); line != null; line = in.readLine()) {
      String[] f = line.split(" ", -1);
      if (f.length < 3 || !f[0].equals("RUN")) {
        System.err.println("ERROR not a request: " + line);
        continue;
      }
      String id = f[1];
      String program = f[2];
      String[] args = new String[f.length - 3];
      for (int i = 0; i < args.length; i++) {
        args[i] = new String(Base64.getDecoder().decode(f[i + 3]), StandardCharsets.UTF_8);
      }
      Thread t = new Thread(() -> answer(id, program, args), "run-" + program + "-" + id);
      t.setDaemon(true);
      t.start();
    }
    OUT.flush();
    System.exit(0);
  }

  static void answer(String id, String program, String[] args) {
    ByteArrayOutputStream outBytes = new ByteArrayOutputStream();
    ByteArrayOutputStream errBytes = new ByteArrayOutputStream();
    PrintStream out = new PrintStream(outBytes, true, StandardCharsets.UTF_8);
    PrintStream err = new PrintStream(errBytes, true, StandardCharsets.UTF_8);
    int code;
    try {
      if (!PROGRAMS.contains(program)) throw new IllegalArgumentException("not a served program: " + program);
      Method run = Class.forName(program).getMethod("run", String[].class, PrintStream.class, PrintStream.class);
      code = (Integer) run.invoke(null, args, out, err);
    } catch (Throwable e) {
      Throwable cause = e instanceof InvocationTargetException && e.getCause() != null ? e.getCause() : e;
      err.println("ERROR " + cause.getClass().getName() + ": " + cause.getMessage());
      cause.printStackTrace(err);
      code = 1;
    }
    out.flush();
    err.flush();
    Base64.Encoder b64 = Base64.getEncoder();
    String reply = "DONE " + id + " " + code + " " + b64.encodeToString(outBytes.toByteArray()) + " "
        + b64.encodeToString(errBytes.toByteArray());
    synchronized (OUT) {
      OUT.println(reply);
      OUT.flush();
    }
  }
}
