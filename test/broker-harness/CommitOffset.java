/*
 * CommitOffset: commits the given offsets for a group with Kafka's own Admin client
 * (alterConsumerGroupOffsets), with no cap at the log end: tests use it for offsets no test topic could
 * reach by producing, such as values above 2^31. A group nobody joins is created Empty (classic).
 *
 *   java -cp 'CLIENTS_LIB/*' test/broker-harness/CommitOffset.java --bootstrap HOST:PORT --group GROUP_ID \
 *        --offset TOPIC PARTITION OFFSET [--offset ...]
 *
 * Prints "COMMITTED" once Kafka accepted every offset; "ERROR ..." on standard error and exit 1 otherwise.
 */

import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;

public class CommitOffset {
  public static void main(String[] argv) {
    PrintStream out = new PrintStream(new FileOutputStream(FileDescriptor.out), true, StandardCharsets.UTF_8);
    PrintStream err = new PrintStream(new FileOutputStream(FileDescriptor.err), true, StandardCharsets.UTF_8);
    System.exit(run(argv, out, err));
  }

  /** One run with its output on `out` and `err`, and its exit code: main's, and ProgramServer's. */
  public static int run(String[] argv, PrintStream out, PrintStream err) {
    String bootstrap = null;
    String group = null;
    Map<TopicPartition, OffsetAndMetadata> offsets = new LinkedHashMap<>();
    try {
      for (int i = 0; i < argv.length; i++) {
        switch (argv[i]) {
          case "--bootstrap" -> bootstrap = argv[++i];
          case "--group" -> group = argv[++i];
          case "--offset" -> {
            TopicPartition tp = new TopicPartition(argv[i + 1], Integer.parseInt(argv[i + 2]));
            offsets.put(tp, new OffsetAndMetadata(Long.parseLong(argv[i + 3])));
            i += 3;
          }
          default -> throw new IllegalArgumentException("unknown argument " + argv[i]);
        }
      }
    } catch (IllegalArgumentException | IndexOutOfBoundsException e) {
      err.println("ERROR " + e.getMessage());
      return 2;
    }
    if (bootstrap == null || group == null || offsets.isEmpty()) {
      err.println("ERROR usage: --bootstrap HOST:PORT --group ID --offset TOPIC PARTITION OFFSET ...");
      return 2;
    }
    Properties props = new Properties();
    props.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    props.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 30_000);
    try (Admin admin = Admin.create(props)) {
      admin.alterConsumerGroupOffsets(group, offsets).all().get(60, TimeUnit.SECONDS);
      out.println("COMMITTED");
      return 0;
    } catch (Exception e) {
      err.println("ERROR " + e);
      return 1;
    }
  }
}
