/*
 * Keytool: runs several keytool commands, one after the other, in one JVM: the JDK's own keytool
 * (sun.security.tools.keytool.Main, the class the `keytool` command runs), so the JVM starts and
 * warms up once instead of once per command (about a second less for broker.ts's six commands).
 *
 *   java --add-exports java.base/sun.security.tools.keytool=ALL-UNNAMED test/kafka/Keytool.java \
 *     -genkeypair ... --next -exportcert ... --next ...
 *
 * Each command's arguments are exactly those of `keytool`; a lone `--next` separates commands. The
 * first command that fails ends the JVM with keytool's message and a non-zero exit code.
 *
 * Java 17 runs this file as a single source file; it needs nothing but the JDK.
 */

import java.util.ArrayList;
import java.util.List;

public class Keytool {
  public static void main(String[] args) throws Exception {
    List<String> command = new ArrayList<>();
    for (String arg : args) {
      if (arg.equals("--next")) {
        run(command);
        command.clear();
      } else {
        command.add(arg);
      }
    }
    run(command);
  }

  private static void run(List<String> command) throws Exception {
    if (command.isEmpty()) return;
    // Returns when the command succeeded; on failure it prints the error and exits (or throws).
    sun.security.tools.keytool.Main.main(command.toArray(new String[0]));
  }
}
