/*
 * Keytool: runs several keytool commands, one after the other, in one JVM: the JDK's own keytool
 * (sun.security.tools.keytool.Main, the class the `keytool` command runs), so the JVM starts and
 * warms up once instead of once per command (about a second less for broker.ts's six commands).
 *
 *   java --add-exports java.base/sun.security.tools.keytool=ALL-UNNAMED test/broker-harness/Keytool.java \
 *     -genkeypair ... --next -exportcert ... --next ...
 *
 * Each command's arguments are exactly those of `keytool`; a lone `--next` separates commands. The
 * first command that fails ends the JVM with keytool's message and a non-zero exit code.
 *
 * One command is not keytool's: `-exportkey <keystore> <storepass> <alias> <file>` writes the private
 * key of `alias` as PKCS#8 PEM, which keytool cannot do and clients of mutual TLS need (PEM key
 * and certificate, as KAFKA_SSL_KEY/KAFKA_SSL_CERT take them).
 *
 * Java 17 runs this file as a single source file; it needs nothing but the JDK.
 */

import java.io.FileInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.Key;
import java.security.KeyStore;
import java.util.ArrayList;
import java.util.Base64;
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
    if (command.get(0).equals("-exportkey")) {
      exportKey(command.get(1), command.get(2).toCharArray(), command.get(3), Path.of(command.get(4)));
      return;
    }
    // Returns when the command succeeded; on failure it prints the error and exits (or throws).
    sun.security.tools.keytool.Main.main(command.toArray(new String[0]));
  }

  private static void exportKey(String keystore, char[] storepass, String alias, Path out) throws Exception {
    KeyStore store = KeyStore.getInstance("PKCS12");
    try (FileInputStream in = new FileInputStream(keystore)) {
      store.load(in, storepass);
    }
    Key key = store.getKey(alias, storepass);
    if (key == null) throw new IllegalArgumentException("no key under alias " + alias);
    String body = Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII)).encodeToString(key.getEncoded());
    Files.writeString(out, "-----BEGIN PRIVATE KEY-----\n" + body + "\n-----END PRIVATE KEY-----\n");
  }
}
